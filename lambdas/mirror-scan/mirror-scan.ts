import type { LambdaContextLike } from '../environment/lambda-context.js';
import { deadlineCheck } from '../environment/lambda-context.js';
import type { ScanSegmentEvent, SegmentProgress } from '../contract/mirror-payloads.js';
import { KeyBuffer } from '../mirror/key-buffer.js';
import { canonicalKey, keyFromJson, keyJson, mirrorPaths, pad, type TableKey } from '../mirror/key-parts.js';
import { followMirrorPace, type MirrorPace, type MirrorPaceOptions } from '../mirror/mirror-pace.js';
import type { MirrorScanIo } from './mirror-scan-io.js';

/**
 * Key text an invocation holds before it stores it (one object per part) and reads on: 4 MB, about 160,000 keys of
 * 25 bytes, so a segment's memory is bounded by this, never by the table. Each store is named by its ordinal in the
 * invocation, so a retried invocation overwrites its own objects.
 */
export const MAX_BUFFERED_KEY_BYTES = 4 * 1024 * 1024;

/** What MirrorScanSegment runs with besides its event and I/O. */
export interface MirrorScanOptions extends MirrorPaceOptions {
  /** The execution's output prefix (contract executionOutputPrefix): the key parts go under it. */
  readonly outputPrefix: string;
  /** The bucket the key parts go to: the stack's, as the rejects (a source bucket may be read only). */
  readonly bucket: string;
  /** The invocation's context: it stops before its deadline and returns a checkpoint. */
  readonly context: LambdaContextLike;
}

/**
 * MirrorScanSegment: scans one segment of the table from its checkpoint, page by page, and writes the keys in scope
 * into the key parts (named by segment, invocation and store, so a retry overwrites its own). Each page waits on the
 * segment's share of the live maxWriteRate (items read, the Scan's Limit); a paused import, or one near the deadline,
 * stops after its page and returns the Scan's LastEvaluatedKey (with a PausedWait when paused).
 *
 * @example
 * const progress = await runScanSegment({ job, segment: 2 }, mirrorScanIo(dynamodb, s3, null, retry), options);
 * // { next: null, scanned: 1234 } once the segment is done
 */
export async function runScanSegment(
  event: ScanSegmentEvent,
  io: MirrorScanIo,
  options: MirrorScanOptions,
): Promise<SegmentProgress> {
  const { job, progress } = event;
  const pace = await followMirrorPace(job, job.totalSegments, options);
  try {
    const pausedWaitSeconds = pace.pausedWait(progress?.pausedWaitSeconds);
    if (pausedWaitSeconds !== undefined) return { ...emptyProgress(progress), pausedWaitSeconds };
    return await scanUntilStopped(event, io, options, pace);
  } finally {
    pace.stop();
  }
}

function emptyProgress(progress: SegmentProgress | undefined): SegmentProgress {
  return { next: progress?.next ?? null, scanned: progress?.scanned ?? 0 };
}

async function scanUntilStopped(
  event: ScanSegmentEvent,
  io: MirrorScanIo,
  options: MirrorScanOptions,
  pace: MirrorPace,
): Promise<SegmentProgress> {
  const { job, segment, progress } = event;
  const { table, scope } = job.request;
  const invocation = progress?.next?.invocation ?? 0;
  const store = storeParts(io, options, job.parts, `segment-${pad(segment)}-${pad(invocation)}`);
  const stop = deadlineCheck(options.context);
  let startKey: TableKey | undefined = progress?.next ? keyFromJson(progress.next.startKey) : undefined;
  do {
    const limit = pace.pageItems();
    await pace.limiter.take(limit ?? 0);
    const request = { table, keys: job.keys, segment, totalSegments: job.totalSegments, scope, startKey };
    const page = await io.scanKeys(limit ? { ...request, limit } : request);
    for (const key of page.keys) store.add(canonicalKey(key, job.keys), JSON.stringify(keyJson(key, job.keys)));
    if (store.buffer.bytes >= MAX_BUFFERED_KEY_BYTES) await store.flush();
    startKey = page.lastKey;
  } while (startKey && !stop() && !pace.held());
  await store.flush();
  const scanned = (progress?.scanned ?? 0) + store.count();
  const next = startKey ? { startKey: keyJson(startKey, job.keys), invocation: invocation + 1 } : null;
  const pausedWaitSeconds = next ? pace.pausedWait(progress?.pausedWaitSeconds) : undefined;
  return { next, scanned, ...(pausedWaitSeconds === undefined ? {} : { pausedWaitSeconds }) };
}

/** The keys of one invocation, stored to the parts whenever the buffer is full and once at the end. */
function storeParts(io: MirrorScanIo, options: MirrorScanOptions, parts: number, name: string) {
  const paths = mirrorPaths(options.outputPrefix);
  let buffer = new KeyBuffer(parts);
  let stores = 0;
  let stored = 0;
  return {
    get buffer() {
      return buffer;
    },
    add: (canonical: string, line: string) => buffer.add(canonical, line),
    count: () => stored + buffer.count,
    async flush() {
      const object = `${name}-${pad(stores++)}.keys`;
      const bodies = buffer.bodies();
      await Promise.all(
        bodies.map(({ part, body }) => io.putText(options.bucket, `${paths.tableKeys(part)}${object}`, body)),
      );
      stored += buffer.count;
      buffer = new KeyBuffer(parts);
    },
  };
}
