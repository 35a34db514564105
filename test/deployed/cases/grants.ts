import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureNgramTable } from '../aws.js';
import { clearLedger, PROBE_TABLE, probeFor, putProbeObjects, runProbe } from '../grant-probes.js';
import { grantRemovals, removeGrant, type GrantRemoval } from '../grant-removals.js';
import { editedAssembly, ENGINE_ACTION_NAMES, readTemplate } from '../../../cli/local-deploy/index.js';
import { PARTNER_BUCKET, redeploy, STACK } from '../tier-stack.js';

/**
 * Grants == calls, on a deployment: each statement of a pipeline function's role, removed from the template and
 * deployed (a CloudFormation update of the stack), makes an import that needs it fail with the engine's AccessDenied
 * naming one of its actions. The engine enforces the Lambda roles; it does not enforce the state machine's role
 * (lambda:InvokeFunction, states:StartExecution for the Distributed Map) nor the EventBridge rule's role
 * (states:StartExecution): those are not removed here, and no deployed case can show them.
 */
const { assemblyDir, scratchDir } = inject('deployed');
const removals = grantRemovals(readTemplate(assemblyDir, STACK), PROBE_TABLE);

/** Statements whose removal the engine cannot show, by `<function> <action>`, and why. */
const NOT_SHOWN: Record<string, string> = {
  // No call of ours: with it, a GET of a key that is gone answers 404 NoSuchKey instead of 403 AccessDenied
  // (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html, "Permissions"), which the import names.
  'Import s3:ListBucket': 'a grant for the 404 of a missing key, not a call',
  // ministack maps no IAM action to GET /2016-08-19/account-settings (core/iam_actions.py _lambda_action).
  'Preflight lambda:GetAccountSettings': 'the engine does not check lambda:GetAccountSettings',
  // Seen on the engine: without this statement (DescribeExecution on the Map's child executions), FindFailedChunk's
  // ListExecutions of the Map Run's children is denied before any DescribeExecution is made, though the
  // ListExecutions statement (on the Map Run) is still there: the engine resolves no resource of its own for a
  // ListExecutions by mapRunArn (core/iam_actions.py answers "*"), so this removal shows as the other's denial.
  'FailedChunk states:DescribeExecution': 'the engine denies ListExecutions first (its resource for a Map Run)',
};

/** What the failed probe shows of the denial: the engine's message, or a HEAD's bodiless 403 (as on AWS). */
function deniedEvidence(removal: GrantRemoval): string[] {
  const actions = removal.actions.flatMap((action) => [action, ENGINE_ACTION_NAMES[action] ?? []].flat());
  const messages = actions.map((action) => `is not authorized to perform: ${action} `);
  // Preflight's first read is a HeadObject: a 403 to a HEAD has no body, so preflight names the grant itself
  // (SourceObjectAccessDeniedError, lambdas/preflight/preflight-io.ts).
  const headDenied = "cannot be read (403 Forbidden): the function's role needs s3:GetObject on it";
  return removal.fn === 'Preflight' && actions.includes('s3:GetObject') ? [...messages, headDenied] : messages;
}

const onPartner = (r: GrantRemoval) => (r.resource.includes(`:s3:::${PARTNER_BUCKET}`) ? ` on ${PARTNER_BUCKET}` : '');
const label = (r: GrantRemoval) => `${r.fn} ${r.actions.join(',')}${onPartner(r)}`;
const notShown = (r: GrantRemoval) => r.actions.map((a) => NOT_SHOWN[`${r.fn} ${a}`]).find(Boolean);

describe('grants == calls: each statement of the Lambda roles removed in turn', () => {
  beforeAll(async () => {
    await ensureNgramTable(PROBE_TABLE);
    await putProbeObjects();
  });
  afterEach(() => clearLedger());
  afterAll(() => redeploy(assemblyDir), 120_000);

  const shown = removals.map((r, i) => [label(r), r, i] as const).filter(([, r]) => !notShown(r));
  it.each(shown)('without %s an import that needs it fails with AccessDenied on it', async (_, removal, i) => {
    await redeploy(
      editedAssembly(assemblyDir, join(scratchDir, `removal-${i}`), STACK, (t) => removeGrant(t, removal)),
    );

    const { code, text } = await runProbe(probeFor(removal), `grants-${i}-${Date.now() % 1_000_000}`);

    expect(code, text).toBe(1);
    expect(
      deniedEvidence(removal).some((evidence) => text.includes(evidence)),
      text,
    ).toBe(true);
  });

  for (const removal of removals.filter(notShown)) {
    it.skip(`without ${label(removal)}: not shown (${notShown(removal)})`, () => {});
  }
});
