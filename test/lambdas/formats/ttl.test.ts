import { describe, expect, it } from 'vitest';
import { readTtl } from '../../../lambdas/formats/ttl.js';

describe.each([
  // 2030-01-02T03:04:05Z: 60 years of days to 2030 (14,610 + 15 leap days = 21,915 days) plus a day, 3h 4m 5s.
  { text: '2030-01-02T03:04:05Z', epoch: String(21_916 * 86_400 + 3 * 3600 + 4 * 60 + 5) },
  // The same instant written two hours east of UTC.
  { text: '2030-01-02T05:04:05+02:00', epoch: String(21_916 * 86_400 + 3 * 3600 + 4 * 60 + 5) },
  // And 5h 30m west of it: 2030-01-01T21:34:05-05:30 is 03:04:05Z the next day.
  { text: '2030-01-01T21:34:05-05:30', epoch: String(21_916 * 86_400 + 3 * 3600 + 4 * 60 + 5) },
  // A fraction of a second is dropped: TTL counts whole seconds.
  { text: '2030-01-02T03:04:05.999Z', epoch: String(21_916 * 86_400 + 3 * 3600 + 4 * 60 + 5) },
  // Epoch seconds are kept as they are (leading zeros dropped).
  { text: '1893553445', epoch: '1893553445' },
  { text: '0042', epoch: '42' },
  // 1970-01-01T00:00:00Z itself is 0; Feb 29 of a leap year exists.
  { text: '1970-01-01T00:00:00Z', epoch: '0' },
  { text: '2028-02-29T00:00:00Z', epoch: String(Date.UTC(2028, 1, 29) / 1000) },
])('readTtl($text)', ({ text, epoch }) => {
  it(`is ${epoch} epoch seconds`, () => {
    expect(readTtl(text)).toEqual({ ok: true, epochSeconds: epoch });
  });
});

describe.each([
  { problem: 'the date does not exist (Feb 30)', text: '2030-02-30T00:00:00Z', reason: 'not a TTL' },
  { problem: 'Feb 29 of a year that is not a leap year', text: '2029-02-29T00:00:00Z', reason: 'not a TTL' },
  { problem: 'the date-time has no zone', text: '2030-01-02T03:04:05', reason: 'not a TTL' },
  { problem: 'only a date is given', text: '2030-01-02', reason: 'not a TTL' },
  { problem: 'the hour is 24', text: '2030-01-02T24:00:00Z', reason: 'not a TTL' },
  { problem: 'the offset has no minutes', text: '2030-01-02T03:04:05+02', reason: 'not a TTL' },
  { problem: 'the text is garbage', text: 'next tuesday', reason: 'not a TTL' },
  { problem: 'epoch seconds have a fraction', text: '1893553445.5', reason: 'not a TTL' },
  { problem: 'epoch seconds are negative', text: '-5', reason: 'not a TTL' },
  { problem: 'the instant is before 1970', text: '1969-12-31T23:59:59Z', reason: 'a TTL before 1970' },
  { problem: 'an offset moves it before 1970', text: '1970-01-01T01:00:00+02:00', reason: 'a TTL before 1970' },
  { problem: 'the text is empty', text: '', reason: 'not a TTL' },
])('readTtl', ({ problem, text, reason }) => {
  it(`fails when ${problem}`, () => {
    const read = readTtl(text);
    expect(read.ok).toBe(false);
    expect((read as { reason: string }).reason).toContain(reason);
  });
});
