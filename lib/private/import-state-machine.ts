import { join } from 'node:path';
import { Names, RemovalPolicy, Tokenization } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { REPO_ROOT } from '../pipeline-function.js';
import { grantDistributedMap } from '../control-plane-grants.js';
import { acknowledge, acknowledgeGrantInvoke } from '../nag-acknowledgments.js';
import {
  ASL_DEFINITION_FILE,
  CHUNKS_MAP_LABEL,
  MAX_CONCURRENCY_PLACEHOLDER,
  TASK_FUNCTION_PLACEHOLDERS,
} from '../workflow-tasks.js';
import { grantFailedChunkReads } from './failed-chunk-grants.js';
import type { PipelineFunctions } from './pipeline-functions.js';

/**
 * The state machine from `statemachine/import.asl.json`, the file the local runner runs too, with the
 * functions' ARNs and the Map's MaxConcurrency substituted; logs without execution data; X-Ray on.
 */
export function createImportStateMachine(
  scope: Construct,
  functions: PipelineFunctions,
  maxConcurrency: number,
): sfn.StateMachine {
  const { preflight, importer, summarize, failedChunk, mirrorScan, mirrorParts } = functions;
  const stateMachine = new sfn.StateMachine(scope, 'StateMachine', {
    stateMachineType: sfn.StateMachineType.STANDARD,
    definitionBody: sfn.DefinitionBody.fromFile(join(REPO_ROOT, ASL_DEFINITION_FILE)),
    definitionSubstitutions: {
      [TASK_FUNCTION_PLACEHOLDERS.Preflight]: preflight.functionArn,
      [TASK_FUNCTION_PLACEHOLDERS.ImportChunk]: importer.functionArn,
      [TASK_FUNCTION_PLACEHOLDERS.Summarize]: summarize.functionArn,
      [TASK_FUNCTION_PLACEHOLDERS.FindFailedChunk]: failedChunk.functionArn,
      [TASK_FUNCTION_PLACEHOLDERS.MirrorScan]: mirrorScan.functionArn,
      [TASK_FUNCTION_PLACEHOLDERS.MirrorParts]: mirrorParts.functionArn,
      [MAX_CONCURRENCY_PLACEHOLDER]: Tokenization.stringifyNumber(maxConcurrency),
    },
    logs: {
      destination: new logs.LogGroup(scope, 'StateMachineLogs', {
        logGroupName: vendedLogGroupName(scope),
        retention: logs.RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
      level: sfn.LogLevel.ALL,
      includeExecutionData: false,
    },
    tracingEnabled: true,
  });
  acknowledge(
    stateMachine.role,
    'AwsSolutions-IAM5[Resource::*]',
    'CloudWatch Logs delivery (logs:CreateLogDelivery, ...) and X-Ray (xray:PutTraceSegments, ...) actions ' +
      'support no resource-level permissions, so CDK grants them on *',
  );
  // A definition from a file gets no automatic grants.
  for (const f of [preflight, importer, summarize, failedChunk, mirrorScan, mirrorParts]) {
    f.grantInvoke(stateMachine);
    acknowledgeGrantInvoke(stateMachine.role, f.functionArn);
  }
  grantDistributedMap(stateMachine, CHUNKS_MAP_LABEL);
  grantFailedChunkReads(failedChunk, stateMachine, CHUNKS_MAP_LABEL);
  return stateMachine;
}

/**
 * A log group name under `/aws/vendedlogs/`: Step Functions adds each log group it delivers to to the account's
 * CloudWatch Logs resource policy, which is limited to 5,120 characters, unless its name starts with
 * `/aws/vendedlogs/` (https://docs.aws.amazon.com/step-functions/latest/dg/bp-cwl.html). The name carries the stack
 * and construct path (Names.uniqueResourceName), so two stacks in one account get two log groups; at most 512
 * characters of [A-Za-z0-9._-/] (https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_CreateLogGroup.html).
 */
function vendedLogGroupName(scope: Construct): string {
  return `/aws/vendedlogs/states/${Names.uniqueResourceName(scope, { maxLength: 255, separator: '-' })}`;
}
