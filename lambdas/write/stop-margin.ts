import type { RetryPolicy } from '../retry/backoff.js';
import { BATCH_SIZE, longestBackoffMs } from '../retry/batch-retry.js';

/** What the import's stop margin is derived from. */
export interface StopMarginInputs {
  readonly retry: RetryPolicy;
  /** The DynamoDB client's per-request timeout. */
  readonly requestTimeoutMs: number;
  readonly maxInFlight: number;
  /** This chunk's share of maxWriteRate in items/s; 0 when uncapped. */
  readonly writeRate: number;
}

/**
 * After the drain: the end of the rejects upload (one PutObject, or the last part of at most 8 MiB and
 * CompleteMultipartUpload: wiring/s3-stream-upload.ts) and the return. S3 promises no time for these
 * (CompleteMultipartUpload "could take several minutes",
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_CompleteMultipartUpload.html), so an overrun is made safe
 * rather than impossible: the invocation then times out, the workflow retries it (Lambda.Unknown, Sandbox.Timedout)
 * from the same checkpoint, which writes the same rows and the same rejects key again, and the bucket's
 * AbortUnfinishedRejectsUploads rule drops the abandoned upload's parts (lib/private/pipeline-data-grants.ts).
 */
export const FINISH_RESERVE_MS = 1000;

/**
 * After the deadline a lane that reads ahead (the partition window) sends the rows it holds for this long, then halts
 * and resumes from its first unwritten row in the next invocation (write/windowed-sender.ts). Short, so a source
 * object replaced meanwhile is still caught by the next invocation's If-Match GET rather than drained past; long
 * enough that a lane at the local engine's pace (1-17k items/s) ends where its reading stopped.
 */
export const DEADLINE_DRAIN_MS = 2000;

/**
 * Time to keep in hand when the import stops: once the deadline check fires the importer hands over no
 * more than the batch it is filling and stops waiting for free slots (BatchWriter `stopping`), so what
 * remains is to finish the batches in flight. Each finishes (written, or failed with
 * BatchWriteFailedError) within
 *   its longest back-off (retry/batch-retry.ts longestBackoffMs)
 *   + one request that hangs until requestTimeout (a throttle or a partial reply is answered at once;
 *     a run of hung requests needs requestTimeout more each and is left to the workflow's timeout retry)
 *   + with a write cap, one wait for its turn at the governor: maxInFlight x 25 items / rate
 *   + DEADLINE_DRAIN_MS, the partition window's drain before it halts
 *   + FINISH_RESERVE_MS.
 * Defaults: 27,550 (26,350 ladder + 24 x 50) + 5,000 + 0 + 2,000 + 1,000 = 35,550 ms.
 * Not covered: a key repeated in batches in flight together chains them (the later waits for the earlier).
 */
export function importStopMarginMs({ retry, requestTimeoutMs, maxInFlight, writeRate }: StopMarginInputs): number {
  const governorMs = writeRate > 0 ? ((maxInFlight * BATCH_SIZE) / writeRate) * 1000 : 0;
  return Math.ceil(longestBackoffMs(retry) + requestTimeoutMs + governorMs + DEADLINE_DRAIN_MS + FINISH_RESERVE_MS);
}
