import type { DeleteProgress, KeyJson, PartEvent } from '../contract/mirror-payloads.js';
import type { RetryPolicy } from '../retry/backoff.js';
import type { LambdaContextLike } from '../environment/lambda-context.js';
import { deadlineCheck } from '../environment/lambda-context.js';
import { canonicalKey, keyFromJson, mirrorPaths } from '../mirror/key-parts.js';
import { followMirrorPace, type MirrorPace, type MirrorPaceOptions } from '../mirror/mirror-pace.js';
import { del } from '../write/modes/delete.js';
import { linesOf, type MirrorPartsIo } from './mirror-parts-io.js';

/** What MirrorDeletePart runs with besides its event and I/O. */
export interface DeletePartOptions extends MirrorPaceOptions {
  readonly outputPrefix: string;
  /** The bucket of the delete lists: the stack's, as the rejects. */
  readonly bucket: string;
  readonly context: LambdaContextLike;
  readonly retry: RetryPolicy;
}

/**
 * MirrorDeletePart: deletes the keys of the part's delete list from its checkpoint, with the `delete` mode's writer
 * (BatchWriteItem DeleteRequests of 25, its retries and adaptive limit), each request waiting on the part's share of
 * the live maxWriteRate, until the list ends, the import is paused or the invocation nears its deadline; then returns
 * the next line (with a PausedWait when paused). Deleting a key again (a retried invocation) changes nothing.
 *
 * @example
 * await runDeletePart({ job, part: 3 }, io, options); // { next: null, deleted: 12 }
 */
export async function runDeletePart(
  event: PartEvent,
  io: MirrorPartsIo,
  options: DeletePartOptions,
): Promise<DeleteProgress> {
  const { job, progress } = event;
  const pace = await followMirrorPace(job, job.parts, options);
  try {
    const pausedWaitSeconds = pace.pausedWait(progress?.pausedWaitSeconds);
    if (pausedWaitSeconds !== undefined) {
      return { next: progress?.next ?? null, deleted: progress?.deleted ?? 0, pausedWaitSeconds };
    }
    return await deleteUntilStopped(event, io, options, pace);
  } finally {
    pace.stop();
  }
}

async function deleteUntilStopped(
  event: PartEvent,
  io: MirrorPartsIo,
  options: DeletePartOptions,
  pace: MirrorPace,
): Promise<DeleteProgress> {
  const { job, part, progress } = event;
  const lines = linesOf(await io.getText(options.bucket, mirrorPaths(options.outputPrefix).deletes(part)));
  const { writer, counts } = del.open({
    table: job.request.table,
    keys: job.keys,
    calls: io.writeCalls,
    retry: options.retry,
    consistentRead: false, // deletes read nothing
    beforeSend: (items) => pace.limiter.take(items),
  });
  const stop = deadlineCheck(options.context);
  let line = progress?.next?.line ?? 0;
  for (; line < lines.length && !stop() && !pace.held(); line++) {
    const key = keyFromJson((JSON.parse(lines[line]) as { key: KeyJson }).key);
    const queued = writer.add(key, canonicalKey(key, job.keys));
    if (queued) await queued;
  }
  await writer.flush();
  const deleted = (progress?.deleted ?? 0) + counts(0).deleted;
  if (line >= lines.length) return { next: null, deleted };
  const pausedWaitSeconds = pace.pausedWait(progress?.pausedWaitSeconds);
  return { next: { line }, deleted, ...(pausedWaitSeconds === undefined ? {} : { pausedWaitSeconds }) };
}
