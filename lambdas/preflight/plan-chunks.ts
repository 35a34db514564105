import type { PlanningStep } from './begin-planning.js';
import { planObjects, type PlanIo } from './object-planner.js';
import type { PlanningState } from '../contract/workflow-payloads.js';

/** What planning reads besides the state: the deadline and the import function's memory. */
export interface PlanChunksOptions {
  /** Asked after each piece and object: true when the invocation should return a checkpoint now. */
  readonly shouldStop: () => boolean;
  /** The import function's memory in MB: a Parquet row group too big for it fails. */
  readonly importMemoryMb: number;
}

/**
 * Plans the objects into chunks from the state's checkpoint until they end or the invocation must stop, and adds
 * the chunks to the state: `scanComplete` once every object is planned.
 */
export async function planChunks(step: PlanningStep, io: PlanIo, options: PlanChunksOptions): Promise<PlanningState> {
  const { state } = step;
  const result = await planObjects({
    request: state.request,
    planning: step.planning,
    planner: step.planner,
    from: state.checkpoint,
    earlier: state.chunks,
    starts: step.starts,
    io,
    shouldStop: options.shouldStop,
    importMemoryMb: options.importMemoryMb,
  });
  // Bytes of data records: the sum of the chunk lengths (the objects less their BOMs and headers).
  const dataBytes = result.chunks.reduce((sum, chunk) => sum + (chunk.end - chunk.start), state.dataBytes);
  return {
    ...state,
    chunks: [...state.chunks, ...result.chunks],
    dataBytes,
    checkpoint: result.checkpoint,
    scanComplete: result.complete,
  };
}
