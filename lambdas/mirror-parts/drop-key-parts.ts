import type { DropKeyPartsEvent, DroppedKeyParts } from '../contract/mirror-payloads.js';
import type { LambdaContextLike } from '../environment/lambda-context.js';
import { deadlineCheck } from '../environment/lambda-context.js';
import { mirrorPaths } from '../mirror/key-parts.js';
import type { MirrorPartsIo } from './mirror-parts-io.js';

/**
 * MirrorDropKeyParts: deletes the key parts (the file's and the table's keys, `<execution>/mirror/`) once every part's
 * delete list is written, before the guard: so they go whether the guard stops the mirror, a dry run ends it, or the
 * deletes run (and fail or not). The delete lists stay: they are the diff, as the rejects stay. Lists one page
 * (1,000 keys) and deletes it with one DeleteObjects, until none is left or the invocation nears its deadline.
 *
 * @example
 * await runDropKeyParts({ step: 'drop', executionName, request }, io, options); // { objects: 48, done: true }
 */
export async function runDropKeyParts(
  _event: DropKeyPartsEvent,
  io: MirrorPartsIo,
  options: { readonly outputPrefix: string; readonly bucket: string; readonly context: LambdaContextLike },
): Promise<DroppedKeyParts> {
  const { bucket } = options;
  const prefix = mirrorPaths(options.outputPrefix).keyParts;
  const stop = deadlineCheck(options.context);
  let objects = 0;
  for (;;) {
    const keys = await io.firstKeys(bucket, prefix);
    if (keys.length === 0) return { objects, done: true };
    await io.deleteKeys(bucket, keys);
    objects += keys.length;
    if (stop()) return { objects, done: false };
  }
}
