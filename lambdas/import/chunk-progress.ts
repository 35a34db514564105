import {
  addImportCounts,
  NO_IMPORT_COUNTS,
  type Checkpoint,
  type ChunkProgress,
  type ImportCounts,
} from '../contract/workflow-payloads.js';
import type { ResolvedLambdaConfig } from '../environment/config.js';
import { nextPausedWait } from '../admission/live-settings-follower.js';

/**
 * Counts of the chunk so far: the earlier invocations' (from the checkpoint loop; none on the first) plus this one's.
 */
export function addCounts(progress: ChunkProgress | undefined, counts: ImportCounts): ImportCounts {
  return addImportCounts(progress, counts);
}

/** A paused import's chunk returns at once: its checkpoint held, nothing written, asking again after a wait. */
export function pausedProgress(
  progress: ChunkProgress | undefined,
  from: Checkpoint,
  config: Pick<ResolvedLambdaConfig, 'pausedFirstWaitSeconds'>,
): ChunkProgress {
  const waitSeconds = nextPausedWait(progress?.pausedWaitSeconds, config.pausedFirstWaitSeconds);
  const lines = progress?.lines === undefined ? {} : { lines: progress.lines };
  return { next: from, ...addCounts(progress, NO_IMPORT_COUNTS), ...lines, pausedWaitSeconds: waitSeconds };
}
