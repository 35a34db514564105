import { readFileSync } from 'node:fs';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { stackPropsFromContext } from '../../lib/app-context.js';
import { S3DdbImportStack } from '../../lib/s3-ddb-import-stack.js';

/** A reason has to say why, not just "ok" or "not needed". */
const MIN_REASON_LENGTH = 20;

const cdkJsonContext = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')).context;

/** The deployable stack as bin/app.ts builds it from cdk.json, plus `extra` context; bundling skipped. */
function appStack(extra: Record<string, unknown> = {}): S3DdbImportStack {
  const app = new App({ context: { ...cdkJsonContext, ...extra, 'aws:cdk:bundling-stacks': [] } });
  const stack = new S3DdbImportStack(app, 'S3DdbImport', stackPropsFromContext(app.node));
  Template.fromStack(stack); // synthesizes: what the checks see is what deploys
  return stack;
}

/** cdk-nag 3 runs as a policy validation plugin; validateScope is its direct entry point. */
function nagViolations(scope: IConstruct) {
  return new AwsSolutionsChecks(scope.node.root, { verbose: true }).validateScope(scope).violations;
}

function describeViolations(violations: ReturnType<typeof nagViolations>): string {
  return violations
    .map(
      (v) =>
        `${v.severity} ${v.ruleName}\n  ${v.violatingResources.map((r) => r.constructPath).join('\n  ')}\n` +
        `  ${v.description}`,
    )
    .join('\n');
}

/** Every acknowledgment (rule id to reason) recorded on the construct tree under `scope`. */
function acknowledgments(scope: IConstruct): { path: string; id: string; reason: string }[] {
  return scope.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
      .map(([id, reason]) => ({ path: construct.node.path, id: id.replace(/^annotation::/i, ''), reason })),
  );
}

describe.each([
  ['a new bucket (cdk.json as it is)', {}],
  ['an existing bucket', { bucketName: 'data-bucket' }],
  ['the failed-execution alarm on', { failedExecutionAlarm: true }],
  [
    'an existing SSE-KMS bucket',
    {
      bucketName: 'data-bucket',
      bucketKmsKeyArn: 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab',
    },
  ],
])('cdk-nag AwsSolutions checks of S3DdbImportStack with %s', (_name, extraContext) => {
  const stack = appStack(extraContext);

  it('reports no finding, error or warning, that is not acknowledged', () => {
    const violations = nagViolations(stack);
    expect(violations, describeViolations(violations)).toEqual([]);
  });

  it('gives every acknowledgment a rule id and a reason that explains it', () => {
    const acks = acknowledgments(stack);
    expect(acks.length).toBeGreaterThan(0);
    const weak = acks.filter(
      ({ id, reason }) => !/^AwsSolutions-/.test(id) || reason.trim().length < MIN_REASON_LENGTH,
    );
    expect(weak).toEqual([]);
  });

  it('acknowledges IAM4 and IAM5 only for a named policy, action or resource, never the whole rule', () => {
    const broad = acknowledgments(stack).filter(({ id }) => /^AwsSolutions-IAM[45]$/.test(id));
    expect(broad).toEqual([]);
  });
});

describe('cdk-nag checks themselves', () => {
  // Proves the pack runs and reports in this setup: a plain bucket has no access logs and allows plain HTTP.
  it('fails when a resource breaks a rule nobody acknowledged', () => {
    const stack = new Stack(new App(), 'Plain');
    new s3.Bucket(stack, 'Plain');
    const rules = nagViolations(stack).map((v) => v.ruleName);
    expect(rules).toEqual(expect.arrayContaining(['AwsSolutions-S1', 'AwsSolutions-S10']));
  });
});
