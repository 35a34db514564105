import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
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
import { createPipelineFunctions } from './private/pipeline-functions.js';
import { resolvePipelineSettings } from './private/pipeline-settings.js';
import type { ImportPipelineProps } from './import-pipeline-props.js';
import { createWatchStarter, type WatchStarter } from './watch-starter.js';
import { addWatchRule, checkWatchWarmThroughput, ensureEventBridgeDelivery } from './watched-prefix.js';

export { ASL_PLACEHOLDERS } from './workflow-tasks.js';
export type { WatchedPrefix } from './watched-prefix.js';
export type { ImportPipelineProps } from './import-pipeline-props.js';

/**
 * Imports objects from an S3 bucket (CSV/TSV, JSON Lines, DynamoDB JSON and table exports; plain, gzip or zstd)
 * into existing DynamoDB tables: a Step Functions workflow (`statemachine/import.asl.json`) that scans the
 * source into chunks, imports them in parallel and writes a report.
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

  constructor(scope: Construct, id: string, props: ImportPipelineProps) {
    super(scope, id);
    const settings = resolvePipelineSettings(props);
    this.bucketKey = settings.bucketKey;
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
    this.watchStarter = this.addWatches(props);
    this.failedExecutionAlarm = props.failedExecutionAlarm
      ? addFailedExecutionAlarm(this, 'FailedExecutionsAlarm', this.stateMachine, props.alarmTopic)
      : undefined;
    this.dashboard = props.dashboard === false ? undefined : this.addDashboard(props);
  }

  /** One rule per watch (`Watch<index>`), all sending to one starter with one dead-letter queue and alarm. */
  private addWatches(props: ImportPipelineProps): WatchStarter | undefined {
    const watches = props.watches ?? [];
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
