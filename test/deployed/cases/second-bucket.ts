import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { DescribeExecutionCommand, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { describe, expect, it } from 'vitest';
import { ensureNgramTable, listKeys, s3, scanSorted, sfn, sortItems, stackOutputs } from '../aws.js';
import { cloudCli, jsonOut, startFollowed } from '../cli.js';
import { executionsOf, waitFor } from '../executions.js';
import { ngramArgs, ngramFileWithBadRows } from '../ngram-file.js';
import { putPartnerObject } from '../partner-bucket.js';
import { rejectedRows } from '../rejected-rows.js';
import { PARTNER_BUCKET } from '../tier-stack.js';

/**
 * Issue 38's sources, deployed: the tier's cdk.json lists PARTNER_BUCKET in `sources` (with its owner, this engine's
 * account 000000000000). The engine does not check `ExpectedBucketOwner` (it accepts any), so the header on every call
 * is proved by recorded requests in-process (test/e2e/trusted/second-bucket.test.ts); the partner's read grants are
 * removed one by one in cases/grants.ts (grant-probes.ts reads the partner for a statement that names it).
 */
const TABLE = 'partner';
const KEY = 'exports/partner 1gram.tsv';
/** As many rows as the bad-rows case, with its three bad rows among them. */
const ROWS = 3_000;
/** A bucket that exists (so only the deployment's scope can refuse it) and is not among the sources. */
const STRANGER = 'not-a-source';

/** The summary the execution ended with (its output): bucket, key and outputBucket among the counts. */
async function executionSummary(executionArn: string): Promise<Record<string, unknown>> {
  const { output } = await sfn.send(new DescribeExecutionCommand({ executionArn }));
  return JSON.parse(output ?? '{}');
}

/** Puts a small TSV at `key` of the stranger's bucket, created first (a bucket already there is kept). */
async function putStranger(key: string): Promise<void> {
  await s3.send(new CreateBucketCommand({ Bucket: STRANGER })).catch((error: Error) => {
    if (error.name !== 'BucketAlreadyOwnedByYou') throw error;
  });
  await s3.send(new PutObjectCommand({ Bucket: STRANGER, Key: key, Body: 'ngram\tyear\nx\t1900\n' }));
}

describe('an import from a second bucket (sources), through the deployed stack', () => {
  it('start s3://partner/key --follow lands every good row as its item; rejects and report go to the stack bucket', async () => {
    await ensureNgramTable(TABLE);
    const file = ngramFileWithBadRows(ROWS, 17);
    await putPartnerObject(KEY, file.text);

    const source = `s3://${PARTNER_BUCKET}/${KEY}`;
    const run = await startFollowed(source, TABLE, '--chunk-mib', '1');

    expect(run.code, run.stderr).toBe(2);
    const summary = jsonOut(run);
    expect(summary).toMatchObject({ status: 'SUCCEEDED_WITH_REJECTS', written: ROWS, rejected: file.rejects.length });
    // The execution's own summary names what it read and where its rejects went (--json prints counts only).
    const { BucketName } = await stackOutputs();
    expect(await executionSummary(summary.executionArn)).toMatchObject({
      bucket: PARTNER_BUCKET,
      key: KEY,
      outputBucket: BucketName,
      table: TABLE,
    });
    expect(await scanSorted(TABLE)).toEqual(sortItems(file.items));
    const rejects = await rejectedRows(BucketName, summary.rejectsKey);
    expect(rejects.map(({ line, record }) => ({ line: Number(line), record: record.replace(/\n$/, '') }))).toEqual(
      file.rejects,
    );
    // Read only: nothing was written to the partner's bucket but the object itself.
    expect(await listKeys(PARTNER_BUCKET, '')).not.toContainEqual(expect.stringMatching(/report|rejects|staged/));
  });

  it('fails when start names a bucket that is not a source: refused before any upload or execution', async () => {
    await putStranger('x.tsv');
    const run = await cloudCli(['start', `s3://${STRANGER}/x.tsv`, ...ngramArgs(TABLE), '--follow']);

    expect(run.code, run.stderr).toBe(1);
    const { BucketName } = await stackOutputs();
    expect(run.stderr).toContain(
      `bucket: "${STRANGER}" is not a bucket this deployment reads (${BucketName}, ${PARTNER_BUCKET})`,
    );
    expect(await executionsOf('x.tsv')).toEqual([]);
  });

  it('fails when an execution names a bucket that is not a source: preflight refuses it before reading, naming the sources', async () => {
    await putStranger('y.tsv');
    const { StateMachineArn, BucketName } = await stackOutputs();
    const input = { bucket: STRANGER, key: 'y.tsv', table: TABLE };
    const { executionArn } = await sfn.send(
      new StartExecutionCommand({ stateMachineArn: StateMachineArn, input: JSON.stringify(input) }),
    );

    const done = await waitFor('the execution to end', async () => {
      const d = await sfn.send(new DescribeExecutionCommand({ executionArn }));
      return d.status === 'RUNNING' ? undefined : d;
    });

    // Its role holds no grant on the stranger: a read would have failed AccessDenied, not with this message. Gap: the
    // engine names every error a function raises Runtime.HandlerError (docs/limits.md); AWS names it
    // InvalidRequestError, which test/e2e/trusted/second-bucket.test.ts asserts with every S3 call recorded (none).
    expect(done).toMatchObject({ status: 'FAILED', error: 'Runtime.HandlerError' });
    expect(done.cause).toContain(STRANGER);
    expect(done.cause).toContain(`is not a bucket this deployment reads (${BucketName}, ${PARTNER_BUCKET})`);
  });
});
