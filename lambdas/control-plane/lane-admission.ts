/**
 * Who may import now, decided from the ledger's holders (ledger.ts): pure, so every case is a table test.
 *
 * Lanes are what is finite: the import function's Lambda concurrency is shared by every running import (the
 * pool), and a table's write capacity by the imports into it (at most `tableLanes` at once: the configured
 * MaxConcurrency, what one import would use alone). Uncapped imports into one table share its lanes, so a burst
 * of small uploads runs side by side instead of one after another. An import with a `maxWriteRate` runs alone on
 * its table, and others wait for it: two caps on one table would add up past what the user asked for.
 */

/** One running import, as the ledger's pool item holds it. */
export interface LaneHolder {
  readonly table: string;
  readonly lanes: number;
  /** Whether it has a maxWriteRate: then it has its table to itself. */
  readonly capped: boolean;
}

export interface LaneAsk {
  readonly table: string;
  /** The lanes the import can use: its chunk count, at most the configured MaxConcurrency. */
  readonly want: number;
  readonly capped: boolean;
  /** Lanes all imports may hold at once (the Lambda concurrency free for them), or null: no bound (local runs). */
  readonly poolLanes: number | null;
  /** Lanes the imports into one table may hold at once. */
  readonly tableLanes: number;
}

/** The decision: lanes granted (0 = wait), and why, in words the console shows. */
export interface LaneDecision {
  readonly granted: number;
  readonly reason: string;
}

export function decideLanes(holders: Readonly<Record<string, LaneHolder>>, ask: LaneAsk): LaneDecision {
  const others = Object.values(holders);
  const onTable = others.filter((h) => h.table === ask.table);
  const cappedOnTable = onTable.find((h) => h.capped);
  if (cappedOnTable)
    return { granted: 0, reason: `waiting: an import with a maxWriteRate is running into ${ask.table}` };
  if (ask.capped && onTable.length > 0) {
    return {
      granted: 0,
      reason: `waiting: this import has a maxWriteRate and ${onTable.length} other(s) run into ${ask.table}`,
    };
  }
  const tableFree = ask.tableLanes - sum(onTable);
  const poolFree = ask.poolLanes === null ? Infinity : ask.poolLanes - sum(others);
  const granted = Math.max(0, Math.min(ask.want, tableFree, poolFree));
  if (granted === 0) {
    const full = tableFree <= 0 ? `${ask.table}'s ${ask.tableLanes} lanes` : `the ${ask.poolLanes} Lambda lanes`;
    return { granted, reason: `waiting: ${full} are held by ${others.length} running import(s)` };
  }
  const limits = [`${ask.want} wanted`, `${tableFree} free on ${ask.table}`];
  if (ask.poolLanes !== null) limits.push(`${poolFree} of ${ask.poolLanes} Lambda lanes free`);
  return { granted, reason: `${granted} lanes (${limits.join(', ')})` };
}

const sum = (holders: readonly LaneHolder[]) => holders.reduce((total, h) => total + h.lanes, 0);
