import { describe, expect, it } from 'vitest';
import { recordStartAtOrAfter, type ReadRange } from '../../../lambdas/source/record-start.js';
import {
  RecordScanner,
  bomLength,
  scannerDialect,
  type ScannerDialect,
} from '../../../lambdas/source/record-scanner.js';
import { generateQuotedCsv } from '../../fixtures/quoted-csv.js';

const CSV = scannerDialect({ delimiter: ',', quote: '"' });
const TSV_NO_QUOTES = scannerDialect({ delimiter: '\t', quote: '' });

/** Reads [start, end) of `data` in pieces of up to 7 bytes, so every look-back and walk crosses buffers. */
function memoryRead(data: Buffer): ReadRange {
  return async function* (start, end) {
    for (let at = start; at < end; at += 7) yield data.subarray(at, Math.min(end, at + 7));
  };
}

/** The serial truth: every record start from `dataStart` on, as one RecordScanner over the whole input finds. */
function serialStarts(data: Buffer, dialect: ScannerDialect, dataStart: number): number[] {
  const scanner = new RecordScanner(dialect);
  scanner.feed(data.subarray(dataStart));
  const starts = [dataStart];
  for (let end = scanner.next(); end !== -1; end = scanner.next()) starts.push(dataStart + end);
  if (starts.at(-1) === data.length) starts.pop();
  return starts;
}

/**
 * Cuts [dataStart, size) into ranges of `rangeBytes` (every cut offset from `phase`), finds each lane's first
 * record as a lane does, and returns the record starts the lanes own, in lane order: lane k owns the serial
 * records starting in [its own start, the next lane's own start).
 */
async function laneStarts(
  data: Buffer,
  dialect: ScannerDialect,
  dataStart: number,
  cuts: number[],
  window: number,
  cap?: number,
) {
  const owned: number[] = [];
  const serial = serialStarts(data, dialect, dataStart);
  const edges = [dataStart, ...cuts.filter((c) => c > dataStart && c < data.length), data.length];
  const starts = [dataStart];
  for (const cut of edges.slice(1, -1))
    starts.push(await recordStartAtOrAfter(dialect, memoryRead(data), cut, data.length, window, cap));
  starts.push(data.length);
  for (let lane = 0; lane + 1 < starts.length; lane++) {
    // The lane's start must be one of the serial starts (or the end): a lane never starts mid-record.
    expect([...serial, data.length]).toContain(starts[lane]);
    expect(starts[lane]).toBeGreaterThanOrEqual(edges[lane]);
    owned.push(...serial.filter((s) => s >= starts[lane] && s < starts[lane + 1]));
  }
  return { owned, serial };
}

/** Every single cut position, and pairs of cuts `gap` apart, checked against the serial scan. */
async function checkEveryCut(data: Buffer, dialect: ScannerDialect, window: number, gap: number, cap?: number) {
  const dataStart = serialStarts(data, dialect, bomLength(data))[1] ?? data.length; // past the header record
  for (let cut = dataStart + 1; cut < data.length; cut++) {
    const { owned, serial } = await laneStarts(data, dialect, dataStart, [cut, cut + gap], window, cap);
    expect(owned, `cut at ${cut}`).toEqual(serial);
  }
}

const quoteDense = Buffer.from(generateQuotedCsv(12, 5).text);
const quoteFree = Buffer.from('id,n,text\n' + Array.from({ length: 40 }, (_, i) => `r${i},${i},plain ${i}\n`).join(''));
const tsv = Buffer.from('id\tn\n' + Array.from({ length: 40 }, (_, i) => `r${i}\t"${i}\n`).join('') + 'last\t1');
// A quoted field far longer than any range and the look-back window, holding LFs, delimiters and `""`.
const hugeField = Buffer.from(`id,text\r\na,"${'x,\n""y\r\n'.repeat(60)}"\r\nb,short\r\nc,"q\n"\r\n`);
// Stray quotes mid-field (literal under relax_quotes), a quote closing then junk, CRLF everywhere, no final LF.
const stray = Buffer.from('id,t\r\na,b"c\r\n"d""e",x"y\r\n"f"g,"h\r\ni"\r\nj,k');

describe('recordStartAtOrAfter: the lanes own every serial record exactly once, in order, at every cut', () => {
  // Quote-dense: quoted newlines, CRLF inside quotes, `""`, a BOM and a header; a 16-byte first window doubles.
  it('quote-dense CSV, 16-byte first look-back', () => checkEveryCut(quoteDense, CSV, 16, 97));
  // The production window: all of this small input is one look-back.
  it('quote-dense CSV, 64 KiB first look-back', () => checkEveryCut(quoteDense, CSV, 64 * 1024, 211));
  // No quote at all under a quoting dialect: the in-quotes runs never die, so the look-back reaches the start.
  it('quote-free CSV under a quoting dialect', () => checkEveryCut(quoteFree, CSV, 8, 33));
  // The same with the look-back capped at 16 bytes: no quote settles it, so the lane takes the run from a record
  // start, which is right: only a record longer than the cap holding a quote could make it wrong (that fails).
  it('quote-free CSV under a quoting dialect, look-back capped', () => checkEveryCut(quoteFree, CSV, 4, 33, 16));
  // Quoting off: the first LF at or after start - 1; a quote is an ordinary byte.
  it('TSV with quoting off, no final newline', () => checkEveryCut(tsv, TSV_NO_QUOTES, 8, 29));
  // A range starting inside a quoted field, a range holding only part of it, a field longer than a range.
  it('a quoted field longer than the ranges and the window', () => checkEveryCut(hugeField, CSV, 4, 50));
  // Literal quotes in unquoted fields and junk after a closing quote, CRLF split between ranges.
  it('stray quotes and CRLF at every split', () => checkEveryCut(stray, CSV, 2, 5));

  it('returns the size when no record starts at or after the offset', async () => {
    const data = Buffer.from('a,b\n"open\nnever closed');
    expect(await recordStartAtOrAfter(CSV, memoryRead(data), 6, data.length, 2)).toBe(data.length);
  });

  it('returns the offset itself when a record starts right there', async () => {
    const data = Buffer.from('a,b\nc,d\n');
    expect(await recordStartAtOrAfter(CSV, memoryRead(data), 4, data.length)).toBe(4);
  });
});
