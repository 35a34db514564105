import { Stack } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { grantConcurrencyReads } from './control-plane-grants.js';
import { addFailedExecutionAlarm, PipelineDashboard } from './pipeline-dashboard.js';
import { createImportStateMachine } from './private/import-state-machine.js';
import { createLedgerTable, grantLedger } from './private/import-ledger-table.js';
import { grantMirrorAccess } from './private/mirror-grants.js';
import {
  abortUnfinishedRejectsUploads,
  expireStagedPieces,
  grantBucketAccess,
  grantTableAccess,
} from './private/pipeline-data-grants.js';
import { noteCrossAccountPolicy } from './import-source.js';
import { warnUnreservedImports } from './private/pipeline-warnings.js';
import {
  addCliOutputs,
  DEFAULT_UPLOAD_PREFIX,
  grantChangeImports,
  grantStartImports,
  type PipelineParts,
} from './private/pipeline-access.js';
import { createPipelineFunctions } from './private/pipeline-functions.js';
import { resolvePipelineSettings, type PipelineSettings } from './private/pipeline-settings.js';
import type { ImportPipelineProps } from './import-pipeline-props.js';
import { createWatchStarter, type WatchStarter } from './watch-starter.js';
import { addWatchRule, checkWatchWarmThroughput, ensureEventBridgeDelivery } from './watched-prefix.js';

export { ASL_PLACEHOLDERS } from './workflow-tasks.js';
export type { PipelineWatch, WatchedPrefix } from './watched-prefix.js';
export type { ImportSource } from './import-source.js';
export { UNRESERVED_IMPORTS_WARNING } from './private/pipeline-warnings.js';
export type { ImportPipelineProps } from './import-pipeline-props.js';

/**
 * Imports objects from an S3 bucket (CSV/TSV, JSON Lines, DynamoDB JSON and table exports, Ion, Parquet; plain,
 * gzip or zstd) into existing DynamoDB tables: a Step Functions workflow (`statemachine/import.asl.json`) that plans
 * record-aligned chunks, imports them in parallel and writes a report.
 *
 * @example
 * new ImportPipeline(this, 'Pipeline', {
 *   bucket,
 *   tables: [ordersTable],
 *   watches: [{ prefix: 'imports/orders/', table: 'orders' }],
 * });
 */
export class ImportPipeline extends Construct {
  public readonly stateMachine: sfn.StateMachine;
  public readonly preflightFunction: NodejsFunction;
  public readonly importFunction: NodejsFunction;
  public readonly summarizeFunction: NodejsFunction;
  /** The ledger of running imports: lanes held, leases, live settings (`s3-ddb-import rate | pause | resume`). */
  public readonly ledgerTable: dynamodb.Table;
  /** The dashboard, unless `dashboard: false`. */
  public readonly dashboard?: PipelineDashboard;
  /** The alarm on failed executions, when `failedExecutionAlarm` is true. */
  public readonly failedExecutionAlarm?: cloudwatch.Alarm;
  /**
   * With `watches`: the state machine the rules start (it names each import after its S3 event, so a repeated event
   * starts no second import), the rules' dead-letter queue, and the alarm on either.
   */
  public readonly watchStarter?: WatchStarter;
  /**
   * The bucket's KMS key (`bucketKey`, else the bucket's `encryptionKey`), if any: the functions' PUTs ask for SSE-KMS
   * with it, and a client that uploads to the bucket (the CLI's `start`) should too.
   */
  public readonly bucketKey?: kms.IKey;
  /** What the outputs and the `grant*` methods name. */
  private readonly parts: PipelineParts;

