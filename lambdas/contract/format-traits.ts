import { InvalidRequestError } from './errors.js';
import type { FormatType } from './import-request.js';

/** What a format is, as every layer may read it: the request's checks, the planners, the importers. */
export interface FormatTraits {
  /** The format's name in messages. */
  readonly title: string;
  /**
   * The name of its chunk layout in the wiring's table (chunk-layouts/chunk-layouts.ts CHUNK_LAYOUTS): how its objects
   * are cut into chunks and read. A name, not the entry: the layouts' planners and importers sit layers above.
   */
  readonly layout: string;
  /**
   * Its records carry their own types: the request's `types` may only type computed `attributes` or give `TTL`
   * (and `S` where `textColumns`).
   */
  readonly typedRecords: boolean;
  /** `types` may also turn a typed scalar column into `S`, its value as text (Parquet's schema types). */
  readonly textColumns: boolean;
  /** Its codecs work inside the file, page by page: the object is never compressed whole (no `compression`). */
  readonly compressedInside: boolean;
  /**
   * Its records are rows of a header's columns (CSV): `format` takes the CSV dialect's fields, and the columns
   * (header or `format.columns`) name the attributes. Other formats' records name their own.
   */
  readonly headerColumns: boolean;
}

const TEXT_RECORDS = {
  layout: 'records',
  typedRecords: true,
  textColumns: false,
  compressedInside: false,
  headerColumns: false,
} as const;

/**
 * The traits of every built-in format: data only, at the bottom of the layers, so request/ checks a request by them
 * (the CLI's and the construct's checks; preflight passes the traits of its wiring's table). The readers of the
 * formats are registered in formats/record-formats.ts SOURCE_FORMATS, each layout's traits, planner and importer in
 * chunk-layouts/chunk-layouts.ts CHUNK_LAYOUTS.
 */
export const FORMAT_TRAITS: Readonly<Record<FormatType, FormatTraits>> = {
  csv: { ...TEXT_RECORDS, title: 'CSV', typedRecords: false, headerColumns: true },
  jsonl: { ...TEXT_RECORDS, title: 'JSON Lines' },
  'dynamodb-json': { ...TEXT_RECORDS, title: 'DynamoDB JSON' },
  'dynamodb-ion': { ...TEXT_RECORDS, title: 'DynamoDB Ion' },
  parquet: {
    title: 'Parquet',
    layout: 'row-groups',
    typedRecords: true,
    textColumns: true,
    compressedInside: true,
    headerColumns: false,
  },
};

/**
 * The traits of each format a request's `format.type` may name: FORMAT_TRAITS, or the traits of the wiring's table
 * of source formats (formats/record-formats.ts `traitsOf`), which preflight passes to the request's checks.
 */
export type FormatTraitsTable = Readonly<Record<string, FormatTraits>>;

/** The traits of a resolved request's built-in format (the CLI's sampling); the handlers read the wiring's table. */
export function formatTraits(format: { readonly type: FormatType }): FormatTraits {
  return FORMAT_TRAITS[format.type];
}

/**
 * Whether a resolved request's records are rows of a header's columns (FormatTraits.headerColumns): false for a
 * format outside FORMAT_TRAITS (a test's own), whose records name their own attributes.
 */
export function hasHeaderColumns(format: { readonly type: string }): boolean {
  return (FORMAT_TRAITS as Partial<FormatTraitsTable>)[format.type]?.headerColumns ?? false;
}

/** What a chunk layout means for reading its chunks, as ImportChunk's plan and the CLI's sample read it. */
export interface LayoutTraits {
  /** Its records are byte records a scanner dialect finds: a byte sample of an object holds whole records. */
  readonly byteRecords: boolean;
  /** A chunk's last record may end past the chunk's end (a byte range's); else records lie whole inside it. */
  readonly lastRecordPastEnd: boolean;
  /** Checkpoints inside a chunk may share an offset (a row group's), so the line tells them apart. */
  readonly offsetsRepeat: boolean;
}

/**
 * The layout a format's traits name, from a table of layouts (chunk-layouts/chunk-layouts.ts CHUNK_LAYOUTS, or the
 * wiring's): generic over the entry, so the plans that read only its traits need not know its planner or importer. A format whose layout the table lacks (a wiring given the format but not its
 * layout) fails as the request it is: before any write, in one line naming the format and the layouts there are.
 * @example
 * const { planner } = chunkLayoutOf(FORMAT_TRAITS.csv, CHUNK_LAYOUTS); // RECORD_PLANNER
 */
export function chunkLayoutOf<Entry>(
  format: Pick<FormatTraits, 'title' | 'layout'>,
  table: Readonly<Record<string, Entry | undefined>>,
): Entry {
  const entry = Object.hasOwn(table, format.layout) ? table[format.layout] : undefined;
  if (entry) return entry;
  const known = Object.keys(table).join(', ');
  throw new InvalidRequestError([
    `format.type: ${format.title} objects are cut by chunk layout "${format.layout}", which is not one of ${known}`,
  ]);
}
