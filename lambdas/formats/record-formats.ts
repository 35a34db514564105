import { csvRecordFormat } from './csv/csv-format.js';
import { dynamoIonFormat } from './ion/dynamo-ion-format.js';
import { dynamoJsonFormat } from './json/dynamo-json-format.js';
import { jsonLinesFormat } from './json/json-lines-format.js';
import type { RecordFormat } from './record-format.js';
import { FORMAT_TRAITS, type FormatTraits, type FormatTraitsTable } from '../contract/format-traits.js';
import type { FormatType, ResolvedCsvFormat, ResolvedFormat } from '../contract/import-request.js';

/** Makes the reader and mapper of one format from the request's resolved format (CSV reads its dialect from it). */
export type RecordFormatFactory = (format: ResolvedFormat) => RecordFormat;

/**
 * One source format as the pipeline reads it: what it is (its traits: the chunk layout they name cuts and reads its
 * chunks) and, for a format of byte records, their reader and mapper, which the one line-oriented planner and
 * importer use.
 */
export interface SourceFormat {
  readonly traits: FormatTraits;
  /** The reader and mapper of its records (layout `records`). @default - none: a layout with its own reader */
  readonly records?: RecordFormatFactory;
}

/**
 * A table of source formats by `format.type`: SOURCE_FORMATS, or one a caller extends (a test's toy format). It
 * travels on the wiring (`Wiring.sourceFormats`): preflight checks requests and plans by it, ImportChunk reads by it.
 */
export type SourceFormatTable = Readonly<Record<string, SourceFormat | undefined>>;

/**
 * Every source format, by `format.type`: a new text format is its own folder under formats/ plus one line here (and
 * its traits in contract/format-traits.ts, which the CLI's and the construct's checks of a request read).
 */
export const SOURCE_FORMATS: Readonly<Record<FormatType, SourceFormat>> = {
  csv: {
    traits: FORMAT_TRAITS.csv,
    records: (format) => csvRecordFormat({ ...(format as ResolvedCsvFormat), type: 'csv' }),
  },
  jsonl: { traits: FORMAT_TRAITS.jsonl, records: jsonLinesFormat },
  'dynamodb-json': { traits: FORMAT_TRAITS['dynamodb-json'], records: dynamoJsonFormat },
  'dynamodb-ion': { traits: FORMAT_TRAITS['dynamodb-ion'], records: dynamoIonFormat },
  // Read by row group from the footer: formats/parquet/, preflight/parquet-chunks.ts, import/parquet-chunk-importer.ts.
  parquet: { traits: FORMAT_TRAITS.parquet },
};

/** The traits of each format of a table, by `format.type`: what the request's checks (request/) read. */
export function traitsOf(table: SourceFormatTable): FormatTraitsTable {
  const traits: Record<string, FormatTraits> = {};
  for (const [type, entry] of Object.entries(table)) if (entry) traits[type] = entry.traits;
  return traits;
}

/** The entry of a resolved request's format (every resolved format names its type). */
export function sourceFormatOf(
  format: { readonly type: string },
  table: SourceFormatTable = SOURCE_FORMATS,
): SourceFormat {
  const { type } = format;
  const entry = Object.hasOwn(table, type) ? table[type] : undefined;
  if (!entry) throw new Error(`format.type ${type} has no entry in the table of source formats`);
  return entry;
}

/** The reader and mapper of a request's format of byte records. */
export function createRecordFormat(format: ResolvedFormat, table: SourceFormatTable = SOURCE_FORMATS): RecordFormat {
  const { records } = sourceFormatOf(format, table);
  if (!records) throw new Error(`${format.type} objects are read by ${sourceFormatOf(format, table).traits.layout}`);
  return records(format);
}
