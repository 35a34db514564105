import type { ImportChunkParams, ImportChunkResult } from './chunk-importer.js';
import type { LayoutPlanner } from './layout-planner.js';

/** What a chunk layout means for reading its chunks, as ImportChunk's plan and the CLI's sample read it. */
export interface LayoutTraits {
  /** Its records are byte records a scanner dialect finds: a byte sample of an object holds whole records. */
  readonly byteRecords: boolean;
  /** A chunk's last record may end past the chunk's end (a byte range's); else records lie whole inside it. */
  readonly lastRecordPastEnd: boolean;
  /** Checkpoints inside a chunk may share an offset (a row group's), so the line tells them apart. */
  readonly offsetsRepeat: boolean;
}

/** Imports one invocation's share of a chunk. */
export type ChunkImporter = (params: ImportChunkParams) => Promise<ImportChunkResult>;

/**
 * One chunk layout, everything it knows: how its chunks read (traits), how Preflight cuts an object into them
 * (planner) and how ImportChunk reads one (importer). A format names its layout (FormatTraits.layout).
 * @example
 * const fixedWidth: ChunkLayoutEntry = { traits, planner: FIXED_WIDTH_PLANNER, importer: importFixedWidthChunk };
 */
export interface ChunkLayoutEntry {
  readonly traits: LayoutTraits;
  readonly planner: LayoutPlanner;
  readonly importer: ChunkImporter;
}
