import { Arn, ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { acknowledge, wildcardResourceFinding } from '../nag-acknowledgments.js';

/**
 * What FindFailedChunk reads (lambdas/map-run/first-failed-chunk.ts), each action on the resource type the
 * Service Authorization Reference gives it (https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsstepfunctions.html):
 * ListMapRuns on the parent execution (execution), ListExecutions of a Map Run's children on the Map Run (mapRun,
 * `mapRun:<machine>/<label>:<id>`), DescribeExecution on the failed child (execution, `execution:<machine>/<label>:<id>`).
 * Only this machine's executions and its `mapLabel` Map's runs and children. In a policy of its own, as CDK's
 * DistributedMap does: the function's default policy cannot name the machine, which depends on the function's ARN.
 */
export function grantFailedChunkReads(fn: lambda.Function, stateMachine: sfn.StateMachine, mapLabel: string): void {
  const policy = new iam.Policy(fn, 'FailedChunkReads');
  fn.role!.attachInlinePolicy(policy);
  stateMachine.grantExecution(policy, 'states:ListMapRuns');
  const mapRuns = stateMachineResourceArn(stateMachine, 'mapRun', `/${mapLabel}`);
  const children = stateMachineResourceArn(stateMachine, 'execution', `/${mapLabel}`);
  iam.Grant.addToPrincipal({ grantee: policy, actions: ['states:ListExecutions'], resourceArns: [mapRuns] });
  iam.Grant.addToPrincipal({ grantee: policy, actions: ['states:DescribeExecution'], resourceArns: [children] });
  const why = `this state machine's ${mapLabel} Map Runs and their child executions, whose ids are made at run time`;
  for (const arn of [stateMachineResourceArn(stateMachine, 'execution', ''), mapRuns, children])
    acknowledge(policy, wildcardResourceFinding(policy, arn), why);
}

/** `arn:…:<resource>:<machine name><suffix>:*`, as `grantExecution` writes it for executions. */
function stateMachineResourceArn(stateMachine: sfn.StateMachine, resource: string, suffix: string): string {
  const name = Arn.split(stateMachine.stateMachineArn, ArnFormat.COLON_RESOURCE_NAME).resourceName;
  return (
    Stack.of(stateMachine).formatArn({
      service: 'states',
      resource,
      resourceName: `${name}${suffix}`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    }) + ':*'
  );
}
