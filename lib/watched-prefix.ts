import { Token } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import type { InputTransformer } from './eventbridge-semantics.js';
import {
  checkWatchPrefix,
  checkWatchRequest,
  watchEventPattern,
  watchInputTransformer,
  type WatchedPrefix,
} from './watch-input.js';

export type { WatchedPrefix } from './watch-input.js';

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
 * One EventBridge rule: an object created under the prefix starts an execution whose input an input
 * transformer builds (bucket and key from the event, the rest from the watch). Pattern and transformer come
 * from lib/watch-input.ts, which `local watch` applies to local uploads.
 */
export function addWatchRule(
  scope: Construct,
  id: string,
  watch: WatchedPrefix,
  bucket: s3.IBucket,
  stateMachine: sfn.IStateMachine,
): events.Rule {
  const { source, 'detail-type': detailType, detail } = watchEventPattern(watch, bucket.bucketName);
  const rule = new events.Rule(scope, id, {
    description: `Imports objects created under s3://${bucket.bucketName}/${watch.prefix} into ${watch.table}`,
    eventPattern: {
      source: source as string[],
      detailType: detailType as string[],
      detail: detail as Record<string, unknown>,
    },
  });
  rule.addTarget(
    new targets.SfnStateMachine(stateMachine, { input: new TransformerInput(watchInputTransformer(watch)) }),
  );
  return rule;
}
