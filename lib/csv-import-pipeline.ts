import { fileURLToPath } from 'node:url';
import { Duration, Fn, RemovalPolicy, Token, Tokenization } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sns from 'aws-cdk-lib/aws-sns';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { DEFAULT_REJECTS_PREFIX, DEFAULT_STAGING_PREFIX } from '../lambdas/environment/config.js';
import { DEFAULT_MAX_CONCURRENCY, MAX_CONCURRENCY, MAX_LAMBDA_TIMEOUT_SECONDS } from '../lambdas/contract/limits.js';
import { grantObjectDelete, grantObjectPut, grantSourceRead } from './bucket-grants.js';
import { grantControlPlaneReads, grantDistributedMap } from './control-plane-grants.js';
import { acknowledge, acknowledgeGrantInvoke } from './nag-acknowledgments.js';
import { addFailedExecutionAlarm, PipelineDashboard } from './pipeline-dashboard.js';
import { PipelineFunction } from './pipeline-function.js';
import { addWatchRule, checkWatch, type WatchedPrefix } from './watched-prefix.js';
import {
  ASL_DEFINITION_FILE,
  CHUNKS_MAP_LABEL,
  MAX_CONCURRENCY_PLACEHOLDER,
  TASK_FUNCTION_PLACEHOLDERS,
  TASK_HANDLER_FILES,
  type TaskStateName,
} from './workflow-tasks.js';

export { ASL_PLACEHOLDERS } from './workflow-tasks.js';
export type { WatchedPrefix } from './watched-prefix.js';

export interface CsvImportPipelineProps {
  /**
   * Bucket holding the files; rejects and reports are written under `rejectsPrefix` in it.
   * For `watches`, the bucket must send events to EventBridge: `eventBridgeEnabled: true` on a bucket
   * you create, or EventBridge notifications turned on for an imported one (not done here).
   */
  readonly bucket: s3.IBucket;
  /**
   * The KMS key the bucket's objects are encrypted with (SSE-KMS): readers get `kms:Decrypt` and writers of
   * rejects and reports `kms:GenerateDataKey` on exactly this key. Give the key's ARN (`kms.Key.fromKeyArn`),
   * not an alias: an alias in a policy's Resource does not grant use of the key.
   * @default - the bucket's own `encryptionKey`, if any (SSE-S3 otherwise: no KMS grants)
   */
  readonly bucketKey?: kms.IKey;
  /** Tables imports may write; each gets its own grants, and requests for any other table fail. */
  readonly tables: dynamodb.ITable[];
  /** Prefixes whose new objects start an import. @default - none; imports start with StartExecution */
  readonly watches?: WatchedPrefix[];
  /**
   * Chunks imported at once (the Distributed Map's MaxConcurrency), 1 to 1,000. Preflight lowers it to what the
   * import function's Lambda concurrency leaves free (its reservation, else half the account's unreserved pool).
   * @default 40
   */
  readonly maxConcurrency?: number;
  /**
   * Reserved concurrency for the import function: its lanes are then its own (no other function can starve
   * them) and bounded (imports cannot starve other functions). Preflight fits the lanes to it.
   * @default - no reservation: the import shares the account's unreserved concurrency
   */
  readonly importReservedConcurrency?: number;
  /** Memory of the import function in MB; 1769 MB buys one full vCPU. @default 1769 */
  readonly importMemorySize?: number;
  /** Memory of the preflight (scan) function in MB. @default 1024 */
  readonly preflightMemorySize?: number;
  /** Timeout of the preflight and import functions; both checkpoint before it. @default Duration.minutes(15) */
  readonly timeout?: Duration;
  /** Key prefix for rejects and reports: `<rejectsPrefix>/<execution>/...`. @default 's3-ddb-import/rejects' */
  readonly rejectsPrefix?: string;
  /**
   * A CloudWatch dashboard of the import's metrics (namespace `S3DdbImport`) beside the tables' write capacity and
   * throttles, the import function's concurrency and errors, and the executions started and failed.
   * @default true
   */
  readonly dashboard?: boolean;
  /** @default - CloudFormation generates one */
  readonly dashboardName?: string;
  /** An alarm on failed executions (ExecutionsFailed >= 1 in 5 minutes). @default false */
  readonly failedExecutionAlarm?: boolean;
  /** Where the failed-execution alarm notifies. @default - no action: the alarm shows in the console and dashboard */
  readonly alarmTopic?: sns.ITopic;
  /**
   * Key prefix for the staged pieces of big compressed objects: `<stagingPrefix>/<execution>/...`. Preflight
   * writes them and each chunk's import deletes its piece once imported.
   * @default 's3-ddb-import/staging'
   */
  readonly stagingPrefix?: string;
  /**
   * How long staged pieces a failed import left behind are kept: a lifecycle rule on the staging prefix, added
   * when `bucket` is an `s3.Bucket` of this app (an imported bucket cannot be changed here: add such a rule to it
   * yourself). It must outlast the longest import (a chunk may take up to 4 days, see contract/limits.ts).
   * @default Duration.days(7)
   */
  readonly stagingExpiration?: Duration;
}

