import { parse } from 'csv-parse/sync';
import { RecordScanner, bomLength, type ScannerDialect } from './record-scanner.js';
import type { ReadFrom } from './chunk-planner.js';

export interface HeaderResult {
  /** The names in the header record, or null when the format has no header. */
  readonly header: string[] | null;
  /** Byte offset and line of the first data record (past the BOM and the header). */
  readonly dataStart: number;
  readonly dataLine: number;
}

/**
 * Reads the first record of the object, past a UTF-8 BOM, without reading more of the object than the
 * header needs. An empty object has no header: the caller treats it as zero rows.
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
  let headerEnd = -1;
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
    if (end !== -1) {
      headerEnd = bom + Buffer.concat(parts).length;
      break;
    }
  }
  if (!format.header) return { header: null, dataStart: Math.max(bom, 0), dataLine: 1 };
  const raw = Buffer.concat(parts);
  const records: string[][] = parse(raw, {
    delimiter: format.delimiter,
    quote: format.quote === '' ? false : format.quote,
    record_delimiter: ['\r\n', '\n'],
    relax_quotes: true,
    relax_column_count: true,
  });
  return { header: records[0] ?? [], dataStart: headerEnd === -1 ? size : headerEnd, dataLine: 1 + scanner.lines };
}
