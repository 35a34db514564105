import { Duration, Names, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { acknowledge } from './nag-acknowledgments.js';
import { alarmOnAny } from './private/any-alarm.js';

/**
 * The error the optimized `states:startExecution` integration raises when StartExecution answers
 * ExecutionAlreadyExists. StartExecution on a STANDARD state machine "is idempotent ... If StartExecution is called
 * with the same name and input as a running execution, the call will succeed and return the same response as the
 * original request. If the execution is closed or if the input is different, it will return a 400
 * ExecutionAlreadyExists error. Names can be reused after 90 days"
 * (https://docs.aws.amazon.com/step-functions/latest/apireference/API_StartExecution.html). Either way no second
 * execution runs: a repeated event ends here. The error's name is the one AWS reports for this integration (a failed
 * `states:startExecution.sync:2` task's recorded `"error": "StepFunctions.ExecutionAlreadyExistsException"` in a
 * 2022 DevelopersIO note on ExecutionAlreadyExistsException, and the name public CDK code retries it by); no AWS
 * reference page lists it. Were it named otherwise, a repeated event would still start nothing: the retrier below would retry it,
 * the starter execution would fail, and the WatchDeliveryAlarm would go off for it.
 */
export const ALREADY_STARTED_ERROR = 'StepFunctions.ExecutionAlreadyExistsException';

/** How long the dead-letter queue keeps an event that could not start an import: SQS's longest. */
const DEAD_LETTER_RETENTION = Duration.days(14);

/** What the watches share: the starter state machine, the rules' dead-letter queue, and the alarm on both. */
export interface WatchStarter {
  readonly stateMachine: sfn.StateMachine;
  readonly deadLetterQueue: sqs.Queue;
  readonly alarm: cloudwatch.Alarm;
}

/**
 * The execution name of an upload's import: `watch<id>-<SHA-256 of the event's bucket, key and sequencer>`, the same
 * for every delivery of one event, another for any other upload. A name is 1 to 80 characters, none of whitespace,
 * `<>{}[]?*"#%\^|~`$&,;:/` or control characters, and only 0-9, A-Z, a-z, - and _ if CloudWatch Logs is to log it
 * (same page): 'watch' + up to 4 digits + '-' + 64 hex digits is at most 74 of those.
 */
export function executionName(): string {
  return sfn.JsonPath.format(
    'watch{}-{}',
    sfn.JsonPath.stringAt('$.watch'),
    sfn.JsonPath.hash(sfn.JsonPath.jsonToString(sfn.JsonPath.objectAt('$.event')), 'SHA-256'),
  );
}

/**
 * The rules' target: a small standard state machine that starts the import under a name derived from the event, so
 * a second delivery of one S3 event (S3 and EventBridge deliver at least once) starts no second import. EventBridge
 * cannot name the executions it starts itself (its Step Functions target takes no name).
 */
export function createWatchStarter(scope: Construct, importMachine: sfn.IStateMachine, topic?: sns.ITopic) {
  const start = new tasks.StepFunctionsStartExecution(scope, 'StartImport', {
    stateMachine: importMachine,
    name: executionName(),
    input: sfn.TaskInput.fromJsonPathAt('$.request'),
    integrationPattern: sfn.IntegrationPattern.REQUEST_RESPONSE,
    resultPath: '$.started',
  });
  // A repeated event is never retried: it ends in AlreadyStarted. Anything else (a throttle) is retried with jitter.
  start.addRetry({ errors: [ALREADY_STARTED_ERROR], maxAttempts: 0 });
  start.addRetry({
    errors: [sfn.Errors.TASKS_FAILED],
    interval: Duration.seconds(2),
    backoffRate: 2,
    maxAttempts: 6,
    jitterStrategy: sfn.JitterType.FULL,
  });
  start.addCatch(new sfn.Succeed(scope, 'AlreadyStarted'), { errors: [ALREADY_STARTED_ERROR] });
  const stateMachine = new sfn.StateMachine(scope, 'WatchStarter', {
    stateMachineType: sfn.StateMachineType.STANDARD,
    definitionBody: sfn.DefinitionBody.fromChainable(start),
    logs: { destination: starterLogs(scope), level: sfn.LogLevel.ALL, includeExecutionData: false },
    tracingEnabled: true,
  });
  acknowledge(
    stateMachine.role,
    'AwsSolutions-IAM5[Resource::*]',
    'CloudWatch Logs delivery and X-Ray actions support no resource-level permissions, so CDK grants them on *',
  );
  const deadLetterQueue = createDeadLetterQueue(scope);
  const alarm = addWatchDeliveryAlarm(scope, stateMachine, deadLetterQueue, topic);
  return { stateMachine, deadLetterQueue, alarm } satisfies WatchStarter;
}

function starterLogs(scope: Construct): logs.LogGroup {
  // Under /aws/vendedlogs/ like the import's (https://docs.aws.amazon.com/step-functions/latest/dg/bp-cwl.html).
  const name = Names.uniqueResourceName(scope, { maxLength: 200, separator: '-' });
  return new logs.LogGroup(scope, 'WatchStarterLogs', {
    logGroupName: `/aws/vendedlogs/states/${name}-WatchStarter`,
    retention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
}

/**
 * Where EventBridge puts an event it could not deliver to the starter after its retries
 * (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-rule-event-delivery.html). Encrypted with SQS-managed
 * keys (SSE-SQS): EventBridge sends to it with no KMS key policy to maintain; TLS only. CDK's rule target adds the
 * queue policy that lets events.amazonaws.com send, for these rules only (aws:SourceArn).
 */
function createDeadLetterQueue(scope: Construct): sqs.Queue {
  const queue = new sqs.Queue(scope, 'WatchDeadLetterQueue', {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: DEAD_LETTER_RETENTION,
  });
  acknowledge(
    queue,
    'AwsSolutions-SQS3',
    'this queue is itself the dead-letter queue of the watch rules (EventBridge DeadLetterConfig), not a work queue',
  );
  return queue;
}

/**
 * An alarm when an upload under a watched prefix started no import: an event in the dead-letter queue (EventBridge
 * gave up delivering it) or a failed starter execution (StartExecution failed after its retries). 5-minute periods;
 * no data (no uploads) is not a failure.
 */
function addWatchDeliveryAlarm(
  scope: Construct,
  starter: sfn.StateMachine,
  queue: sqs.Queue,
  topic?: sns.ITopic,
): cloudwatch.Alarm {
  const period = Duration.minutes(5);
  const metric = new cloudwatch.MathExpression({
    expression: 'dead + failed',
    usingMetrics: {
      dead: queue.metricApproximateNumberOfMessagesVisible({ period, statistic: cloudwatch.Stats.MAXIMUM }),
      failed: starter.metricFailed({ period, statistic: cloudwatch.Stats.SUM }),
    },
    period,
  });
  const description =
    'An upload under a watched prefix started no import: read the event in the watch dead-letter queue, or the ' +
    'failed WatchStarter execution';
  return alarmOnAny(scope, 'WatchDeliveryAlarm', description, metric, topic);
}
