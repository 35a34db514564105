import type { GetObjectCommandInput, GetObjectCommandOutput } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { fullJitterDelay, sleep, type RetryPolicy } from '../async/backoff.js';
import type { SourceObject } from './source-object.js';
import { SourceObjectChangedError, SourceObjectNotFoundError, TransientReadError } from '../contract/errors.js';

export type SendGetObject = (input: GetObjectCommandInput) => Promise<GetObjectCommandOutput>;

/** A dropped connection mid-body resumes from the last byte received, a few times, before giving up. */
const READ_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 2000 };

/**
 * Streams bytes [start, end) of the object with range GETs (`bytes=start-(end-1)`, IfMatch: ETag; an empty
 * ETag sends none: the staged pieces an import writes and reads itself, see import/chunk-reader.ts).
 * A body that breaks off is resumed from where it stopped; a changed object or a missing one fails with
 * a named error. The one range helper for preflight and import alike.
 */
export async function* readRange(
  send: SendGetObject,
  source: SourceObject,
  start: number,
  end: number,
): AsyncGenerator<Buffer> {
  let position = start;
  for (let attempt = 0; position < end; attempt++) {
    let body: Readable | undefined;
    try {
      const response = await send({
        Bucket: source.bucket,
        Key: source.key,
        Range: `bytes=${position}-${end - 1}`,
        ...(source.etag ? { IfMatch: source.etag } : {}),
      });
      body = response.Body as Readable;
      for await (const piece of body) {
        const buf = piece as Buffer;
        position += buf.length;
        attempt = 0; // progress resets the budget: only consecutive failures count
        yield buf;
      }
      if (position < end)
        throw Object.assign(new Error(`body ended at byte ${position} of ${end}`), { name: 'PrematureClose' });
    } catch (error) {
      const named = classify(error, source);
      if (named) throw named;
      if (attempt + 1 >= READ_RETRY.maxAttempts) {
        throw new TransientReadError(
          `reading s3://${source.bucket}/${source.key} at byte ${position} failed: ${(error as Error).message}`,
          { cause: error },
        );
      }
      await sleep(fullJitterDelay(READ_RETRY, attempt));
    } finally {
      body?.destroy();
    }
  }
}

function classify(error: unknown, source: SourceObject): Error | undefined {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (e.name === 'PreconditionFailed' || status === 412)
    return new SourceObjectChangedError(source.bucket, source.key, source.etag, { cause: error });
  if (e.name === 'NoSuchKey' || e.name === 'NotFound' || status === 404)
    return new SourceObjectNotFoundError(source.bucket, source.key, { cause: error });
  if (status !== undefined && status < 500 && status !== 429 && status !== 408) return error as Error;
  return undefined;
}
