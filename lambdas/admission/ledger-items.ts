import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { LaneCounts, LaneHolder } from './lane-admission.js';

type Item = Record<string, AttributeValue>;
/** An item as read: any attribute may be missing, which an index signature's type does not say. */
export type ReadItem = Readonly<Partial<Item>>;

/** The ledger table's one key attribute; every item is named by it. */
export const LEDGER_KEY_ATTRIBUTE = 'pk';

/**
 * The lanes item: counters only, a few bytes per table (one write unit per admission or release, whatever the
 * number of imports). Not `pool`, the key of the item that listed every holder before: a stack updated while
 * imports run starts from fresh counters instead of ones the old imports would never give back.
 */
export const LANES_KEY = { pk: { S: 'lanes' } } satisfies Record<string, AttributeValue>;

const IMPORT_PREFIX = 'import#';

/** An import's own item: the lanes it holds, its lease and its live settings. */
export const importKey = (execution: string) =>
  ({ pk: { S: `${IMPORT_PREFIX}${execution}` } }) satisfies Record<string, AttributeValue>;

/** The execution an item belongs to, or null when it is not an import's item. */
export const executionOf = (item: ReadItem): string | null =>
  item.pk?.S?.startsWith(IMPORT_PREFIX) ? item.pk.S.slice(IMPORT_PREFIX.length) : null;

/**
 * The lanes item's attributes, top-level so that one UpdateItem ADDs to them whether they (or the item) exist yet or
 * not: ADD takes top-level attributes only and starts a missing number from 0, and UpdateItem adds an item that does
 * not exist (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html); a path into a map needs the map
 * first. Lanes held and imports holding them, in all and per table, and the execution of the capped import on a
 * table. Table names are at most 255 characters, attribute names may have 64 KB
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html).
 */
export const LANES_ATTRIBUTES = {
  poolHeld: 'poolHeld',
  poolImports: 'poolImports',
  tableHeld: (table: string) => `held#${table}`,
  tableImports: (table: string) => `imports#${table}`,
  tableCapped: (table: string) => `capped#${table}`,
} as const;

/** What a running import's lanes follow, changed while it runs by `s3-ddb-import rate | pause | resume`. */
export interface LiveSettings {
  readonly execution: string;
  readonly table: string;
  readonly lanes: number;
  /** Items/s for the whole import; 0 = as fast as the table takes. */
  readonly maxWriteRate: number;
  readonly paused: boolean;
  /**
   * Rows the import's lanes have handled (written or rejected), as they report them with each lease renewal (every
   * 5 s): the live count every view shows. Approximate (a retried invocation reports its rows again); the summary's
   * counts are exact. Absent until a lane has reported.
   */
  readonly rows?: number;
}

export function liveSettingsOf(execution: string, item: ReadItem): LiveSettings {
  return {
    execution,
    table: item.table?.S ?? '',
    lanes: Number(item.lanes?.N ?? 0),
    maxWriteRate: Number(item.maxWriteRate?.N ?? 0),
    paused: item.paused?.BOOL === true,
    ...(item.rowsDone?.N !== undefined ? { rows: Number(item.rowsDone.N) } : {}),
  };
}

/** The counts of the lanes item for `table`; zeros when no import was admitted in this ledger yet. */
export function countsOf(item: ReadItem | undefined, table: string): LaneCounts {
  const n = (name: string) => Number(item?.[name]?.N ?? 0);
  return {
    poolHeld: n(LANES_ATTRIBUTES.poolHeld),
    poolImports: n(LANES_ATTRIBUTES.poolImports),
    tableHeld: n(LANES_ATTRIBUTES.tableHeld(table)),
    tableImports: n(LANES_ATTRIBUTES.tableImports(table)),
    tableCapped: item?.[LANES_ATTRIBUTES.tableCapped(table)] !== undefined,
  };
}

/**
 * The lanes an import's item says it holds, or null for an item the lanes item does not count: one written before
 * the counters (no `capped` attribute), whose lanes were counted in the old `pool` item.
 */
/** When an import's lease runs out, in epoch ms (0 for an item without one). */
export const leaseUntilOf = (item: ReadItem): number => Number(item.leaseUntil?.N ?? 0);

export function holderOf(item: ReadItem): LaneHolder | null {
  if (item.capped?.BOOL === undefined) return null;
  return { table: item.table?.S ?? '', lanes: Number(item.lanes?.N ?? 0), capped: item.capped.BOOL };
}

/** The item of an import admitted now: what it holds, its first lease and its first live settings. */
export function admittedItem(execution: string, holder: LaneHolder, leaseUntil: number, maxWriteRate: number): Item {
  return {
    ...importKey(execution),
    table: { S: holder.table },
    lanes: { N: String(holder.lanes) },
    capped: { BOOL: holder.capped },
    leaseUntil: { N: String(leaseUntil) },
    maxWriteRate: { N: String(maxWriteRate) },
    paused: { BOOL: false },
  };
}
