import type { Admit, ImportLedger } from '../admission/ledger.js';
import type { ImportJob, Lanes } from '../contract/workflow-payloads.js';
import {
  followLiveSettings,
  type LiveSettingsFollower,
  type LiveSettingsOptions,
} from '../admission/live-settings-follower.js';

/** The ledger calls a chunk makes: renew its import's lease, and ask for lanes again when it holds none. */
export type ChunkLedger = Pick<ImportLedger, 'renew' | 'admit'>;

/**
 * What a chunk that may not write yet follows: `paused`, so it holds its checkpoint and asks again after the
 * workflow's PausedWait, writing nothing.
 */
const NOT_ADMITTED: LiveSettingsFollower = {
  isPaused: () => true,
  settings: null,
  isLeaseLost: () => false,
  stop: () => undefined,
};

/**
 * Follows the import's live settings (admission/live-settings-follower.ts), making sure first that the import holds lanes: a chunk
 * never writes without one. Admission is taken once, by Preflight; but a chunk can run after its import's lanes went
 * back: a redrive re-runs every unsuccessful child of a Map Run whose parent has no `MapStateExited` event
 * (https://docs.aws.amazon.com/step-functions/latest/dg/redrive-map-run.html), and whether a caught Distributed Map
 * failure writes one is not documented, while ReleaseLanes has already given the lanes back. Such a chunk asks the
 * ledger again for the lanes its import was admitted with (idempotent: the first chunk takes them, the others find
 * them held) and waits, paused, while they are not free. A chunk invoked outside the workflow (no `job.lanes`: the
 * bench) runs without the ledger, as before.
 *
 * @example
 * const live = await followAdmitted(ledger, job, { onRate: (rate) => limiter.setRate(rate) });
 * if (live.isPaused()) return pausedProgress(progress, heldCheckpoint(plan), config); // paused, or no lanes free yet
 */
export async function followAdmitted(
  ledger: ChunkLedger,
  job: ImportJob,
  options: LiveSettingsOptions,
): Promise<LiveSettingsFollower> {
  const live = await followLiveSettings(ledger, job.executionName, options);
  if (live.settings !== null || !job.lanes) return live;
  live.stop();
  const { granted } = await ledger.admit(readmission(job, job.lanes));
  if (granted === 0) return NOT_ADMITTED;
  return followLiveSettings(ledger, job.executionName, options);
}

/**
 * The ask of a chunk whose import holds no lanes: the lanes the Map runs at (its MaxConcurrency, `job.maxConcurrency`),
 * all or none, within the bounds Preflight admitted it under.
 */
export function readmission(job: ImportJob, lanes: Lanes): Admit {
  const { table, maxWriteRate } = job.request;
  return {
    execution: job.executionName,
    table,
    want: job.maxConcurrency,
    capped: maxWriteRate > 0,
    poolLanes: lanes.pool ?? null,
    tableLanes: lanes.configured,
    maxWriteRate,
    whole: true,
  };
}
