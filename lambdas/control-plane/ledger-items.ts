import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { LaneHolder } from './lane-admission.js';

/** The ledger table's one key attribute; every item is named by it. */
export const LEDGER_KEY_ATTRIBUTE = 'pk';

/** The pool item: who holds lanes. */
export const POOL_KEY = { pk: { S: 'pool' } } satisfies Record<string, AttributeValue>;

/** An import's own item: its lease and live settings. */
export const importKey = (execution: string) =>
  ({ pk: { S: `import#${execution}` } }) satisfies Record<string, AttributeValue>;

/** What a running import's lanes follow, changed while it runs by `s3-ddb-import rate | pause | resume`. */
export interface LiveSettings {
  readonly execution: string;
  readonly table: string;
  readonly lanes: number;
  /** Items/s for the whole import; 0 = as fast as the table takes. */
  readonly maxWriteRate: number;
  readonly paused: boolean;
}

type Item = Record<string, AttributeValue>;

export function liveSettingsOf(execution: string, item: Item): LiveSettings {
  return {
    execution,
    table: item.table?.S ?? '',
    lanes: Number(item.lanes?.N ?? 0),
    maxWriteRate: Number(item.maxWriteRate?.N ?? 0),
    paused: item.paused?.BOOL === true,
  };
}

export function holdersOf(pool: Item | undefined): Record<string, LaneHolder> {
  const entries = Object.entries(pool?.holders?.M ?? {});
  return Object.fromEntries(
    entries.map(([execution, value]) => {
      const m = value.M ?? {};
      const holder = { table: m.table?.S ?? '', lanes: Number(m.lanes?.N ?? 0), capped: m.capped?.BOOL === true };
      return [execution, holder];
    }),
  );
}
