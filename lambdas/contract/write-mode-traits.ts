import type { BackupRequirement } from './table-safety.js';

/**
 * The counts an import reports (contract ImportCounts), by name: a mode's `reports` lists the ones it shows.
 */
export type CountName = 'written' | 'skipped' | 'deleted' | 'added' | 'changed' | 'unchanged';

/** An IAM action of DynamoDB (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazondynamodb.html). */
export type DynamoDbAction = `dynamodb:${string}`;

/**
 * What a write mode is, as every layer may read it: data only, at the bottom of the layers (as FORMAT_TRAITS is for
 * formats), so the request's checks, the CLI's estimate and the construct's grants read it without the writers'
 * code or the SDK. The mode's writer (write/modes/<mode>.ts) spreads its traits into its WriteModeEntry.
 */
export interface WriteModeTraits {
  /** The counts this mode reports, in the order the CLI's summary line shows them; the first is its items/s. */
  readonly reports: readonly CountName[];
  /** When preflight checks the table for a backup before the import. */
  readonly backup: BackupRequirement;
  /**
   * A lane's items/s as a share of `put`'s (the CLI's estimate: ITEMS_PER_SECOND_PER_LANE), from the modes bench's
   * handler CPU per 100k items (`BENCH_ONLY=modes BENCH_MODE_ROWS=50000 npm run bench`, docs/performance.md).
   */
  readonly laneShare: number;
  /** How the estimate prices it, in words: `<mode> is priced <pricedAs>`. */
  readonly pricedAs: string;
  /** The DynamoDB actions its writer calls on the target table: the construct grants them (lib/private/pipeline-data-grants.ts). */
  readonly actions: readonly DynamoDbAction[];
}

/** put's backup rule: it replaces the items of the keys it writes. */
const REPLACES: BackupRequirement = {
  check: 'when-table-holds-items',
  atRisk: 'items with the keys this import writes are replaced, and cannot be restored',
};

/**
 * The traits of every built-in mode; `WriteMode` and `WRITE_MODES` are its keys. A new mode is an entry here and its
 * writer: a file under write/modes/ plus one line in write/write-modes.ts WRITE_MODE_TABLE.
 *
 * Lane shares: insert and update take conditions, which BatchWriteItem does not, so they go as PartiQL statements,
 * 25 to a BatchExecuteStatement: the modes bench measured their handler CPU per 100k items at 1.4-2.06x put's over four
 * runs (about 2x on a quiet machine: 0.5 taken); delete at 0.84-1.16x, which the lane rate caps at put's (1).
 *
 * @example
 * WRITE_MODE_TRAITS.delete.backup; // { check: 'always' }
 */
export const WRITE_MODE_TRAITS = {
  put: {
    reports: ['written', 'skipped'],
    backup: REPLACES,
    laneShare: 1,
    pricedAs:
      'by each item, 1 KB rounding, plus each GSI it lands in (replacing a bigger item costs that one: unknown here)',
    actions: ['dynamodb:BatchWriteItem'],
  },
  insert: {
    reports: ['written', 'skipped'],
    backup: { check: 'never' },
    laneShare: 0.5,
    pricedAs:
      'as put (an item skipped because its key exists still consumes write units), sent one item per request: half the items/s of a lane',
    // INSERT statements; a conditional PutItem for an item too long to be a statement (write/statement-writer.ts).
    actions: ['dynamodb:PartiQLInsert', 'dynamodb:PutItem'],
  },
  update: {
    reports: ['written'],
    backup: {
      check: 'when-table-holds-items',
      atRisk: 'the attributes this import sets replace their old values, which cannot be restored',
    },
    laneShare: 0.5,
    pricedAs:
      'as put (the larger of the item before and after; the file gives the after), sent one item per request: half the items/s of a lane',
    // UPDATE statements, an INSERT where UPDATEs find no item; UpdateItems for an item too long to be a statement.
    actions: ['dynamodb:PartiQLUpdate', 'dynamodb:PartiQLInsert', 'dynamodb:UpdateItem'],
  },
  delete: {
    reports: ['deleted'],
    backup: { check: 'always' },
    laneShare: 1,
    pricedAs:
      "by the file's item sizes, the deleted items' own being unknown until deleted (exact for a file of the items, 1 for keys only); 0.9 of a lane's items/s",
    actions: ['dynamodb:BatchWriteItem'],
  },
  sync: {
    reports: ['added', 'changed', 'unchanged', 'skipped'],
    backup: {
      check: 'when-table-holds-items',
      atRisk: 'items this import finds changed are replaced whole, and cannot be restored',
    },
    laneShare: 1,
    pricedAs:
      'here as put, every item written (the changed share is not measured: a dry run counts it), and without its reads: one per item, 4 KB rounding, half a unit eventually consistent',
    // BatchGetItem reads the items of 100 keys; BatchWriteItem puts the added and changed ones.
    actions: ['dynamodb:BatchGetItem', 'dynamodb:BatchWriteItem'],
  },
} as const satisfies Record<string, WriteModeTraits>;

/**
 * What an import does with each item: `put` replaces (BatchWriteItem PutRequest; the last row of a key wins),
 * `insert` writes only where no item has the key (conditional PutItem; existing items are counted as skipped;
 * the first row of a key wins), `update` merges the record's attributes into the item (UpdateItem SET; creates
 * it when missing), `delete` removes the item the record's key names (BatchWriteItem DeleteRequest).
 */
export type WriteMode = keyof typeof WRITE_MODE_TRAITS;
export const WRITE_MODES = Object.keys(WRITE_MODE_TRAITS) as readonly WriteMode[];

/**
 * Every action any mode's writer calls: what the import function is granted on each table, since a request picks
 * its mode at run time.
 */
export function writeModeActions(): DynamoDbAction[] {
  return [...new Set(WRITE_MODES.flatMap((mode): readonly DynamoDbAction[] => WRITE_MODE_TRAITS[mode].actions))];
}
