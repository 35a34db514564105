import { isUtf8 } from 'node:buffer';
import { keyMismatch } from './item-keys.js';
import { isBlankRecord } from '../csv/csv-records.js';
import { firstInvalidUtf8 } from '../utf8.js';
import type { DataStart, MappedRecord, RawRecord } from '../record-format.js';
import { InvalidRequestError } from '../../contract/errors.js';
import type { KeyAttribute } from '../../contract/workflow-payloads.js';
import { bomLength, type ScannerDialect } from '../../source/record-scanner.js';
import type { ReadFrom } from '../../source/source-object.js';
import type { Item } from '../../write/item-sink.js';

/**
 * Every LF ends a record: a JSON string cannot hold a raw line break (RFC 8259 makes control characters
 * inside strings escapes), so no quote state is needed. With `quote` undefined the scanner jumps from LF
 * to LF with indexOf; the delimiter is then never looked at.
 */
export const LINE_DIALECT: ScannerDialect = { delimiter: 0x0a, quote: undefined };

export type Rejected = Extract<MappedRecord, { ok: false }>;
/** A line's item before the key and size checks, or why the line has none. */
export type LineItem = { readonly item: Item } | Rejected;

/** The first line is read this far at most to check its key: a 400 KB item's line, base64 and all, fits. */
const PROBE_BYTES = 4 * 1024 * 1024;

/**
 * JSON Lines have no header: the data starts at byte 0, or past a UTF-8 BOM. The first non-blank line is
 * read as an item, and when it lacks a key attribute or holds it with another type the request fails
 * before any write, as a CSV header without the key column does: a file written for another table would
 * otherwise be rejected line by line. A first line that is bad in any other way is left to the import.
 */
export async function readLinesStart(
  read: ReadFrom,
  size: number,
  keys: readonly KeyAttribute[],
  lineItem: (record: RawRecord) => LineItem,
): Promise<DataStart> {
  if (size === 0) return { header: null, dataStart: 0, dataLine: 1 };
  const { bom, record } = await firstDataLine(read);
  const first = record && lineItem(record);
  const mismatch = first && 'item' in first ? keyMismatch(first.item, keys) : undefined;
  if (mismatch) {
    throw new InvalidRequestError([
      `line ${record!.line}: ${mismatch}; every record needs the table's key (is this the table the file was written for?)`,
    ]);
  }
  return {
    header: null,
    dataStart: bom,
    dataLine: 1,
    ...(first && 'item' in first ? { fields: Object.keys(first.item) } : {}),
  };
}

/** The BOM's length and the first non-blank line (null when there is none within PROBE_BYTES). */
async function firstDataLine(read: ReadFrom): Promise<{ bom: number; record: RawRecord | null }> {
  let bom = -1;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let offset = 0;
  let line = 1;
  for await (let buf of read(0)) {
    if (bom === -1) {
      bom = bomLength(buf);
      buf = buf.subarray(bom);
      offset = bom;
    }
    let from = 0;
    for (let lf = buf.indexOf(0x0a); lf !== -1; lf = buf.indexOf(0x0a, from)) {
      const raw = Buffer.concat([...pending, buf.subarray(from, lf + 1)]);
      if (!isBlankRecord(raw)) return { bom, record: { raw, offset, line } };
      [pending, pendingBytes, offset, line, from] = [[], 0, offset + raw.length, line + 1, lf + 1];
    }
    pending.push(buf.subarray(from));
    pendingBytes += buf.length - from;
    if (pendingBytes > PROBE_BYTES) return { bom, record: null };
  }
  const raw = Buffer.concat(pending); // the last line may lack its LF
  return { bom: Math.max(bom, 0), record: raw.length > 0 && !isBlankRecord(raw) ? { raw, offset, line } : null };
}

/**
 * A record's text, or the reason it has none: invalid UTF-8 is rejected with the byte it starts at (in the
 * object), as CSV records are, rather than decoded into replacement characters.
 */
export function lineText(record: RawRecord): { text: string } | Rejected {
  if (!isUtf8(record.raw))
    return { ok: false, reason: `invalid UTF-8 at byte ${record.offset + firstInvalidUtf8(record.raw)}` };
  return { text: record.raw.toString('utf8') };
}

/** What a parsed line holds, in words for a reject reason. */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
