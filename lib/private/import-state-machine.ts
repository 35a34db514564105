import { join } from 'node:path';
import { RemovalPolicy, Tokenization } from 'aws-cdk-lib';
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
  const { preflight, importer, summarize, failedChunk } = functions;
  const stateMachine = new sfn.StateMachine(scope, 'StateMachine', {
    stateMachineType: sfn.StateMachineType.STANDARD,
    definitionBody: sfn.DefinitionBody.fromFile(join(REPO_ROOT, ASL_DEFINITION_FILE)),
    definitionSubstitutions: {
      [TASK_FUNCTION_PLACEHOLDERS.Preflight]: preflight.functionArn,
      [TASK_FUNCTION_PLACEHOLDERS.ImportChunk]: importer.functionArn,
      [TASK_FUNCTION_PLACEHOLDERS.Summarize]: summarize.functionArn,
      [TASK_FUNCTION_PLACEHOLDERS.FindFailedChunk]: failedChunk.functionArn,
      [MAX_CONCURRENCY_PLACEHOLDER]: Tokenization.stringifyNumber(maxConcurrency),
    },
    logs: {
      destination: new logs.LogGroup(scope, 'StateMachineLogs', {
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
  for (const f of [preflight, importer, summarize, failedChunk]) {
    f.grantInvoke(stateMachine);
    acknowledgeGrantInvoke(stateMachine.role, f.functionArn);
  }
  grantDistributedMap(stateMachine, CHUNKS_MAP_LABEL);
  grantFailedChunkReads(failedChunk, stateMachine, CHUNKS_MAP_LABEL);
  return stateMachine;
}
