import type { MirrorJob } from '../contract/mirror-payloads.js';
import type { ImportLedger } from '../admission/ledger.js';
import { followLiveSettings, nextPausedWait } from '../admission/live-settings-follower.js';
import { createLiveLimiter, type RateLimiter } from '../write/rate-limiter.js';

/** A paced Scan page reads at least one BatchWriteItem's worth of items, as the limiter's least burst. */
const SCAN_PAGE_ITEMS_AT_LEAST = 25;

/** How a mirror invocation's lane follows the ledger: when to renew, and the first wait of a pause. */
export interface MirrorPaceOptions {
  readonly ledger: Pick<ImportLedger, 'renew'>;
  /** How often the lease is renewed and the settings read (environment/config.ts liveSettingsIntervalMs). */
  readonly intervalMs: number;
  /** The first PausedWait of a pause (environment/config.ts pausedFirstWaitSeconds). */
  readonly pausedFirstWaitSeconds: number;
}

/** One mirror invocation's governor: the live rate's share, the pause, the lease; `stop()` when the invocation ends. */
export interface MirrorPace {
  /** Takes tokens before each Scan page or delete batch (0 lets all through). */
  readonly limiter: RateLimiter;
  /** Items one Scan page may read: one second's share (at least 25), or undefined while uncapped (1 MB pages). */
  pageItems(): number | undefined;
  /** The import is paused, or its lanes were given back: the invocation stops at its next boundary. */
  held(): boolean;
  /** The PausedWait to return when paused (doubling from the last, as a chunk's), else undefined. */
  pausedWait(last: number | undefined): number | undefined;
  stop(): void;
}

/**
 * A Scan segment's or a part's share of the import's live `maxWriteRate`: the Map runs min(lanes, lanes' items) at
 * once, each taking an equal share (as chunk shares go when chunks outnumber lanes: write/rate-limiter.ts).
 *
 * @example
 * mirrorRate(job, 16, 400); // lanes 4: 100 items/s each
 */
export function mirrorRate(job: MirrorJob, items: number, maxWriteRate: number): number {
  if (maxWriteRate <= 0) return 0;
  return maxWriteRate / Math.max(1, Math.min(items, job.maxConcurrency));
}

/**
 * Follows the import's ledger item as a chunk does (admission/live-settings-follower.ts): renews the lease, takes a new rate
 * at once, and turns `held` on when `s3-ddb-import pause` pauses the import, so the mirror's reads and deletes
 * are paced and paused by the same governor and ledger as the chunks' writes. Outside the ledger (no lanes: a bench
 * invocation) it runs on the request's maxWriteRate.
 *
 * @example
 * const pace = await followMirrorPace(job, job.parts, { ledger });
 * try { if (pace.held()) return { ...progress, pausedWaitSeconds: pace.pausedWait(last) }; ... } finally { pace.stop(); }
 */
export async function followMirrorPace(job: MirrorJob, items: number, options: MirrorPaceOptions): Promise<MirrorPace> {
  let rate = mirrorRate(job, items, job.request.maxWriteRate);
  const limiter = createLiveLimiter(rate);
  // Starts empty: a Map starts a step per segment or part, each a new invocation, and a full first burst for every
  // one would let a mirror of many small parts send far above the rate; each now earns its share before it sends.
  void limiter.take(Number.POSITIVE_INFINITY);
  const live = await followLiveSettings(options.ledger, job.executionName, {
    onRate: (maxWriteRate) => limiter.setRate((rate = mirrorRate(job, items, maxWriteRate))),
    intervalMs: options.intervalMs,
  });
  return {
    limiter,
    pageItems: () => (rate > 0 ? Math.max(SCAN_PAGE_ITEMS_AT_LEAST, Math.ceil(rate)) : undefined),
    held: () => live.isPaused() || live.isLeaseLost(),
    pausedWait: (last) => (live.isPaused() ? nextPausedWait(last, options.pausedFirstWaitSeconds) : undefined),
    stop: live.stop,
  };
}

/** The pacing settings of a mirror handler, from its resolved configuration (tests and local runs shorten them). */
export function mirrorPaceOptions(
  ledger: Pick<ImportLedger, 'renew'>,
  config: { readonly liveSettingsIntervalMs: number; readonly pausedFirstWaitSeconds: number },
): MirrorPaceOptions {
  return { ledger, intervalMs: config.liveSettingsIntervalMs, pausedFirstWaitSeconds: config.pausedFirstWaitSeconds };
}
