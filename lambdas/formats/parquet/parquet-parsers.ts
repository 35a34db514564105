import type { ParquetParsers } from 'hyparquet';

const utf8 = new TextDecoder();
const MS_PER_DAY = 86_400_000;

/** 1_000 per second in millis (3 digits), 1_000_000 in micros (6), 1_000_000_000 in nanos (9). */
function isoInstant(count: bigint, perSecond: bigint, digits: number): string {
  let seconds = count / perSecond;
  let fraction = count % perSecond;
  if (fraction < 0n) {
    // BigInt division truncates toward zero; before 1970 the second is the one below and the fraction positive.
    seconds -= 1n;
    fraction += perSecond;
  }
  const whole = new Date(Number(seconds) * 1000).toISOString(); // 2024-05-06T07:08:09.000Z
  return `${whole.slice(0, -5)}.${fraction.toString().padStart(digits, '0')}Z`;
}

/**
 * How the reader turns annotated values into text: timestamps keep their unit's digits (a JS Date would cut
 * micros and nanos to millis), dates are `YYYY-MM-DD`, JSON stays the text it is (not parsed), UUIDs are the
 * library's canonical lowercase 8-4-4-4-12 (its default).
 */
export const PARQUET_PARSERS: Partial<ParquetParsers> = {
  timestampFromMilliseconds: (millis) => isoInstant(BigInt(millis), 1_000n, 3),
  timestampFromMicroseconds: (micros) => isoInstant(BigInt(micros), 1_000_000n, 6),
  timestampFromNanoseconds: (nanos) => isoInstant(BigInt(nanos), 1_000_000_000n, 9),
  dateFromDays: (days) => new Date(days * MS_PER_DAY).toISOString().slice(0, 10),
  // A null JSON value comes as no bytes, whatever the declared type says.
  jsonFromBytes: (bytes: Uint8Array | undefined) => bytes && utf8.decode(bytes),
};
