import type { DeleteProgress, KeyJson, PartEvent } from '../contract/mirror-payloads.js';
import type { RetryPolicy } from '../retry/backoff.js';
import type { LambdaContextLike } from '../environment/lambda-context.js';
import { deadlineCheck } from '../environment/lambda-context.js';
import { canonicalKey, keyFromJson, mirrorPaths } from '../mirror/key-parts.js';
import { del } from '../write/modes/delete.js';
import { linesOf, type MirrorPartsIo } from './mirror-parts-io.js';

/** What MirrorDeletePart runs with besides its event and I/O. */
export interface DeletePartOptions {
  readonly outputPrefix: string;
  /** The bucket of the delete lists: the stack's, as the rejects. */
  readonly bucket: string;
  readonly context: LambdaContextLike;
  readonly retry: RetryPolicy;
}

/**
 * MirrorDeletePart: deletes the keys of the part's delete list from its checkpoint, with the `delete` mode's writer
 * (BatchWriteItem DeleteRequests of 25, its retries and adaptive limit), until the list ends or the invocation nears
 * its deadline; then returns the next line. Deleting a key again (a retried invocation) changes nothing.
 *
 * @example
 * await runDeletePart({ job, part: 3 }, io, options); // { next: null, deleted: 12 }
 */
export async function runDeletePart(
  event: PartEvent,
  io: MirrorPartsIo,
  options: DeletePartOptions,
): Promise<DeleteProgress> {
  const { job, part, progress } = event;
  const { table } = job.request;
  const { bucket } = options;
  const lines = linesOf(await io.getText(bucket, mirrorPaths(options.outputPrefix).deletes(part)));
  const { writer, counts } = del.open({
    table,
    keys: job.keys,
    calls: io.writeCalls,
    retry: options.retry,
    consistentRead: false, // deletes read nothing
  });
  const stop = deadlineCheck(options.context);
  let line = progress?.next?.line ?? 0;
  for (; line < lines.length && !stop(); line++) {
    const key = keyFromJson((JSON.parse(lines[line]) as { key: KeyJson }).key);
    const queued = writer.add(key, canonicalKey(key, job.keys));
    if (queued) await queued;
  }
  await writer.flush();
  const deleted = (progress?.deleted ?? 0) + counts(0).deleted;
  return { next: line < lines.length ? { line } : null, deleted };
}
