import type { ColumnType } from '../contract/import-request.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import type { ScannerDialect } from '../source/record-scanner.js';
import type { ReadFrom } from '../source/source-object.js';
import type { Item } from '../write/item-sink.js';

/** One record's bytes as found by the RecordScanner, with where it sits in the object. */
export interface RawRecord {
  readonly raw: Buffer;
  /** Byte offset of the record in the object. */
  readonly offset: number;
  /** 1-based physical line where the record starts. */
  readonly line: number;
}

/**
 * What one record became: an item with its key as canonical text (a key repeated inside one batch keeps
 * the last item, and the text tells repeats apart), or the reason it was rejected.
 */
export type MappedRecord =
  { readonly ok: true; readonly item: Item; readonly key: string } | { readonly ok: false; readonly reason: string };

/** Maps a block of whole records, in file order, to one result per record at the same index. */
export type BlockMapper = (records: readonly RawRecord[]) => MappedRecord[];

/** Where the data records start, past a UTF-8 BOM and a header record. */
export interface DataStart {
  /** The names in the header record; null when there is none (no header, or not a format with one). */
  readonly header: string[] | null;
  /** Byte offset and 1-based line of the first data record. */
  readonly dataStart: number;
  readonly dataLine: number;
  /**
   * The top-level attribute names of the first record, for formats whose records name their attributes (JSON):
   * what `attributes` templates and `exclude` are checked against before any write. @default - not read
   */
  readonly fields?: readonly string[];
}

/** What a mapper needs to know besides the records: preflight finds it once, every chunk import reuses it. */
export interface RecordSchema {
  /** The columns records are read with (CSV); empty for formats whose records name their attributes. */
  readonly columns: readonly string[];
  readonly types: Readonly<Record<string, ColumnType>>;
  /** The table's key attributes: every item must hold them, typed as the table says. */
  readonly keys: readonly KeyAttribute[];
  /** The request's computed attributes (name to template): see formats/computed-attributes.ts. @default - none */
  readonly attributes?: Readonly<Record<string, string>>;
  /** Columns (attributes of the record) not stored. @default - none */
  readonly exclude?: readonly string[];
}

/**
 * One source format: how record boundaries are found, where the data starts, and how records become
 * items. Preflight uses `dialect` and `readStart`; each chunk import uses `dialect` and `createMapper`.
 */
export interface RecordFormat {
  /** How the RecordScanner finds record ends: CSV honours quotes; line formats end every record at LF. */
  readonly dialect: ScannerDialect;
  /**
   * Reads the start of the object (BOM, header) without reading more of it than that needs, and fails with
   * InvalidRequestError when it shows the object cannot be meant for a table with these `keys` (JSON formats
   * check the first record; CSV's header is checked against them by preflight's columns step).
   */
  readStart(read: ReadFrom, size: number, keys: readonly KeyAttribute[]): Promise<DataStart>;
  createMapper(schema: RecordSchema): BlockMapper;
}
