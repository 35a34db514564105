import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { S3DdbImportStack } from '../../lib/s3-ddb-import-stack.js';
import { logicalId } from './role-grants.js';

/** The preflight function's environment in a synthesized stack with these props. */
function preflightEnvironment(props: { importReservedConcurrency?: number }): Record<string, unknown> {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new S3DdbImportStack(app, 'Concurrency', { tableNames: ['ngrams'], ...props });
  const resources = Template.fromStack(stack).toJSON().Resources;
  return resources[logicalId(stack.pipeline.preflightFunction)].Properties.Environment.Variables;
}

describe("the import function's reservation, known at deploy time", () => {
  it('reaches preflight as IMPORT_RESERVED_CONCURRENCY, so no container asks the Lambda API for it', () => {
    expect(preflightEnvironment({ importReservedConcurrency: 20 })).toMatchObject({
      IMPORT_RESERVED_CONCURRENCY: '20',
    });
  });

  it('is absent without a reservation: the account pool is asked for (it changes as others reserve)', () => {
    expect(preflightEnvironment({})).not.toHaveProperty('IMPORT_RESERVED_CONCURRENCY');
  });
});
