import { isUtf8 } from 'node:buffer';
import { firstInvalidUtf8 } from '../utf8.js';
import type { DataStart, MappedRecord, RawRecord } from '../record-format.js';
import { bomLength, type ScannerDialect } from '../../source/record-scanner.js';
import type { ReadFrom } from '../../source/source-object.js';

/**
 * Every LF ends a record: a JSON string cannot hold a raw line break (RFC 8259 makes control characters
 * inside strings escapes), so no quote state is needed. With `quote` undefined the scanner jumps from LF
 * to LF with indexOf; the delimiter is then never looked at.
 */
export const LINE_DIALECT: ScannerDialect = { delimiter: 0x0a, quote: undefined };

/**
 * JSON Lines have no header: the data starts at byte 0, or past a UTF-8 BOM. Reads only the first buffer.
 * An empty object (or a BOM alone) has no data: the caller treats it as zero rows.
 */
export async function readLinesStart(read: ReadFrom, size: number): Promise<DataStart> {
  if (size === 0) return { header: null, dataStart: 0, dataLine: 1 };
  for await (const buf of read(0)) return { header: null, dataStart: bomLength(buf), dataLine: 1 };
  return { header: null, dataStart: 0, dataLine: 1 };
}

/**
 * A record's text, or the reason it has none: invalid UTF-8 is rejected with the byte it starts at (in the
 * object), as CSV records are, rather than decoded into replacement characters.
 */
export function lineText(record: RawRecord): { text: string } | Extract<MappedRecord, { ok: false }> {
  if (!isUtf8(record.raw)) return { ok: false, reason: `invalid UTF-8 at byte ${record.offset + firstInvalidUtf8(record.raw)}` };
  return { text: record.raw.toString('utf8') };
}

/** What a parsed line holds, in words for a reject reason. */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
