import { isUtf8 } from 'node:buffer';
import { parse, type Options } from 'csv-parse/sync';
import type { RawRecord } from '../record-format.js';
import { firstInvalidUtf8 } from '../utf8.js';

export type { RawRecord } from '../record-format.js';
export { firstInvalidUtf8 } from '../utf8.js';

export type ParsedRecord =
  { readonly record: RawRecord; readonly fields: string[] } | { readonly record: RawRecord; readonly error: string };

/** csv-parse options for one dialect; record boundaries were already found by the scanner. */
export function csvParseOptions(format: { delimiter: string; quote: string }): Options {
  return {
    delimiter: format.delimiter,
    quote: format.quote === '' ? false : format.quote,
    record_delimiter: ['\r\n', '\n'],
    relax_quotes: true, // a quote inside an unquoted field is a literal character, as the scanner reads it
    relax_column_count: true, // the row mapper rejects a wrong count with the numbers in the reason
    skip_empty_lines: false,
    bom: false,
  };
}

/**
 * Parses a block of whole records with one csv-parse call (the fast path). When the block holds invalid
 * UTF-8 or a record csv-parse cannot read, it parses record by record so that only the bad records are
 * rejected and every good one is kept.
 */
export function parseRecords(records: readonly RawRecord[], options: Options): ParsedRecord[] {
  if (records.length === 0) return [];
  const block = records.length === 1 ? records[0].raw : Buffer.concat(records.map((r) => r.raw));
  if (isUtf8(block)) {
    const split = splitPlainBlock(block, records.length, options);
    if (split) return records.map((record, i) => ({ record, fields: split[i] }));
    try {
      const rows = parse(block, options) as string[][];
      if (rows.length === records.length) return records.map((record, i) => ({ record, fields: rows[i] }));
    } catch {
      // fall through: find the bad records one by one
    }
  }
  return records.map((record) => parseOne(record, options));
}

/**
 * Fields of a block with no quote character and no CR, which csv-parse would read as the text between
 * delimiters, one record per line: split directly, without csv-parse's per-character state machine
 * (~6% of the import's CPU on a TSV file, and most TSV and many CSV files have no quotes). Undefined
 * when the block needs csv-parse; csv-records.test.ts checks both read random blocks alike.
 */
function splitPlainBlock(block: Buffer, count: number, options: Options): string[][] | undefined {
  const { delimiter, quote = '"' } = options; // as csvParseOptions makes them: quote a string, or false for none
  if (typeof delimiter !== 'string' || delimiter === '' || block.includes(0x0d)) return undefined;
  if (quote !== false && quote !== null && (typeof quote !== 'string' || block.includes(quote))) return undefined;
  const lines = block.toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop(); // the last record's line ending; an object's last may lack one
  if (lines.length !== count) return undefined;
  return lines.map((line) => line.split(delimiter));
}

function parseOne(record: RawRecord, options: Options): ParsedRecord {
  if (!isUtf8(record.raw))
    return { record, error: `invalid UTF-8 at byte ${record.offset + firstInvalidUtf8(record.raw)}` };
  try {
    const rows = parse(record.raw, options) as string[][];
    if (rows.length === 1) return { record, fields: rows[0] };
    return { record, error: `malformed record: it reads as ${rows.length} records` };
  } catch (error) {
    return { record, error: `malformed record: ${cleanParseMessage((error as Error).message)}` };
  }
}

/** csv-parse counts lines within the record it was given; the reject already names the real line. */
function cleanParseMessage(message: string): string {
  return message.replace(/ (at|on) line \d+/g, '');
}

/** A record holding nothing but its line ending (a blank line) is skipped, not counted as a row. */
export function isBlankRecord(raw: Buffer): boolean {
  return (
    raw.length === 0 ||
    (raw.length === 1 && raw[0] === 0x0a) ||
    (raw.length === 2 && raw[0] === 0x0d && raw[1] === 0x0a)
  );
}
