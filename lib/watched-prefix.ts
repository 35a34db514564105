import { Annotations, Duration, Token } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { ImportSettings } from '../lambdas/contract/import-request.js';
import type { InputTransformer } from './eventbridge-semantics.js';
import {
  checkInputTemplate,
  checkWatchPrefix,
  checkWatchRequest,
  watchEventPattern,
  watchStarterTransformer,
  type WatchedPrefix,
} from './watch-input.js';

export type { WatchedPrefix } from './watch-input.js';

/**
 * A watch as the construct takes it: a WatchedPrefix whose table is named either by name (`table`, as the app's
 * `cdk.json` and `local watch` give it) or by the table itself (`tableRef`, one of the pipeline's `tables`). Two
 * fields rather than one `string | ITable`, which jsii cannot carry.
 */
export interface PipelineWatch extends ImportSettings {
  /** Key prefix, e.g. 'imports/ngrams/'. It must not cover the rejects prefix. */
  readonly prefix: string;
  /** The table's name. @default - `tableRef`'s name: give exactly one of the two */
  readonly table?: string;
  /** The table, as given in `tables`. @default - `table`: give exactly one of the two */
  readonly tableRef?: dynamodb.ITable;
}

/**
 * Throws early when a watch cannot work: a table the pipeline may not write, a prefix that would also
 * fire on the pipeline's own rejects and reports (a loop), or a format/types the request validator
 * would reject on every upload.
 */
export function checkWatch(
  watch: WatchedPrefix,
  tableNames: readonly string[],
  rejectsPrefix: string,
  stagingPrefix?: string,
): void {
  const namesKnown = tableNames.every((name) => !Token.isUnresolved(name));
  if (namesKnown && !tableNames.includes(watch.table)) {
    throw new Error(
      `watch for prefix '${watch.prefix}': table '${watch.table}' is not among tables (${tableNames.join(', ')})`,
    );
  }
  if (!Token.isUnresolved(watch.prefix)) checkWatchPrefix(watch, rejectsPrefix, stagingPrefix);
  checkWatchRequest(watch);
}

/** Throws when a watch asks for `warmThroughput` that the stack does not allow: every upload under it would fail. */
export function checkWatchWarmThroughput(watch: WatchedPrefix, allowWarmThroughput: boolean): void {
  if (watch.warmThroughput && !allowWarmThroughput) {
    throw new Error(
      `watch for prefix '${watch.prefix}': warmThroughput ${watch.warmThroughput} needs allowWarmThroughput: true ` +
        '(which grants preflight dynamodb:UpdateTable on the tables); without it, imports that need a raise fail',
    );
  }
}

/** The input transformer of lib/watch-input.ts, exactly as built there, for a rule target. */
class TransformerInput extends events.RuleTargetInput {
  constructor(private readonly transformer: InputTransformer) {
    super();
  }

  bind(): events.RuleTargetInputProperties {
    return { inputPathsMap: { ...this.transformer.inputPathsMap }, inputTemplate: this.transformer.inputTemplate };
  }
}

/**
 * EventBridge retries delivering an event to the starter for up to 24 hours and 185 attempts, with exponential
 * back-off and jitter, then puts it in the dead-letter queue (the defaults, set here so the template says them:
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-rule-event-delivery.html).
 */
const DELIVERY_RETRY = { retryAttempts: 185, maxEventAge: Duration.hours(24) } as const;

/**
 * One EventBridge rule: an object created under the prefix starts the watch starter (lib/watch-starter.ts) with the
 * watch's id, the event's identity and the request an input transformer builds (bucket and key from the event, the
 * rest from the watch); the starter names the import after the event, so a repeated event starts no second import.
 * Pattern and request transformer come from lib/watch-input.ts, which `local watch` applies to local uploads. An
 * event EventBridge cannot deliver after its retries goes to the dead-letter queue.
 */
export function addWatchRule(scope: Construct, id: string, watch: WatchedPrefix, target: WatchRuleTarget): events.Rule {
  const { bucket, starter, deadLetterQueue, watchId } = target;
  const { source, 'detail-type': detailType, detail } = watchEventPattern(watch, bucket.bucketName);
  const transformer = watchStarterTransformer(watch, watchId);
  checkInputTemplate(watch, transformer);
  const rule = new events.Rule(scope, id, {
    description: `Imports objects created under s3://${bucket.bucketName}/${watch.prefix} into ${watch.table}`,
    eventPattern: {
      source: source as string[],
      detailType: detailType as string[],
      detail: detail as Record<string, unknown>,
    },
  });
  rule.addTarget(
    new targets.SfnStateMachine(starter, {
      input: new TransformerInput(transformer),
      deadLetterQueue,
      ...DELIVERY_RETRY,
    }),
  );
  return rule;
}

/** Where a watch rule sends its events. */
export interface WatchRuleTarget {
  readonly bucket: s3.IBucket;
  readonly starter: sfn.IStateMachine;
  readonly deadLetterQueue: sqs.IQueue;
  /** The watch's index in the list: the starter names the import with it. */
  readonly watchId: number;
}

/**
 * The bucket must send its events to EventBridge for any rule to fire. A bucket of this app is made to (the
 * construct turns its EventBridge notifications on); an imported one cannot be seen from here, so synth warns: a
 * bucket without them makes the rules silently never fire
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/enable-event-notifications-eventbridge.html).
 */
export function ensureEventBridgeDelivery(scope: Construct, bucket: s3.IBucket): void {
  if (bucket instanceof s3.Bucket) {
    bucket.enableEventBridgeNotification();
    return;
  }
  Annotations.of(scope).addWarningV2(
    WATCH_EVENTBRIDGE_WARNING,
    `watches need bucket ${bucket.bucketName} to send its events to EventBridge, which this stack cannot see for an ` +
      'imported bucket: turn them on (aws s3api put-bucket-notification-configuration --bucket <name> ' +
      `--notification-configuration '{"EventBridgeConfiguration":{}}', which replaces the bucket's other ` +
      'notification settings: merge them in) or no upload starts an import. Acknowledge this warning once they are on.',
  );
}

/** The id of the warning above, for Annotations.of(scope).acknowledgeWarning(). */
export const WATCH_EVENTBRIDGE_WARNING = 's3-ddb-import:watchesNeedBucketEventBridge';
