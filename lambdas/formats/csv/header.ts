import { isUtf8 } from 'node:buffer';
import { parse } from 'csv-parse/sync';
import { csvParseOptions, firstInvalidUtf8 } from './csv-records.js';
import { InvalidRequestError } from '../../contract/errors.js';
import { RecordScanner, bomLength, type ScannerDialect } from '../../source/record-scanner.js';
import type { ReadFrom } from '../../source/source-object.js';

/**
 * A header record longer than this is a quote never closed (or no header at all): 1 MiB holds some
 * 100,000 column names, far more than a 400 KB item can use. It bounds what preflight keeps in memory.
 */
export const MAX_HEADER_BYTES = 1024 * 1024;

export interface HeaderResult {
  /** The names in the header record, or null when the format has no header. */
  readonly header: string[] | null;
  /** Byte offset and line of the first data record (past the BOM and the header). */
  readonly dataStart: number;
  readonly dataLine: number;
}

/**
 * Reads the first record of the object, past a UTF-8 BOM, without reading more of the object than the
 * header needs. An empty object (or a BOM alone) has no header: the caller treats it as zero rows.
 * A header that is not valid UTF-8 or CSV, or has no end in MAX_HEADER_BYTES, fails with InvalidRequestError.
 */
export async function readHeader(
  read: ReadFrom,
  size: number,
  format: { delimiter: string; quote: string; header: boolean },
  dialect: ScannerDialect,
): Promise<HeaderResult> {
  if (size === 0) return { header: null, dataStart: 0, dataLine: 1 };
  const parts: Buffer[] = [];
  let bom = -1;
  let headerBytes = 0;
  let complete = false;
  const scanner = new RecordScanner(dialect);
  for await (let buf of read(0)) {
    if (bom === -1) {
      bom = bomLength(buf); // a first buffer under 3 bytes cannot hold a BOM worth stripping here
      buf = buf.subarray(bom);
    }
    if (!format.header) break;
    scanner.feed(buf);
    const end = scanner.next(1);
    parts.push(end === -1 ? buf : buf.subarray(0, end));
    headerBytes += end === -1 ? buf.length : end;
    if (end !== -1) {
      complete = true;
      break;
    }
    if (headerBytes > MAX_HEADER_BYTES) {
      const why = scanner.insideQuotes ? 'a quote it opens is not closed' : 'it has no line break';
      throw new InvalidRequestError([`header: ${why} in the first ${MAX_HEADER_BYTES} bytes of the object`]);
    }
  }
  // A BOM and nothing else is an empty object, as a 0-byte one is.
  if (bom === size) return { header: null, dataStart: size, dataLine: 1 };
  if (!format.header) return { header: null, dataStart: Math.max(bom, 0), dataLine: 1 };
  const header = parseHeader(Buffer.concat(parts), bom, format);
  return { header, dataStart: complete ? bom + headerBytes : size, dataLine: 1 + scanner.lines };
}

/** The header record's names; a header that is not valid UTF-8 or not valid CSV fails the request. */
function parseHeader(raw: Buffer, bom: number, format: { delimiter: string; quote: string }): string[] {
  if (!isUtf8(raw)) throw new InvalidRequestError([`header: invalid UTF-8 at byte ${bom + firstInvalidUtf8(raw)}`]);
  try {
    // The same reading rules as the rows', so a header and its rows can never be split differently.
    const records: string[][] = parse(raw, csvParseOptions(format));
    return records[0] ?? [];
  } catch (error) {
    throw new InvalidRequestError([`header: not a CSV record: ${(error as Error).message}`], { cause: error });
  }
}
