import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import type { ExpectedReject } from './corpus.js';

/** One row of a rejects file; the record stays bytes, so invalid UTF-8 compares byte for byte. */
export interface RejectRow {
  readonly line: number;
  readonly byteOffset: number;
  readonly reason: string;
  readonly record: Buffer;
}

const HEADER = ['line', 'byte_offset', 'reason', 'record', 'object'];

/** Parses rejects files (`line,byte_offset,reason,record,object`) with csv-parse into rows sorted by offset. */
export function parseRejectsFiles(files: readonly Buffer[]): RejectRow[] {
  const rows: RejectRow[] = [];
  for (const file of files) {
    // encoding null: csv-parse returns fields as Buffers (its types only know strings).
    const [header, ...records] = parse(file, { encoding: null }) as unknown as Buffer[][];
    expect(header.map(String)).toEqual(HEADER);
    for (const [line, byteOffset, reason, record] of records) {
      rows.push({ line: Number(String(line)), byteOffset: Number(String(byteOffset)), reason: String(reason), record });
    }
  }
  return rows.sort((a, b) => a.byteOffset - b.byteOffset);
}

/** Byte offset where each physical line starts: line n starts at starts[n - 1]. */
function lineStarts(body: Buffer): number[] {
  const starts = [0];
  for (let lf = body.indexOf(0x0a); lf !== -1; lf = body.indexOf(0x0a, lf + 1)) starts.push(lf + 1);
  return starts;
}

/** The record as the rejects file must hold it: its bytes without the line ending, or its byte range. */
function expectedRecord(body: Buffer, start: number, end: number, copied: boolean): Buffer {
  if (!copied) return Buffer.from(`(not copied: ${end - start} bytes at ${start}-${end - 1} of the source object)`);
  let stop = end;
  if (stop > start && body[stop - 1] === 0x0a) stop--;
  if (stop > start && body[stop - 1] === 0x0d) stop--;
  return body.subarray(start, stop);
}

/**
 * Checks the rejects rows against the expectation: one row per expected reject, each with its line, the
 * byte offset where that line starts in the object, a reason holding the fragment, and the record's bytes.
 */
export function expectRejects(body: Buffer, actual: readonly RejectRow[], expected: readonly ExpectedReject[]): void {
  const starts = lineStarts(body);
  expect(actual.map((r) => r.line)).toEqual(expected.map((r) => r.line));
  expected.forEach((reject, i) => {
    const start = starts[reject.line - 1];
    const end = reject.lines === 'eof' ? body.length : (starts[reject.line - 1 + (reject.lines ?? 1)] ?? body.length);
    const row = actual[i];
    expect(row.byteOffset, `byte offset of line ${reject.line}`).toBe(start);
    expect(row.reason, `reason of line ${reject.line}`).toContain(reject.reason);
    const record = expectedRecord(body, start, end, reject.copied ?? true);
    const show = (b: Buffer) => `${b.length} bytes: ${JSON.stringify(b.subarray(0, 80).toString('latin1'))}`;
    const message = `record of line ${reject.line}: got ${show(row.record)}, expected ${show(record)}`;
    expect(row.record.equals(record), message).toBe(true);
  });
}
