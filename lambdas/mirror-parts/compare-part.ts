import type { ComparedPart, PartEvent } from '../contract/mirror-payloads.js';
import { canonicalKey, mirrorPaths, partOf, type TableKey } from '../mirror/key-parts.js';
import type { StreamUpload } from '../wiring/s3-stream-upload.js';
import { linesOf, type MirrorPartsIo } from './mirror-parts-io.js';

/**
 * MirrorComparePart: the part's table keys that the file does not hold, written as its delete list (diff lines
 * `{"op":"delete","key":{...},"attributes":[]}`, the dry run's diff too). It holds the part's file keys in a Set
 * (a part is sized so they fit: lambdas/mirror/key-parts.ts mirrorPlanParts), read from the file-side part that
 * holds them (`part % fileParts`), and streams the table keys past it. A table key seen
 * twice (a Scan invocation retried) is listed once.
 *
 * @example
 * await runComparePart({ job, part: 3 }, io, { outputPrefix }); // { part: 3, notInFile: 12 }
 */
export async function runComparePart(
  event: PartEvent,
  io: MirrorPartsIo,
  options: { readonly outputPrefix: string; readonly bucket: string },
): Promise<ComparedPart> {
  const { job, part } = event;
  const { bucket } = options; // the stack's, as the rejects: a source bucket may be read only
  const paths = mirrorPaths(options.outputPrefix);
  // The chunks split the file's keys into job.fileParts; this part's are in one of those, among others' keys.
  const fileKeys = new Set<string>();
  for (const key of await io.listKeys(bucket, paths.fileKeys(part % job.fileParts))) {
    for (const line of linesOf(await io.getText(bucket, key))) if (partOf(line, job.parts) === part) fileKeys.add(line);
  }
  const listed = new Set<string>();
  let upload: StreamUpload | undefined;
  try {
    for (const key of await io.listKeys(bucket, paths.tableKeys(part))) {
      for (const line of linesOf(await io.getText(bucket, key))) {
        const canonical = canonicalKey(JSON.parse(line) as TableKey, job.keys);
        if (fileKeys.has(canonical) || listed.has(canonical)) continue;
        listed.add(canonical);
        upload ??= io.startUpload(bucket, paths.deletes(part));
        await upload.write(Buffer.from(`{"op":"delete","key":${line},"attributes":[]}\n`));
      }
    }
    // An empty part still gets its (empty) list: MirrorDeletePart reads every part's.
    await (upload ? upload.end() : io.putText(bucket, paths.deletes(part), ''));
  } catch (error) {
    await upload?.abort();
    throw error;
  }
  return { part, notInFile: listed.size };
}
