import { InvalidRequestError } from '../lambdas/contract/errors.js';
import { resolveImportRequest } from '../lambdas/request/resolve-request.js';
import { type ImportOptions } from '../lambdas/contract/import-request.js';
import {
  applyInputTransformer,
  matchesEventPattern,
  type EventPattern,
  type InputTransformer,
} from './eventbridge-semantics.js';

/**
 * What a watched prefix is, and how an "Object Created" event becomes the request: the EventBridge rule's
 * pattern and input transformer. One module, no CDK: lib/watched-prefix.ts puts them into the deployed rule,
 * `local watch` applies them to the local engine's uploads (lib/eventbridge-semantics.ts), so both build the same request.
 */

/**
 * The request fields a watch fixes for every upload: the request (lambdas/contract/import-request.ts) less what each
 * event gives (bucket, key) and the folder form (a watch fires per object), which is the request's `ImportOptions`.
 * Shared, so a field added to the request (`spread`, `format.type`, ...) is one a watch can set too.
 */
export type WatchRequestFields = ImportOptions;

/** An S3 prefix whose new objects are imported into one table with fixed request fields. */
export interface WatchedPrefix extends ImportOptions {
  /** Key prefix, e.g. 'imports/ngrams/'. It must not cover the rejects prefix. */
  readonly prefix: string;
}

/**
 * Where the request's bucket and key come from in the event S3 sends EventBridge
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/ev-events.html: `detail.bucket.name`,
 * `detail.object.key`). The placeholder names are the ones CDK's EventField gave them, so the template of
 * stacks deployed before this module existed does not change.
 */
export const WATCH_INPUT_PATHS = {
  'detail-bucket-name': '$.detail.bucket.name',
  'detail-object-key': '$.detail.object.key',
} as const;

/** The request fields a watch fixes (every field but its `prefix`); bucket and key come from the event. */
export function watchRequestFields(watch: WatchedPrefix): Record<string, unknown> {
  const { prefix: _prefix, ...fields } = watch;
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The rule target's input transformer: `{"bucket":<...>,"key":<...>, ...the watch's fields}`. */
export function watchInputTransformer(watch: WatchedPrefix): InputTransformer {
  const fields = JSON.stringify(watchRequestFields(watch)).slice(1, -1);
  const placeholders = Object.keys(WATCH_INPUT_PATHS).map((name) => `<${name}>`);
  return {
    inputPathsMap: { ...WATCH_INPUT_PATHS },
    inputTemplate: `{"bucket":${placeholders[0]},"key":${placeholders[1]}${fields ? `,${fields}` : ''}}`,
  };
}

/**
 * Where the starter's dedup key comes from: `detail.object.sequencer`, which S3 puts in every event of an object
 * created by a PUT (https://docs.aws.amazon.com/AmazonS3/latest/userguide/notification-content-structure.html: "notifications
 * from events that create objects (PUTs) and delete objects contain a sequencer"; EventBridge events carry it as
 * `detail.object.sequencer`: https://docs.aws.amazon.com/AmazonS3/latest/userguide/ev-events.html). A second delivery of
 * the same event (S3 delivers "at least once":
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/EventNotifications.html) has the same bucket, key and
 * sequencer; a new upload of the same key has a greater sequencer.
 */
export const WATCH_SEQUENCER_PATH = { 'detail-object-sequencer': '$.detail.object.sequencer' } as const;

/**
 * The longest InputTemplate EventBridge takes: "Length Constraints: Minimum length of 1. Maximum length of 8192"
 * (https://docs.aws.amazon.com/eventbridge/latest/APIReference/API_InputTransformer.html).
 */
export const MAX_INPUT_TEMPLATE_CHARS = 8192;

/**
 * What the deployed rule sends the watch starter (lib/watch-starter.ts): which watch, the event's identity (bucket,
 * key, sequencer: the execution's name is derived from it) and the request (watchInputTransformer's template, as it
 * is, nested). `watchId` is the watch's index in the stack's list.
 */
export function watchStarterTransformer(watch: WatchedPrefix, watchId: number): InputTransformer {
  const request = watchInputTransformer(watch);
  const event = '{"bucket":<detail-bucket-name>,"key":<detail-object-key>,"sequencer":<detail-object-sequencer>}';
  return {
    inputPathsMap: { ...request.inputPathsMap, ...WATCH_SEQUENCER_PATH },
    inputTemplate: `{"watch":"${watchId}","event":${event},"request":${request.inputTemplate}}`,
  };
}

/**
 * Throws when a watch's InputTemplate is longer than EventBridge takes (a watch with many `types`, `attributes` or
 * columns): the deploy would fail on the rule, far from the cause.
 */
export function checkInputTemplate(watch: WatchedPrefix, transformer: InputTransformer): void {
  const length = transformer.inputTemplate.length;
  if (length > MAX_INPUT_TEMPLATE_CHARS) {
    throw new Error(
      `watch for prefix '${watch.prefix}': its request makes an EventBridge InputTemplate of ${length} characters, ` +
        `over the ${MAX_INPUT_TEMPLATE_CHARS} EventBridge takes: fix fewer fields in the watch (types, attributes, ` +
        'format.columns), or start these imports with StartExecution',
    );
  }
}

/**
 * The rule's event pattern: an object created in `bucketName` under the prefix, with at least one byte (the
 * zero-byte "folders" the console creates are skipped).
 */
export function watchEventPattern(watch: WatchedPrefix, bucketName: string): EventPattern {
  return {
    source: ['aws.s3'],
    'detail-type': ['Object Created'],
    detail: {
      bucket: { name: [bucketName] },
      object: { key: [{ prefix: watch.prefix }], size: [{ numeric: ['>', 0] }] },
    },
  };
}

/** The request the deployed rule would start an execution with for `event`, or null when it would not fire. */
export function requestForEvent(
  watch: WatchedPrefix,
  bucketName: string,
  event: unknown,
): Record<string, unknown> | null {
  if (!matchesEventPattern(watchEventPattern(watch, bucketName), event)) return null;
  return applyInputTransformer(watchInputTransformer(watch), event) as Record<string, unknown>;
}

/**
 * Throws when a prefix would also fire on the pipeline's own rejects and reports, or on the staged pieces of big
 * compressed objects (a loop either way).
 */
export function checkWatchPrefix(watch: WatchedPrefix, rejectsPrefix: string, stagingPrefix?: string): void {
  const rejects = `${rejectsPrefix}/`;
  if (rejects.startsWith(watch.prefix) || watch.prefix.startsWith(rejects)) {
    throw new Error(
      `watch for prefix '${watch.prefix}': overlaps the rejects prefix '${rejects}', so reports would trigger imports`,
    );
  }
  const staging = stagingPrefix && `${stagingPrefix}/`;
  if (staging && (staging.startsWith(watch.prefix) || watch.prefix.startsWith(staging))) {
    throw new Error(
      `watch for prefix '${watch.prefix}': overlaps the staging prefix '${staging}', so staged pieces would trigger imports`,
    );
  }
}

/** Throws when the request validator would reject every upload under the watch (a bad format or types). */
export function checkWatchRequest(watch: WatchedPrefix): void {
  try {
    resolveImportRequest({ ...watchRequestFields(watch), bucket: 'bucket', key: `${watch.prefix}object` });
  } catch (error) {
    if (error instanceof InvalidRequestError)
      throw new Error(`watch for prefix '${watch.prefix}': ${error.problems.join('; ')}`);
    throw error;
  }
}
