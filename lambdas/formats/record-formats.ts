import { csvRecordFormat } from './csv/csv-format.js';
import { dynamoIonFormat } from './ion/dynamo-ion-format.js';
import { dynamoJsonFormat } from './json/dynamo-json-format.js';
import { jsonLinesFormat } from './json/json-lines-format.js';
import type { RecordFormat } from './record-format.js';
import type { FormatType, ResolvedCsvFormat, ResolvedFormat } from '../contract/import-request.js';

/** Makes the reader and mapper of one format from the request's resolved format (CSV reads its dialect from it). */
export type RecordFormatFactory = (format: ResolvedFormat) => RecordFormat;

/**
 * The reader and mapper of each format of byte records (FORMAT_TRAITS layout `records`), by `format.type`: a new
 * text format is its own folder under formats/ plus one line here (and its traits in contract/format-traits.ts).
 * Parquet is read by row group (formats/parquet/, import/parquet-chunk-importer.ts), not as records of bytes.
 */
export const RECORD_FORMATS: Readonly<Partial<Record<FormatType, RecordFormatFactory>>> = {
  csv: (format) => csvRecordFormat({ ...(format as ResolvedCsvFormat), type: 'csv' }),
  jsonl: jsonLinesFormat,
  'dynamodb-json': dynamoJsonFormat,
  'dynamodb-ion': dynamoIonFormat,
};

/** A table of record formats: RECORD_FORMATS, or one a caller extends (a test's toy format). */
export type RecordFormatTable = Readonly<Record<string, RecordFormatFactory | undefined>>;

/**
 * The reader and mapper for a request's format. A format without `type` is CSV: workflow state written before
 * formats had types (a redriven execution) holds CSV requests only.
 */
export function createRecordFormat(format: ResolvedFormat, table: RecordFormatTable = RECORD_FORMATS): RecordFormat {
  const type = format.type ?? 'csv';
  const factory = table[type];
  if (!factory) throw new Error(`${type} objects are not read as records of bytes`);
  return factory(format);
}
