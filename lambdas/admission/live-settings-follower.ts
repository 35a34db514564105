import type { ImportLedger, LiveSettings } from './ledger.js';

/**
 * A paused chunk asks again after its first wait (environment/config.ts pausedFirstWaitSeconds, 10 s), then twice the
 * last, up to 5 minutes (the workflow's PausedWait): each ask costs its child execution 9+ history events, so the cap
 * keeps a long pause within the child's 25,000 (test/lib/history-limits.test.ts); a resumed lane starts within its
 * current wait.
 */
export const MAX_PAUSED_WAIT_SECONDS = 300;

/** The next PausedWait: the first, or twice the last up to the cap. */
export function nextPausedWait(last: number | undefined, first: number): number {
  return last === undefined ? first : Math.min(MAX_PAUSED_WAIT_SECONDS, last * 2);
}

export interface LiveSettingsOptions {
  /** Called with the import's live rate (items/s, 0 = uncapped) whenever the ledger has one. */
  readonly onRate: (maxWriteRate: number) => void;
  /** How often the lease is renewed and the settings read (environment/config.ts liveSettingsIntervalMs). */
  readonly intervalMs: number;
  /** The rows handled since the last call: each renewal reports them (the import's live count). @default - none */
  readonly rowsSince?: () => number;
}

/**
 * The live settings as the last renewal read them. Methods, not properties: each call reads what the renewals left
 * now, and TypeScript narrows a property once read as if it could not change.
 */
export interface LiveSettingsFollower {
  isPaused(): boolean;
  readonly settings: LiveSettings | null;
  /** The import held lanes when the invocation started and holds none now: the lane must stop (LaneLeaseLostError). */
  isLeaseLost(): boolean;
  stop(): void;
}

/**
 * What one ImportChunk invocation (and a mirror's Scan segment or part delete: mirror/mirror-pace.ts) follows while
 * it runs: it renews the import's lease in the ledger and reads the live settings every few seconds
 * (`s3-ddb-import rate | pause | resume` change them), handing a new rate to the writer at once and turning `paused`
 * on so the importer stops at its next record boundary. A renewal that finds the import no longer holds lanes turns
 * `leaseLost` on: the importer stops at its next record boundary too.
 *
 * @example
 * const live = await followLiveSettings(ledger, execution, { onRate: (rate) => limiter.setRate(rate / lanes) });
 * if (live.isPaused()) return checkpoint;
 */
export async function followLiveSettings(
  ledger: Pick<ImportLedger, 'renew'>,
  execution: string,
  options: LiveSettingsOptions,
): Promise<LiveSettingsFollower> {
  let settings = await renewOrNull(ledger, execution);
  let timer: NodeJS.Timeout | undefined;
  let leaseLost = false;
  const apply = (next: LiveSettings | null) => {
    // Held at the start and gone now: ReleaseLanes (or the next admission, on a lease run out) took the lanes back.
    if (next === null) leaseLost = true;
    settings = next;
    if (next) options.onRate(next.maxWriteRate);
  };
  // Only renewals apply null: an invocation that starts without lanes has lost nothing (chunk-admission.ts asks again).
  if (settings) {
    options.onRate(settings.maxWriteRate);
    // Renewals run beside the import; one that fails is tried again at the next tick (the lease lasts 15 minutes).
    timer = setInterval(() => {
      renewOrNull(ledger, execution, options.rowsSince?.() ?? 0).then(apply, () => undefined);
    }, options.intervalMs);
    timer.unref();
  }
  return {
    isPaused: () => settings?.paused === true,
    get settings() {
      return settings;
    },
    isLeaseLost: () => leaseLost,
    stop: () => clearInterval(timer),
  };
}

/**
 * The import's settings, or null when it holds no lanes in the ledger: an invocation outside the workflow (the
 * bench's single invocation) or a ledger table that does not exist there; it then runs on its request's settings.
 */
async function renewOrNull(
  ledger: Pick<ImportLedger, 'renew'>,
  execution: string,
  rows = 0,
): Promise<LiveSettings | null> {
  try {
    return await ledger.renew(execution, rows);
  } catch (error) {
    // By name, not `instanceof`: locally the ledger's client comes from another copy of the SDK than this bundle's.
    if ((error as Error).name === 'ResourceNotFoundException') return null;
    throw error;
  }
}
