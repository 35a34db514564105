/**
 * Who may import now, decided from the counts the ledger keeps (ledger.ts): pure, so every case is a table test.
 *
 * Lanes are what is finite: the import function's Lambda concurrency is shared by every running import (the
 * pool), and a table's write capacity by the imports into it (at most `tableLanes` at once: the configured
 * MaxConcurrency, what one import would use alone). Uncapped imports into one table share its lanes, so a burst
 * of small uploads runs side by side instead of one after another. An import with a `maxWriteRate` runs alone on
 * its table, and others wait for it: two caps on one table would add up past what the user asked for.
 */

/** One running import, as its own item in the ledger holds it. */
export interface LaneHolder {
  readonly table: string;
  readonly lanes: number;
  /** Whether it has a maxWriteRate: then it has its table to itself. */
  readonly capped: boolean;
}

/** What the ledger's lanes item counts: lanes held and imports holding them, in all and on the asking table. */
export interface LaneCounts {
  readonly poolHeld: number;
  readonly poolImports: number;
  readonly tableHeld: number;
  readonly tableImports: number;
  /** Whether an import with a maxWriteRate runs into the asking table. */
  readonly tableCapped: boolean;
}

/** The counts a set of holders makes for `table`: what the lanes item holds, by definition. */
export function countLanes(holders: Readonly<Record<string, LaneHolder>>, table: string): LaneCounts {
  const all = Object.values(holders);
  const onTable = all.filter((h) => h.table === table);
  return {
    poolHeld: sum(all),
    poolImports: all.length,
    tableHeld: sum(onTable),
    tableImports: onTable.length,
    tableCapped: onTable.some((h) => h.capped),
  };
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
  /**
   * Grant all `want` lanes or none: a redriven Map runs its chunks at the MaxConcurrency it started with, so a chunk
   * asking again for its import's lanes (import/chunk-admission.ts) takes them only when that many are free.
   * @default false
   */
  readonly whole?: boolean;
}

/** The decision: lanes granted (0 = wait), and why, in words the console shows. */
export interface LaneDecision {
  readonly granted: number;
  readonly reason: string;
}

export function decideLanes(counts: LaneCounts, ask: LaneAsk): LaneDecision {
  if (counts.tableCapped)
    return { granted: 0, reason: `waiting: an import with a maxWriteRate is running into ${ask.table}` };
  if (ask.capped && counts.tableImports > 0) {
    return {
      granted: 0,
      reason: `waiting: this import has a maxWriteRate and ${counts.tableImports} other(s) run into ${ask.table}`,
    };
  }
  const tableFree = ask.tableLanes - counts.tableHeld;
  const poolFree = ask.poolLanes === null ? Infinity : ask.poolLanes - counts.poolHeld;
  const granted = Math.max(0, Math.min(ask.want, tableFree, poolFree));
  if (granted === 0) {
    const full = tableFree <= 0 ? `${ask.table}'s ${ask.tableLanes} lanes` : `the ${ask.poolLanes} Lambda lanes`;
    return { granted, reason: `waiting: ${full} are held by ${counts.poolImports} running import(s)` };
  }
  if (ask.whole && granted < ask.want)
    return { granted: 0, reason: `waiting: ${ask.want} lanes to run its chunks again, ${granted} free` };
  const limits = [`${ask.want} wanted`, `${tableFree} free on ${ask.table}`];
  if (ask.poolLanes !== null) limits.push(`${poolFree} of ${ask.poolLanes} Lambda lanes free`);
  return { granted, reason: `${granted} lanes (${limits.join(', ')})` };
}

const sum = (holders: readonly LaneHolder[]) => holders.reduce((total, h) => total + h.lanes, 0);
