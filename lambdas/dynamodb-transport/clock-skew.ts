import type { IncomingHttpHeaders } from 'node:http';

/**
 * Where the clock offset lives: the DynamoDB client's resolved configuration, whose `systemClockOffset` the
 * SDK's own signer keeps (milliseconds to add to the local clock for the server's). DynamoDbWriteTransport signs
 * with it and corrects it, so the lean path and the SDK client's other calls share one offset.
 */
export interface ClockOffset {
  systemClockOffset: number;
}

/**
 * An offset this large is a skew that a rejected request is retried for, smaller ones are the reply's
 * one-second Date resolution: the SDK's threshold (AwsSdkSigV4Signer.errorHandler), 4 minutes, under the
 * 5 minutes either way that SigV4 tolerates.
 */
export const CLOCK_SKEW_THRESHOLD_MS = 240_000;

/** A reply received more than 15 minutes after its request says nothing about the clock now (the SDK's bound). */
const STALE_EXCHANGE_MS = 900_000;

/** The time to sign a request with: the local clock corrected by the offset (the SDK's getSkewCorrectedDate). */
export const skewCorrectedDate = (clock: ClockOffset, nowMs = Date.now()) => new Date(nowMs + clock.systemClockOffset);

/**
 * The offset from a reply's `Date`, as @aws-sdk/core's getUpdatedSystemClockOffset computes it: the server's
 * time minus the local time at receipt. The current offset stays when the reply came through a cache (an
 * `Age` header), has no parseable date, or took too long to say when it was dated.
 */
export function updatedClockOffset(
  headers: IncomingHttpHeaders,
  current: number,
  sentAtMs: number,
  nowMs = Date.now(),
): number {
  if (headers.age !== undefined) return current;
  const serverMs = Date.parse(headers.date ?? '');
  if (Number.isNaN(serverMs) || nowMs - sentAtMs > STALE_EXCHANGE_MS) return current;
  return serverMs - nowMs;
}

/** What a failed request leaves to look at: the error and, for a reply, its headers (where the SDK puts them). */
interface FailedRequest {
  readonly $response?: { readonly headers?: IncomingHttpHeaders };
  readonly $metadata?: { clockSkewCorrected?: boolean };
}

/**
 * After a request failed: takes the server's clock from the error's reply, keeps the new offset for the
 * requests signed from now on, and marks the error `$metadata.clockSkewCorrected` when the offset is a skew
 * (at least CLOCK_SKEW_THRESHOLD_MS) that differs from the one this request was signed with, which makes it
 * transient for the SDK's classifier (isTransientError), so it is retried, now signed with the server's time.
 * This is what AwsSdkSigV4Signer.errorHandler does for the SDK's own calls.
 *
 * @param signedWith the offset the failed request was signed with
 * @param sentAtMs when it was sent (local clock)
 * @param nowMs when its reply came (local clock)
 */
export function correctClockSkew(
  error: unknown,
  clock: ClockOffset,
  signedWith: number,
  sentAtMs: number,
  nowMs = Date.now(),
): void {
  const failed = error as FailedRequest | undefined;
  const headers = failed?.$response?.headers;
  if (!headers) return; // no reply: a network error or a timeout says nothing about the server's clock
  const offset = updatedClockOffset(headers, clock.systemClockOffset, sentAtMs, nowMs);
  clock.systemClockOffset = offset;
  if (Math.abs(offset) >= CLOCK_SKEW_THRESHOLD_MS && offset !== signedWith && failed.$metadata)
    failed.$metadata.clockSkewCorrected = true;
}
