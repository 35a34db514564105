import type { S3Client } from '@aws-sdk/client-s3';
import { listPages } from '../source/s3-listing.js';
import { parseRelativeRejectsKey, rejectsRowEnding, RELATIVE_REJECTS_FOLDER } from '../contract/relative-rejects.js';
import { objectKey } from '../source/source-set.js';
import type { SummarizeEvent } from '../contract/workflow-payloads.js';
import type { Readable } from 'node:stream';
import { deleteObject, sendGetObject } from '../wiring/aws-io.js';
import { startStreamUpload } from '../wiring/s3-stream-upload.js';
import { firstLines, LineRenumbering } from './absolute-lines.js';
import { chunkResultsOf } from './summarize.js';

/**
 * Files rewritten at once: each holds one streamed GET and one part of its upload (8 MiB), so 4 x 8 MiB of 256 MB;
 * several at once keep more of the function's network busy than one GET and one PUT in turn.
 */
const FILES_AT_ONCE = 4;

/** Where the rewritten files go and how they are stored. */
export interface RewriteTarget {
  readonly kmsKeyArn: string | null;
  /** The resolved setting (environment/config.ts rejectsPartBytes). */
  readonly partBytes: number;
  /** The bucket the rejects are in (the stack's). @default - the request's bucket */
  readonly outputBucket?: string;
}

/**
 * Rewrites the rejects files that chunks without `line` wrote with lines counted from their first record
 * (contract/relative-rejects.ts) as `<execution folder>/<name>.csv` with the lines of the object, then deletes
 * them. A retried Summarize (after a timeout, say) finds only the files not yet deleted and rewrites those. Each
 * file is streamed, GET in and a multipart upload out, so memory does not grow with a file's size (a wrong type in
 * a multi-GB object rejects every row).
 */
export async function makeRejectsAbsolute(
  s3: S3Client,
  event: SummarizeEvent,
  folder: string,
  target: RewriteTarget,
): Promise<void> {
  const bucket = target.outputBucket ?? event.request.bucket;
  const first = firstLines(event.chunks, chunkResultsOf(event), event.dataLine);
  const rewrites: Rewrite[] = [];
  for (const key of await listAll(s3, bucket, `${folder}/${RELATIVE_REJECTS_FOLDER}/`)) {
    const parsed = parseRelativeRejectsKey(folder, key);
    const line = parsed ? first.get(parsed.chunkIndex) : undefined;
    if (!parsed || line === undefined) continue;
    const object = objectKey(event.sources, event.chunks[parsed.chunkIndex].object);
    rewrites.push({ key, finalKey: parsed.finalKey, add: line - 1, rowEnding: rejectsRowEnding(object) });
  }
  const next = () => rewrites.shift();
  const worker = async () => {
    for (let file = next(); file; file = next()) {
      await rewriteFile(s3, bucket, file, target);
      await deleteObject(s3, bucket, file.key);
    }
  };
  await Promise.all(Array.from({ length: FILES_AT_ONCE }, worker));
}

/** A relative file, where it goes, the lines to add and how its rows end (the key of the object they came from). */
interface Rewrite {
  readonly key: string;
  readonly finalKey: string;
  readonly add: number;
  readonly rowEnding: Buffer;
}

/** Streams one relative file through LineRenumbering into its final key. */
async function rewriteFile(s3: S3Client, bucket: string, file: Rewrite, target: RewriteTarget): Promise<void> {
  const response = await sendGetObject(s3)({ Bucket: bucket, Key: file.key });
  const upload = startStreamUpload(s3, { ...target, bucket, key: file.finalKey, contentType: 'text/csv' });
  const renumbering = new LineRenumbering(file.add, file.rowEnding);
  try {
    for await (const piece of response.Body as Readable) {
      for (const bytes of renumbering.push(piece as Buffer)) await upload.write(bytes);
    }
    renumbering.end();
  } catch (error) {
    (response.Body as Readable).destroy();
    await upload.abort();
    throw error;
  }
  await upload.end();
}

/** Every key under `prefix`, through the SDK's paginator (source/s3-listing.ts). */
async function listAll(s3: S3Client, bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of listPages(s3)(bucket, prefix)) keys.push(...(page.Contents ?? []).map((o) => o.Key!));
  return keys;
}
