import type { LambdaContextLike } from '../environment/lambda-context.js';
import { deadlineCheck } from '../environment/lambda-context.js';
import type { ScanSegmentEvent, SegmentProgress } from '../contract/mirror-payloads.js';
import { KeyBuffer } from '../mirror/key-buffer.js';
import { canonicalKey, keyFromJson, keyJson, mirrorPaths, pad, type TableKey } from '../mirror/key-parts.js';
import type { MirrorScanIo } from './mirror-scan-io.js';

/**
 * Key text one invocation holds before it stores it and returns a checkpoint: 64 MB, about 1.3M keys of 50 bytes,
 * so memory is bounded by this, never by the table.
 */
export const MAX_BUFFERED_KEY_BYTES = 64 * 1024 * 1024;

/** What MirrorScanSegment runs with besides its event and I/O. */
export interface MirrorScanOptions {
  /** The execution's output prefix (contract executionOutputPrefix): the key parts go under it. */
  readonly outputPrefix: string;
  /** The bucket the key parts go to: the stack's, as the rejects (a source bucket may be read only). */
  readonly bucket: string;
  /** The invocation's context: it stops before its deadline and returns a checkpoint. */
  readonly context: LambdaContextLike;
}

/**
 * MirrorScanSegment: scans one segment of the table from its checkpoint, page by page, and writes the keys in scope
 * into the key parts (one object per part, named by segment and invocation, so a retry overwrites its own). Stops
 * before its deadline or once MAX_BUFFERED_KEY_BYTES are held, returning the Scan's LastEvaluatedKey.
 *
 * @example
 * const progress = await runScanSegment({ job, segment: 2 }, mirrorScanIo(dynamodb, s3, null), options);
 * // { next: null, scanned: 1234 } once the segment is done
 */
export async function runScanSegment(
  event: ScanSegmentEvent,
  io: MirrorScanIo,
  options: MirrorScanOptions,
): Promise<SegmentProgress> {
  const { job, segment, progress } = event;
  const { table, scope } = job.request;
  const { bucket } = options;
  const invocation = progress?.next?.invocation ?? 0;
  const buffer = new KeyBuffer(job.parts);
  const stop = deadlineCheck(options.context);
  let startKey: TableKey | undefined = progress?.next ? keyFromJson(progress.next.startKey) : undefined;
  do {
    const page = await io.scanKeys({
      table,
      keys: job.keys,
      segment,
      totalSegments: job.totalSegments,
      scope,
      startKey,
    });
    for (const key of page.keys) buffer.add(canonicalKey(key, job.keys), JSON.stringify(keyJson(key, job.keys)));
    startKey = page.lastKey;
  } while (startKey && !stop() && buffer.bytes < MAX_BUFFERED_KEY_BYTES);
  const paths = mirrorPaths(options.outputPrefix);
  const name = `segment-${pad(segment)}-${pad(invocation)}.keys`;
  await Promise.all(
    buffer.bodies().map(({ part, body }) => io.putText(bucket, `${paths.tableKeys(part)}${name}`, body)),
  );
  const scanned = (progress?.scanned ?? 0) + buffer.count;
  const next = startKey ? { startKey: keyJson(startKey, job.keys), invocation: invocation + 1 } : null;
  return { next, scanned };
}