/**
 * Imports CSV/TSV objects from an S3 bucket into existing DynamoDB tables: a Step Functions workflow
 * (`statemachine/import.asl.json`) that scans the object into chunks, imports them in parallel and
 * writes a report.
 */
export class CsvImportPipeline extends Construct {
  public readonly stateMachine: sfn.StateMachine;
  public readonly preflightFunction: NodejsFunction;
  public readonly importFunction: NodejsFunction;
  public readonly summarizeFunction: NodejsFunction;
  /** The dashboard, unless `dashboard: false`. */
  public readonly dashboard?: PipelineDashboard;
  /** The alarm on failed executions, when `failedExecutionAlarm` is true. */
  public readonly failedExecutionAlarm?: cloudwatch.Alarm;

  constructor(scope: Construct, id: string, props: CsvImportPipelineProps) {
    super(scope, id);
    const maxConcurrency = checkMaxConcurrency(props.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
    const timeout = checkTimeout(props.timeout ?? Duration.seconds(MAX_LAMBDA_TIMEOUT_SECONDS));
    const rejectsPrefix = checkPrefix('rejectsPrefix', props.rejectsPrefix ?? DEFAULT_REJECTS_PREFIX);
    const stagingPrefix = checkPrefix('stagingPrefix', props.stagingPrefix ?? DEFAULT_STAGING_PREFIX);
    checkApart(rejectsPrefix, stagingPrefix);
    if (props.tables.length === 0) throw new Error('tables must hold at least one table, got none');
    const tableNames = props.tables.map((table) => table.tableName);
    for (const watch of props.watches ?? []) checkWatch(watch, tableNames, rejectsPrefix, stagingPrefix);

    const reserved = checkReservedConcurrency(props.importReservedConcurrency);
    const environment = {
      REJECTS_PREFIX: rejectsPrefix,
      STAGING_PREFIX: stagingPrefix,
      ALLOWED_TABLES: Fn.join(',', tableNames),
    };
    const fn = (id: string, task: TaskStateName, description: string, memorySize: number, t = timeout, more = {}) =>
      new PipelineFunction(this, id, {
        entry: TASK_HANDLER_FILES[task],
        description,
        memorySize,
        timeout: t,
        environment: { ...environment, ...more },
        reservedConcurrentExecutions: task === 'ImportChunk' ? reserved : undefined,
      });
    const importer = fn(
      'ImportFunction',
      'ImportChunk',
      'Imports one chunk of an object into DynamoDB',
      props.importMemorySize ?? 1769,
    );
    const preflight = fn(
      'PreflightFunction',
      'Preflight',
      'Checks an import request and cuts the object into chunks',
      props.preflightMemorySize ?? 1024,
      timeout,
      { IMPORT_FUNCTION_NAME: importer.functionName },
    );
    // Summarize only adds up small counts and writes one JSON report.
    const summarize = fn(
      'SummarizeFunction',
      'Summarize',
      'Totals an import and writes its report',
      256,
      Duration.minutes(2),
    );
    this.preflightFunction = preflight;
    this.importFunction = importer;
    this.summarizeFunction = summarize;

    const rejectsObjects = `${rejectsPrefix}/*`;
    const bucketKey = props.bucketKey ?? props.bucket.encryptionKey;
    for (const reader of [preflight, importer]) grantSourceRead(props.bucket, bucketKey, reader);
    for (const writer of [importer, summarize]) grantObjectPut(props.bucket, bucketKey, writer, rejectsObjects);
    // The S3 trampoline: preflight stages big compressed objects as plain pieces, each chunk's import deletes its own.
    grantObjectPut(
      props.bucket,
      bucketKey,
      preflight,
      `${stagingPrefix}/*`,
      'big compressed objects are staged as plain pieces under <stagingPrefix>/<execution>/...',
    );
    grantObjectDelete(props.bucket, importer, `${stagingPrefix}/*`);
    if (props.bucket instanceof s3.Bucket) {
      props.bucket.addLifecycleRule({
        id: 'ExpireStagedPieces',
        prefix: `${stagingPrefix}/`,
        expiration: props.stagingExpiration ?? Duration.days(7),
      });
    }
    for (const table of props.tables) {
      table.grant(preflight, 'dynamodb:DescribeTable');
      // Not grantWriteData: the import only ever calls BatchWriteItem.
      table.grant(importer, 'dynamodb:BatchWriteItem');
    }

    this.stateMachine = new sfn.StateMachine(this, 'StateMachine', {
      stateMachineType: sfn.StateMachineType.STANDARD,
      definitionBody: sfn.DefinitionBody.fromFile(fileURLToPath(new URL(`../${ASL_DEFINITION_FILE}`, import.meta.url))),
      definitionSubstitutions: {
        [TASK_FUNCTION_PLACEHOLDERS.Preflight]: preflight.functionArn,
        [TASK_FUNCTION_PLACEHOLDERS.ImportChunk]: importer.functionArn,
        [TASK_FUNCTION_PLACEHOLDERS.Summarize]: summarize.functionArn,
        [MAX_CONCURRENCY_PLACEHOLDER]: Tokenization.stringifyNumber(maxConcurrency),
      },
      logs: {
        destination: new logs.LogGroup(this, 'StateMachineLogs', {
          retention: logs.RetentionDays.ONE_MONTH,
          removalPolicy: RemovalPolicy.DESTROY,
        }),
        level: sfn.LogLevel.ALL,
        includeExecutionData: false,
      },
      tracingEnabled: true,
    });
    acknowledge(
      this.stateMachine.role,
      'AwsSolutions-IAM5[Resource::*]',
      'CloudWatch Logs delivery (logs:CreateLogDelivery, ...) and X-Ray (xray:PutTraceSegments, ...) actions ' +
        'support no resource-level permissions, so CDK grants them on *',
    );
    // A definition from a file gets no automatic grants.
    for (const f of [preflight, importer, summarize]) {
      f.grantInvoke(this.stateMachine);
      acknowledgeGrantInvoke(this.stateMachine.role, f.functionArn);
    }
    grantDistributedMap(this.stateMachine, CHUNKS_MAP_LABEL);
    grantControlPlaneReads(preflight, importer, this.stateMachine, reserved !== undefined);

    (props.watches ?? []).forEach((watch, index) =>
      addWatchRule(this, `Watch${index}`, watch, props.bucket, this.stateMachine),
    );

    if (props.alarmTopic && !props.failedExecutionAlarm) throw new Error('alarmTopic needs failedExecutionAlarm: true');
    this.failedExecutionAlarm = props.failedExecutionAlarm
      ? addFailedExecutionAlarm(this, 'FailedExecutionsAlarm', this.stateMachine, props.alarmTopic)
      : undefined;
    this.dashboard =
      props.dashboard === false
        ? undefined
        : new PipelineDashboard(this, 'Dashboard', {
            stateMachine: this.stateMachine,
            importFunction: importer,
            tables: props.tables,
            dashboardName: props.dashboardName,
            alarms: this.failedExecutionAlarm ? [this.failedExecutionAlarm] : [],
          });
  }
}

function checkMaxConcurrency(value: number): number {
  if (Token.isUnresolved(value)) return value;
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
    throw new Error(`maxConcurrency must be an integer from 1 to ${MAX_CONCURRENCY}, got ${value}`);
  }
  return value;
}

