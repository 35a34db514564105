import {
  CHUNK_RESULT_FIELDS,
  type ChunkResult,
  type ChunkResultArray,
} from '../../lambdas/contract/workflow-payloads.js';

/**
 * A chunk's counts as the Map returns them (the ChunkImported state's array, in CHUNK_RESULT_FIELDS order, its
 * `lines` appended when it has some), for tests that build a Summarize event from named counts.
 * @example
 * chunkResultArray({ chunk: 2, rows: 30, written: 29, rejected: 1, skipped: 0, deleted: 0, writeUnits: 0, added: 0, changed: 0, unchanged: 0 });
 * // [2, 30, 29, 1, 0, 0, 0, 0, 0, 0]
 */
export function chunkResultArray(result: ChunkResult): ChunkResultArray {
  const counts = CHUNK_RESULT_FIELDS.map((field) => result[field]);
  return result.lines === undefined ? counts : [...counts, result.lines];
}
