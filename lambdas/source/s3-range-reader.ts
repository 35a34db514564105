import type { GetObjectCommandInput, GetObjectCommandOutput } from '@aws-sdk/client-s3';
import type { SdkError } from '@smithy/types';
import type { Readable } from 'node:stream';
import { fullJitterDelay, sleep, type RetryPolicy } from '../retry/backoff.js';
import { retryErrorType } from '../retry/batch-retry.js';
import type { SourceObject } from './source-object.js';
import { SourceObjectChangedError, SourceObjectNotFoundError, TransientReadError } from '../contract/errors.js';

export type SendGetObject = (input: GetObjectCommandInput) => Promise<GetObjectCommandOutput>;

/** A dropped connection mid-body resumes from the last byte received, a few times, before giving up. */
const READ_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 2000 };

/**
 * A range is read in GETs of at most this many bytes first, then twice the last one's, up to MAX_GET_BYTES. A reader
 * that stops early (a header, a record start, a byte range's last record) never asks for the rest of the object, and the
 * first bytes of a large range come back as soon as a small range's. A server may build a response from its whole
 * range before it sends a byte: the local engine (ministack) slices the range from memory and writes it out whole;
 * there 32 lanes asking 32 MiB each waited up to 4.3 s for their first bytes, against 0.26 s at 1 MiB, and one GET
 * to the end of a 1 GiB object (a header read) held it busy 7.5 s after the reader had what it needed.
 */
export const FIRST_GET_BYTES = 256 * 1024;
/**
 * 8 MiB: "Typical sizes for byte-range requests are 8 MB or 16 MB" (Best practices design patterns: optimizing
 * Amazon S3 performance, https://docs.aws.amazon.com/whitepapers/latest/s3-optimizing-performance-best-practices/use-byte-range-fetches.html).
 * One more round trip per 8 MiB costs a lane little: it consumes its bytes far slower than S3 sends them.
 */
export const MAX_GET_BYTES = 8 * 1024 * 1024;

/**
 * Streams bytes [start, end) of the object with range GETs (`bytes=from-to`, IfMatch: ETag; an empty ETag sends
 * none: the staged pieces an import writes and reads itself, see import/chunk-reader.ts), each at most
 * FIRST_GET_BYTES, then growing to MAX_GET_BYTES. A body that breaks off is resumed from where it stopped; a
 * changed object or a missing one fails with a named error. The one range helper for preflight and import alike.
 */
export async function* readRange(
  send: SendGetObject,
  source: SourceObject,
  start: number,
  end: number,
): AsyncGenerator<Buffer> {
  let position = start;
  let getBytes = FIRST_GET_BYTES;
  let failures = 0; // in a row: any progress resets it
  while (position < end) {
    let body: Readable | undefined;
    const getEnd = Math.min(end, position + getBytes);
    try {
      body = (await send(rangeGet(source, position, getEnd))).Body as Readable;
      for await (const piece of body) {
        const buf = piece as Buffer;
        position += buf.length;
        failures = 0;
        yield buf;
      }
      if (position < getEnd)
        throw Object.assign(new Error(`body ended at byte ${position} of ${getEnd}`), { name: 'PrematureClose' });
      getBytes = Math.min(MAX_GET_BYTES, getBytes * 2);
    } catch (error) {
      const named = classify(error, source);
      if (named) throw named;
      if (++failures >= READ_RETRY.maxAttempts) {
        throw new TransientReadError(
          `reading s3://${source.bucket}/${source.key} at byte ${position} failed: ${(error as Error).message}`,
          { cause: error },
        );
      }
      await sleep(fullJitterDelay(READ_RETRY, failures - 1));
    } finally {
      body?.destroy();
    }
  }
}

/** The GET of bytes [from, to): with IfMatch on the object's ETag, when it has one. */
function rangeGet(source: SourceObject, from: number, to: number): GetObjectCommandInput {
  return {
    Bucket: source.bucket,
    Key: source.key,
    Range: `bytes=${from}-${to - 1}`,
    ...(source.etag ? { IfMatch: source.etag } : {}),
  };
}

/**
 * What a failed GET (or its body) means: the object changed (412: IfMatch no longer holds) or is gone (404), each
 * named; another reply of S3 that the SDK's own classifiers (retry/batch-retry.ts retryErrorType, as the writers read them)
 * call neither a throttle, transient nor a server error fails as it is (403 AccessDenied, an invalid range); a
 * throttle (503 SlowDown), a transient or server error, or a body that broke off with no reply at all (a dropped
 * connection) is undefined: resumed from the last byte received. Named by status, not by SDK error class: the local
 * runner's clients come from another copy of the SDK than a handler bundle's (cli/local-run/handler-bundles.ts).
 */
function classify(error: unknown, source: SourceObject): Error | undefined {
  const e = error as SdkError;
  const status = e.$metadata?.httpStatusCode;
  if (status === 412 || e.name === 'PreconditionFailed')
    return new SourceObjectChangedError(source.bucket, source.key, source.etag, { cause: error });
  if (status === 404 || e.name === 'NoSuchKey' || e.name === 'NotFound')
    return new SourceObjectNotFoundError(source.bucket, source.key, { cause: error });
  if (retryErrorType(e) !== 'CLIENT_ERROR') return undefined;
  return status === undefined ? undefined : (error as Error);
}
