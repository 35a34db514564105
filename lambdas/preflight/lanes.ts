import { admitted, waitAgain } from './import-queue.js';
import type { ConcurrencySource, ImportConcurrency } from '../admission/import-concurrency.js';
import type { ImportLedger } from '../admission/ledger.js';
import type { PlanningState, PreflightEvent } from '../contract/workflow-payloads.js';

/**
 * Of the account's unreserved concurrency, the share all imports of one stack take at most: half, so that the
 * account's other functions (and the imports' own preflight and summarize) still find room. The default quota
 * of 1,000 leaves 500; a new account's 10 gives 5 lanes (https://docs.aws.amazon.com/lambda/latest/dg/lambda-concurrency.html).
 * Each stack has its own ledger, so two stacks without a reservation in one account and Region take all of it between
 * them (README, Limits): with more than one, each import function gets a reservation, and Lambda keeps at least 100
 * unreserved for the functions without one, preflight and summarize among them ("You can reserve up to the
 * Unreserved account concurrency value that is shown, minus 100":
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html).
 */
export const UNRESERVED_SHARE = 0.5;

/**
 * The pool of lanes every running import shares: the import function's reserved concurrency when it has one
 * (every invocation past it would be throttled), else a share of the account's unreserved pool; null (no bound)
 * where imports do not run on Lambda (local runs) or the account's figure is unknown.
 */
export function poolLanes(concurrency: ImportConcurrency | null): { lanes: number | null; reason: string } {
  if (concurrency === null) return { lanes: null, reason: 'no Lambda concurrency to fit (local run)' };
  const { reserved, unreserved } = concurrency;
  if (reserved !== null) return { lanes: Math.max(1, reserved), reason: `the import function's reserved ${reserved}` };
  if (unreserved === null) return { lanes: null, reason: 'account concurrency unknown' };
  const share = Math.max(1, Math.floor(unreserved * UNRESERVED_SHARE));
  return { lanes: share, reason: `half the account's ${unreserved} unreserved Lambda concurrency (${share})` };
}

/** What admission needs besides the planned state: the deployment's lanes and the ledger of who holds them. */
export interface AdmissionOptions {
  /** The Lambda concurrency the imports share; see admission/import-concurrency.ts. */
  readonly control: ConcurrencySource;
  /** Who holds lanes now (admission/ledger.ts). */
  readonly ledger: Pick<ImportLedger, 'admit'>;
  /** The first wait for lanes (environment/config.ts resolves it). */
  readonly queueFirstWaitSeconds: number;
}

/**
 * Asks the ledger for lanes (admission/lane-admission.ts) once the chunks are known, so an import holds no more lanes
 * than it has chunks: at most the chunks, the table's free lanes and the free Lambda lanes; none means wait and ask
 * again (the workflow's WaitForLanes loop). An import with no chunks (empty objects) needs no lanes: its Map has
 * nothing to run.
 */
export async function admitLanes(
  state: PlanningState,
  event: PreflightEvent,
  options: AdmissionOptions,
): Promise<PlanningState> {
  if (state.lanes.granted > 0) return state;
  const configured = event.maxConcurrency;
  if (state.chunks.length === 0) return { ...state, lanes: { configured, granted: 1, reason: 'no chunks to import' } };
  const pool = poolLanes(await options.control.importConcurrency());
  const { table, maxWriteRate } = state.request;
  const decision = await options.ledger.admit({
    execution: event.executionName,
    table,
    want: Math.min(configured, state.chunks.length),
    capped: maxWriteRate > 0,
    poolLanes: pool.lanes,
    tableLanes: configured,
    maxWriteRate,
  });
  if (decision.granted === 0) {
    return { ...state, queue: waitAgain(state.queue, decision.reason, options.queueFirstWaitSeconds) };
  }
  const reason = pool.lanes === null ? decision.reason : `${decision.reason}; Lambda lanes: ${pool.reason}`;
  return {
    ...state,
    queue: admitted(state.queue),
    lanes: { configured, granted: decision.granted, reason, pool: pool.lanes },
  };
}
