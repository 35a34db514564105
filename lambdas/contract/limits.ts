/**
 * Limits and defaults shared by the handlers, the CDK construct, the local runner and the CLI: one place
 * for each number, with where it comes from.
 */

/** Chunks imported at once (the Map's MaxConcurrency) unless configured otherwise. */
export const DEFAULT_MAX_CONCURRENCY = 40;

/**
 * The most lanes the construct accepts: a Distributed Map runs up to 10,000 child executions at once, but an
 * import has at most 1,000 chunks (preflight's MAX_CHUNKS) and a default account at most 1,000 concurrent
 * Lambda invocations, so more lanes buy nothing.
 */
export const MAX_CONCURRENCY = 1000;

/** Lambda's hard timeout: 15 minutes = 900 s. */
export const MAX_LAMBDA_TIMEOUT_SECONDS = 900;

/** Default Lambda timeout of the preflight and import functions: the most Lambda allows. */
export const DEFAULT_LAMBDA_TIMEOUT_SECONDS = MAX_LAMBDA_TIMEOUT_SECONDS;

/** Target chunk size unless the request says otherwise; preflight grows it to bound the chunk count. */
export const DEFAULT_CHUNK_MIB = 64;

/**
 * Step Functions' cap on a state's input or output and on an execution's input: 256 KiB of UTF-8
 * (https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html, "Maximum input or output size
 * for a task, state, or execution"). Past it the execution fails with States.DataLimitExceeded.
 */
export const STATE_PAYLOAD_LIMIT_BYTES = 256 * 1024;

/**
 * The most preflight's state may weigh before it lists any chunk, its objects aside: the request, header
 * columns, types and keys. The largest state the workflow then builds (the parent's, once the Map has run,
 * which is also what Summarize receives) is this, plus the object list (MAX_SOURCES_STATE_BYTES), plus the
 * chunk list, plus the Map's results, each at its worst for a 5 TiB import (13-digit offsets and lines):
 *   64 KiB
 * + 40 KiB of objects
 * + 1,000 chunks x 77 B (`{"start":5497558138880,"end":5497558138880,"line":5497558138880,"object":499}`) = 75.2 KiB
 * + 1,000 results x 74 B (`{"chunk":999,"rows":2684354560,"written":2684354560,"rejected":2684354560}`) = 72.3 KiB
 * = 251.5 KiB, under the 256 KiB cap (test/lambdas/preflight/state-size.test.ts builds that state). Each chunk's
 * child execution gets the same ≤ 64 KiB job, the object list and one chunk.
 */
export const MAX_PLANNING_STATE_BYTES = 64 * 1024;

/**
 * The most objects one import reads (a prefix's objects, an export's data files). Each object is at least one
 * chunk, so at most half the 1,000 chunks go to one per object and the rest split big objects. The object list
 * must also fit MAX_SOURCES_STATE_BYTES: an entry is 72 B plus its key past the common folder
 * (`{"key":"part-00000.csv.gz","size":12345678,"etag":"\"<32 hex>\""},` is 90 B), so 40 KiB holds about 455
 * such objects, and 500 only with keys of 9 characters or less; whichever limit is met first is named.
 */
export const MAX_SOURCE_OBJECTS = 500;

/** The most the object list may weigh in the workflow state (see MAX_PLANNING_STATE_BYTES for the sum). */
export const MAX_SOURCES_STATE_BYTES = 40 * 1024;

/**
 * What an import is promised to survive, checked against Step Functions' 25,000-event execution history
 * (https://docs.aws.amazon.com/step-functions/latest/dg/service-quotas.html) by test/lib/history-limits.test.ts,
 * from the workflow file, with every Task state using all of its retries on every call:
 * - the parent execution: preflight's scan of the largest object, hours waiting for lanes, the Distributed Map (a
 *   constant handful of events, whatever the chunk count) and Summarize (or ReleaseLanes and the failure);
 * - one chunk's child execution: its checkpoint loop for as long as one chunk may take, and hours paused.
 */
export const HISTORY_EVENT_LIMIT = 25_000;
/** S3's largest object, 5 TiB (https://docs.aws.amazon.com/AmazonS3/latest/userguide/upload-objects.html). */
export const PROMISED_MAX_OBJECT_BYTES = 5 * 1024 ** 4;
/** Preflight's slowest scan: 50 MB/s, under half of the ~119 MB/s measured on quote-dense CSV (docs/performance.md). */
export const PROMISED_MIN_SCAN_BYTES_PER_SECOND = 50e6;
/** How long an import may wait for lanes (asking every 5 minutes at most: preflight/import-queue.ts): a day. */
export const PROMISED_MAX_QUEUED_HOURS = 24;
/** How long a chunk may stay paused (`s3-ddb-import pause`, asking every 5 minutes at most), on top of its 4 days. */
export const PROMISED_MAX_PAUSED_HOURS = 16;
/** How long one chunk may take (a slow or capped table): 4 days of 15-minute invocations. */
export const PROMISED_MAX_CHUNK_HOURS = 96;

/**
 * At most 1,000 chunks per import: their list stays within its share of the 256 KB state limit (above), and each
 * chunk is one child execution of the Distributed Map, which costs the parent history nothing per chunk. Preflight
 * plans within it (preflight/chunk-budget.ts); the CLI's estimate models the same.
 */
export const MAX_CHUNKS = 1000;
