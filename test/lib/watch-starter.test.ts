import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  CreateStateMachineCommand,
  DescribeExecutionCommand,
  ListExecutionsCommand,
  SFNClient,
  StartExecutionCommand,
} from '@aws-sdk/client-sfn';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyInputTransformer, type InputTransformer } from '../../lib/eventbridge-semantics.js';
import { S3DdbImportStack } from '../../lib/s3-ddb-import-stack.js';
import { ALREADY_STARTED_ERROR } from '../../lib/watch-starter.js';
import { logicalId } from './role-grants.js';

/**
 * The watch starter as deployed: its definition from the synthesized template, run by the local interpreter, its
 * one Task bound to the real StartExecution of the local engine (ministack's Step Functions) on a stand-in import
 * state machine, and its input built by the rule's own input transformer from AWS's sample S3 event. The one
 * translation: the SDK names a refused StartExecution `ExecutionAlreadyExists`, and the optimized
 * `states:startExecution` integration raises it to the workflow as StepFunctions.ExecutionAlreadyExistsException.
 *
 * Gap (named in docs/limits.md): ministack refuses every repeated name; AWS answers a repeated name whose execution
 * is still running with the same input as a success (the same execution), and only a closed one with
 * ExecutionAlreadyExists (https://docs.aws.amazon.com/step-functions/latest/apireference/API_StartExecution.html).
 * Either way one execution runs: the count below is what both promise.
 */
const SAMPLE = JSON.parse(readFileSync(new URL('../fixtures/events/s3-object-created.json', import.meta.url), 'utf8'));
const BUCKET = SAMPLE.detail.bucket.name as string;
const sfn = new SFNClient({ endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB });

const stack = new S3DdbImportStack(new App({ context: { 'aws:cdk:bundling-stacks': [] } }), 'Starter', {
  bucketName: BUCKET,
  tableNames: ['ngrams'],
  watches: [{ prefix: 'imports/', table: 'ngrams', types: { year: 'N' } }],
});
const resources = Template.fromStack(stack).toJSON().Resources;
type RuleResource = {
  Type: string;
  Properties: { Targets: { InputTransformer: { InputPathsMap: Record<string, string>; InputTemplate: string } }[] };
};
const rule = (Object.values(resources) as RuleResource[]).find((r) => r.Type === 'AWS::Events::Rule')!;
const { InputPathsMap, InputTemplate } = rule.Properties.Targets[0].InputTransformer;
const transformer: InputTransformer = { inputPathsMap: InputPathsMap, inputTemplate: InputTemplate };

/** The starter's definition with the partition and the import state machine's ARN substituted. */
function starterDefinition(importArn: string): unknown {
  const machine = resources[logicalId(stack.pipeline.watchStarter!.stateMachine)];
  const [, parts] = machine.Properties.DefinitionString['Fn::Join'] as [string, unknown[]];
  const importRef = logicalId(stack.pipeline.stateMachine);
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const ref = (part as { Ref: string }).Ref;
      if (ref === 'AWS::Partition') return 'aws';
      if (ref === importRef) return importArn;
      throw new Error(`unexpected reference ${JSON.stringify(part)}`);
    })
    .join('');
  return JSON.parse(text);
}

/** StartImport as AWS runs it: StartExecution with the parameters the state evaluated. */
async function startExecution(parameters: { StateMachineArn: string; Name: string; Input: unknown }) {
  try {
    const input = JSON.stringify(parameters.Input);
    const out = await sfn.send(
      new StartExecutionCommand({ stateMachineArn: parameters.StateMachineArn, name: parameters.Name, input }),
    );
    return { ExecutionArn: out.executionArn, StartDate: out.startDate };
  } catch (error) {
    if ((error as Error).name !== 'ExecutionAlreadyExists') throw error;
    throw Object.assign(new Error((error as Error).message), { name: ALREADY_STARTED_ERROR });
  }
}

let importArn: string;
let run: (event: unknown) => Promise<unknown>;

beforeAll(async () => {
  const { StateMachine } = await import('aws-local-stepfunctions');
  const created = await sfn.send(
    new CreateStateMachineCommand({
      name: `import-stand-in-${randomUUID()}`,
      definition: JSON.stringify({ StartAt: 'Done', States: { Done: { Type: 'Succeed' } } }),
      roleArn: 'arn:aws:iam::000000000000:role/stand-in',
    }),
  );
  importArn = created.stateMachineArn!;
  const starter = new StateMachine(starterDefinition(importArn) as never);
  run = (event) => {
    return starter.run(applyInputTransformer(transformer, event) as never, {
      overrides: { taskResourceLocalHandlers: { StartImport: startExecution as never } },
    }).result;
  };
});

const executions = async () =>
  (await sfn.send(new ListExecutionsCommand({ stateMachineArn: importArn }))).executions ?? [];
const upload = (key: string, sequencer: string) => ({
  ...SAMPLE,
  detail: { ...SAMPLE.detail, object: { ...SAMPLE.detail.object, key, sequencer } },
});
/**
 * The name the starter gives is `watch<id>-<SHA-256, in hex, of the event's JSON: bucket, key, sequencer>`; the
 * template's expression is checked in import-pipeline.test.ts. Gap: aws-local-stepfunctions 3.0.0's States.Hash
 * 'SHA-256' is not SHA-256 for inputs of 56 bytes or more (its padding; 55 bytes agree with node:crypto, 56 do not),
 * and every event's JSON is longer, so locally the hex differs from AWS's. What is checked here holds for both: one
 * name per event, 64 hex digits, another for another event.
 */
const NAME = /^watch0-[0-9a-f]{64}$/;

describe('the watch starter', () => {
  it('starts one import for an event delivered twice, named after the event, with the request as its input', async () => {
    const event = upload('imports/2024/a.tsv', '617f08299329d189');
    const before = (await executions()).length;
    const first = (await run(event)) as { started?: { ExecutionArn: string } };
    const again = (await run(event)) as { started?: { ExecutionArn: string } }; // S3 and EventBridge: at least once

    const started = await executions();
    expect(started).toHaveLength(before + 1);
    const name = first.started!.ExecutionArn.split(':').at(-1)!;
    expect(name).toMatch(NAME); // at most 80 characters, only those CloudWatch Logs takes (API_StartExecution.html)
    expect(started.map((e) => e.name)).toContain(name);
    // The second delivery ended in AlreadyStarted: no execution of its own.
    expect(again.started).toBeUndefined();
  });

  it('starts another import for a new upload of the same key (a greater sequencer)', async () => {
    const before = (await executions()).length;
    const first = (await run(upload('imports/2024/b.tsv', '617f08299329d200'))) as {
      started: { ExecutionArn: string };
    };
    const second = (await run(upload('imports/2024/b.tsv', '617f0837b476e463'))) as {
      started: { ExecutionArn: string };
    };
    expect(await executions()).toHaveLength(before + 2);
    expect(second.started.ExecutionArn).not.toBe(first.started.ExecutionArn);
  });

  it('passes the request the rule built, unchanged, as the import execution input', async () => {
    const key = 'imports/2024/c.tsv';
    const output = (await run(upload(key, '617f0900'))) as { started: { ExecutionArn: string } };
    const described = await sfn.send(new DescribeExecutionCommand({ executionArn: output.started.ExecutionArn }));
    expect(JSON.parse(described.input!)).toEqual({ bucket: BUCKET, key, table: 'ngrams', types: { year: 'N' } });
  });
});
