import type { ChunkLayout } from '../contract/format-traits.js';
import { importChunk, type ImportChunkParams, type ImportChunkResult } from '../chunk-layouts/chunk-importer.js';
import { importParquetChunk } from '../chunk-layouts/parquet-chunk-importer.js';

/** Imports one invocation's share of a chunk. */
export type ChunkImporter = (params: ImportChunkParams) => Promise<ImportChunkResult>;

/**
 * The importer of each chunk layout (contract/format-traits.ts): every format of byte records shares one (its
 * reader and mapper come from formats/record-formats.ts), Parquet's row groups have their own.
 */
export const CHUNK_IMPORTERS: Readonly<Record<ChunkLayout, ChunkImporter>> = {
  records: importChunk,
  'row-groups': importParquetChunk,
};
