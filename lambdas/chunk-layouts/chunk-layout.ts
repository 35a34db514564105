import type { ImportChunkParams, ImportChunkResult } from './chunk-importer.js';
import type { LayoutPlanner } from './layout-planner.js';
import type { LayoutTraits } from '../contract/format-traits.js';

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
