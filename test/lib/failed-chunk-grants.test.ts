import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { describe, expect, it } from 'vitest';
import { S3DdbImportStack } from '../../lib/s3-ddb-import-stack.js';
import { grantsOf, logicalId } from './role-grants.js';

const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
const stack = new S3DdbImportStack(app, 'Test', { tableNames: ['ngrams'] });
const template = Template.fromStack(stack);
const { pipeline } = stack;
const failedChunk = pipeline.node.findChild('FailedChunkFunction') as NodejsFunction;

/** `arn:<partition>:states:<region>:<account>:<resource>:<machine name><suffix>:*`, as CloudFormation resolves it. */
function machineArn(resource: string, suffix: string) {
  const name = { 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: logicalId(pipeline.stateMachine) }] }] };
  const prefix = [
    'arn:',
    { Ref: 'AWS::Partition' },
    `:states:`,
    { Ref: 'AWS::Region' },
    ':',
    { Ref: 'AWS::AccountId' },
  ];
  return { 'Fn::Join': ['', [...prefix, `:${resource}:`, name, `${suffix}:*`]] };
}

describe('FindFailedChunk', () => {
  it('is a Task of its own function, invoked by the state machine', () => {
    const [machine] = Object.values(template.findResources('AWS::StepFunctions::StateMachine'));
    expect(machine.Properties.DefinitionSubstitutions.FailedChunkFunctionArn).toEqual({
      'Fn::GetAtt': [logicalId(failedChunk), 'Arn'],
    });
    const invoke = JSON.stringify(grantsOf(template, pipeline.stateMachine.role)['lambda:InvokeFunction']);
    expect(invoke).toContain(JSON.stringify({ 'Fn::GetAtt': [logicalId(failedChunk), 'Arn'] }));
  });

  it("may read only this machine's executions, its ImportChunks Map Runs and their child executions", () => {
    const { ['logs:CreateLogStream']: _, ['logs:PutLogEvents']: __, ...reads } = grantsOf(template, failedChunk.role);
    // Service Authorization Reference (list_awsstepfunctions.html): ListMapRuns on an execution, ListExecutions of a
    // Map Run on the mapRun, DescribeExecution on the (child) execution.
    expect(reads).toEqual({
      'states:ListMapRuns': [expect.anything()],
      'states:ListExecutions': [machineArn('mapRun', '/ImportChunks')],
      'states:DescribeExecution': [machineArn('execution', '/ImportChunks')],
    });
    expect(JSON.stringify(reads['states:ListMapRuns'])).toContain(':execution:');
    expect(JSON.stringify(reads)).not.toContain('"*"');
  });

  it('reads nothing else: no S3, DynamoDB or Lambda grants', () => {
    const actions = Object.keys(grantsOf(template, failedChunk.role));
    expect(actions.filter((a) => !a.startsWith('states:') && !a.startsWith('logs:'))).toEqual([]);
    expect(Stack.of(failedChunk)).toBe(stack);
  });
});
