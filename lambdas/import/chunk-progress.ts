import type { Checkpoint, ChunkProgress, ImportCounts } from '../contract/workflow-payloads.js';
import type { LambdaConfig } from '../environment/config.js';
import { nextPausedWait } from './chunk-live-settings.js';

const NO_COUNTS: ImportCounts = { rows: 0, written: 0, rejected: 0, skipped: 0, deleted: 0, writeUnits: 0 };

/**
 * Counts of the chunk so far: the earlier invocations' (from the checkpoint loop; none on the first) plus this one's.
 */
export function addCounts(progress: ChunkProgress | undefined, counts: ImportCounts): ImportCounts {
  const sum = (field: keyof ImportCounts) => (progress ? progress[field] : 0) + counts[field];
  return {
    rows: sum('rows'),
    written: sum('written'),
    rejected: sum('rejected'),
    skipped: sum('skipped'),
    deleted: sum('deleted'),
    writeUnits: sum('writeUnits'),
  };
}

/** A paused import's chunk returns at once: its checkpoint held, nothing written, asking again after a wait. */
export function pausedProgress(
  progress: ChunkProgress | undefined,
  from: Checkpoint,
  config: LambdaConfig,
): ChunkProgress {
  const waitSeconds = nextPausedWait(progress?.pausedWaitSeconds, config.pausedFirstWaitSeconds);
  const lines = progress?.lines === undefined ? {} : { lines: progress.lines };
  return { next: from, ...addCounts(progress, NO_COUNTS), ...lines, pausedWaitSeconds: waitSeconds };
}