  constructor(scope: Construct, id: string, props: ImportPipelineProps) {
    super(scope, id);
    const settings = resolvePipelineSettings(this, props);
    this.bucketKey = settings.bucketKey;
    warnUnreservedImports(this, settings);
    const functions = createPipelineFunctions(this, props, settings);
    this.preflightFunction = functions.preflight;
    this.importFunction = functions.importer;
    this.summarizeFunction = functions.summarize;
    grantBucketAccess(props, settings, functions);
    expireStagedPieces(props, settings);
    abortUnfinishedRejectsUploads(props, settings);
    grantTableAccess(props, functions);
    grantMirrorAccess(props, settings, functions);
    this.ledgerTable = createLedgerTable(this);
    grantLedger(this.ledgerTable, functions);
    this.stateMachine = createImportStateMachine(this, functions, settings.maxConcurrency);
    grantConcurrencyReads(functions.preflight, functions.importer, settings.reserved !== undefined);
    for (const source of settings.sources) noteCrossAccountPolicy(this, source);
    this.watchStarter = this.addWatches(props, settings);
    this.failedExecutionAlarm = props.failedExecutionAlarm
      ? addFailedExecutionAlarm(this, 'FailedExecutionsAlarm', this.stateMachine, props.alarmTopic)
      : undefined;
    this.dashboard = props.dashboard === false ? undefined : this.addDashboard(props);
    this.parts = {
      ...settings,
      stateMachine: this.stateMachine,
      ledgerTable: this.ledgerTable,
      bucket: props.bucket,
      watchedPrefixes: settings.watches.map((w) => w.prefix),
    };
  }

  /**
   * Adds the stack outputs `s3-ddb-import start | status | rate | pause | resume` find the deployment by
   * (`StateMachineArn`, `BucketName`, `LedgerTableName`, `WatchedPrefixes`, and `BucketKmsKeyArn` and `SourceBuckets`
   * when there are such), in this construct's stack under those names: copied by hand, a missed one silently
   * drops a CLI safeguard (e.g. `start` refusing an upload a watch would import twice). One pipeline per stack.
   *
   * @example
   * const pipeline = new ImportPipeline(this, 'Pipeline', { bucket, tables: [orders] });
   * pipeline.addOutputs();
   */
  public addOutputs(): void {
    addCliOutputs(Stack.of(this), this.parts);
  }

  /**
   * Lets `grantee` start imports as `s3-ddb-import start` does and follow them: read the stack's outputs, upload
   * under `uploadPrefix`, start and describe executions and their Map Runs, copy the rejects.
   *
   * @example
   * pipeline.grantStartImports(operatorsRole);
   */
  public grantStartImports(grantee: iam.IGrantable, uploadPrefix: string = DEFAULT_UPLOAD_PREFIX): void {
    grantStartImports(grantee, this.parts, uploadPrefix);
  }

  /**
   * Lets `grantee` change running imports as `s3-ddb-import rate | pause | resume` do: read the stack's outputs and
   * read, list and update the ledger's items.
   *
   * @example
   * pipeline.grantChangeImports(onCallRole);
   */
  public grantChangeImports(grantee: iam.IGrantable): void {
    grantChangeImports(grantee, this.parts);
  }

  /** One rule per watch (`Watch<index>`), all sending to one starter with one dead-letter queue and alarm. */
  private addWatches(props: ImportPipelineProps, { watches }: PipelineSettings): WatchStarter | undefined {
    if (watches.length === 0) return undefined;
    for (const watch of watches) checkWatchWarmThroughput(watch, props.allowWarmThroughput === true);
    ensureEventBridgeDelivery(this, props.bucket);
    const starter = createWatchStarter(this, this.stateMachine, props.alarmTopic);
    watches.forEach((watch, watchId) =>
      addWatchRule(this, `Watch${watchId}`, watch, {
        bucket: props.bucket,
        starter: starter.stateMachine,
        deadLetterQueue: starter.deadLetterQueue,
        watchId,
      }),
    );
    return starter;
  }

  private addDashboard(props: ImportPipelineProps): PipelineDashboard {
    return new PipelineDashboard(this, 'Dashboard', {
      stateMachine: this.stateMachine,
      importFunction: this.importFunction,
      tables: props.tables,
      dashboardName: props.dashboardName,
      alarms: [this.failedExecutionAlarm, this.watchStarter?.alarm].filter((a) => a !== undefined),
    });
  }
}
