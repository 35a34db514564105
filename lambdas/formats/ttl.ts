/** A TTL value as DynamoDB's time to live reads it: whole epoch seconds, as `N` text. */
export type TtlResult =
  { readonly ok: true; readonly epochSeconds: string } | { readonly ok: false; readonly reason: string };

/**
 * `2030-01-02T03:04:05Z`, `2030-01-02T05:04:05+02:00`, with an optional fraction of a second (dropped: TTL
 * counts whole seconds). Date-times without a zone are rejected: their instant depends on where they were written.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$/;
const EPOCH_SECONDS = /^\d{1,15}$/;

/**
 * Reads an ISO 8601 date-time with `Z` or an offset, or an integer of epoch seconds, as epoch seconds
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/time-to-live-ttl-before-you-start.html:
 * the TTL attribute is a Number in Unix epoch time, in seconds). Anything else is a reason to reject the row.
 */
export function readTtl(text: string): TtlResult {
  if (EPOCH_SECONDS.test(text)) return { ok: true, epochSeconds: String(Number(text)) };
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return notTtl(text);
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const utcMs = Date.UTC(year, month - 1, day, hour, minute, second);
  const date = new Date(utcMs);
  // Date.UTC rolls 2030-02-30 over to March: a date that does not round-trip does not exist.
  const exists =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24;
  const offsetOk = match[7] === 'Z' || (Number(match[9]) < 24 && Number(match[10]) < 60);
  if (!exists || minute > 59 || second > 59 || !offsetOk) return notTtl(text);
  const offsetSeconds =
    match[7] === 'Z' ? 0 : (match[8] === '-' ? -1 : 1) * (Number(match[9]) * 3600 + Number(match[10]) * 60);
  const epochSeconds = utcMs / 1000 - offsetSeconds;
  if (epochSeconds < 0)
    return { ok: false, reason: `a TTL before 1970 cannot expire anything: ${JSON.stringify(text)}` };
  return { ok: true, epochSeconds: String(epochSeconds) };
}

function notTtl(text: string): TtlResult {
  return {
    ok: false,
    reason: `not a TTL (an ISO 8601 date-time with Z or an offset, or epoch seconds): ${JSON.stringify(text)}`,
  };
}