function checkReservedConcurrency(value: number | undefined): number | undefined {
  if (value === undefined || Token.isUnresolved(value)) return value;
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`importReservedConcurrency must be a positive integer, got ${value}`);
  }
  return value;
}

function checkTimeout(value: Duration): Duration {
  if (value.isUnresolved()) return value;
  const seconds = value.toSeconds();
  if (seconds < 1 || seconds > MAX_LAMBDA_TIMEOUT_SECONDS) {
    throw new Error(`timeout must be from 1 to ${MAX_LAMBDA_TIMEOUT_SECONDS} seconds, got ${seconds} seconds`);
  }
  return value;
}

/** Normalises 'a/b/' to 'a/b'; the functions and the grants both append '/<execution>/...'. */
function checkPrefix(name: string, value: string): string {
  const prefix = value.replace(/\/+$/, '');
  if (prefix === '' || prefix.startsWith('/') || prefix.includes('*')) {
    throw new Error(`${name} must be a key prefix like 'imports/rejects', got '${value}'`);
  }
  return prefix;
}

/** Rejects and staged pieces must not share a folder: the CLI copies a rejects folder whole, and grants differ. */
function checkApart(rejectsPrefix: string, stagingPrefix: string): void {
  if (Token.isUnresolved(rejectsPrefix) || Token.isUnresolved(stagingPrefix)) return;
  const within = (a: string, b: string) => a === b || a.startsWith(`${b}/`);
  if (within(rejectsPrefix, stagingPrefix) || within(stagingPrefix, rejectsPrefix)) {
    throw new Error(
      `stagingPrefix and rejectsPrefix must not contain each other, got '${stagingPrefix}' and '${rejectsPrefix}'`,
    );
  }
}
