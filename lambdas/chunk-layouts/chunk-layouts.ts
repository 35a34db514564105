import { SOURCE_FORMATS, type SourceFormatTable } from '../formats/record-formats.js';
import { importChunk } from './chunk-importer.js';
import type { ChunkLayoutEntry } from './chunk-layout.js';
import { importParquetChunk } from './parquet-chunk-importer.js';
import { RECORD_PLANNER } from './record-layout.js';
import { ROW_GROUP_PLANNER } from './row-group-layout.js';

/**
 * Every built-in chunk layout, by the name a format's traits give (FormatTraits.layout): `records`, byte records a
 * scanner dialect finds (every text format: one planner cuts byte ranges from the size, one importer reads them with
 * the format's reader and mapper); `row-groups`, whole Parquet row groups found from the footer. A new layout is its
 * own file (its traits, planner and importer) and one line here.
 * @example
 * chunkLayoutOf(FORMAT_TRAITS.parquet, CHUNK_LAYOUTS).traits.offsetsRepeat; // true
 */
export const CHUNK_LAYOUTS = {
  records: {
    traits: { byteRecords: true, lastRecordPastEnd: true, offsetsRepeat: false },
    planner: RECORD_PLANNER,
    importer: importChunk,
  },
  'row-groups': {
    traits: { byteRecords: false, lastRecordPastEnd: false, offsetsRepeat: true },
    planner: ROW_GROUP_PLANNER,
    importer: importParquetChunk,
  },
} as const satisfies Record<string, ChunkLayoutEntry>;

/** A built-in chunk layout's name. */
export type ChunkLayout = keyof typeof CHUNK_LAYOUTS;

/**
 * A table of chunk layouts by name: CHUNK_LAYOUTS, or one a caller extends (a test's toy layout). It travels on the
 * wiring (`Wiring.chunkLayouts`): Preflight plans by it, ImportChunk reads by it.
 */
export type ChunkLayoutTable = Readonly<Record<string, ChunkLayoutEntry | undefined>>;

/** The tables a chunk's format and its layout are looked up in: the wiring's, or the built-in ones. */
export interface ChunkTables {
  readonly formats: SourceFormatTable;
  readonly layouts: ChunkLayoutTable;
}

/** The built-in formats and layouts. */
export const BUILT_IN_TABLES: ChunkTables = { formats: SOURCE_FORMATS, layouts: CHUNK_LAYOUTS };
