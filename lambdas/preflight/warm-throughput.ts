import { InvalidRequestError } from '../contract/errors.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

/** A global secondary index as DescribeTable reports it: its name and its warm write throughput. */
export interface GlobalIndexWarmth {
  readonly name: string;
  /** WarmThroughput.WriteUnitsPerSecond of the index; null when DescribeTable reports none. */
  readonly warmWriteUnitsPerSecond: number | null;
}

/**
 * What preflight's one DescribeTable says about the target table
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTable.html): its key, and what the
 * pre-warm needs, its billing mode and its warm write throughput.
 */
export interface TargetTable {
  readonly keys: KeyAttribute[];
  /** BillingModeSummary.BillingMode is PAY_PER_REQUEST (a table created provisioned may have no summary). */
  readonly onDemand: boolean;
  /**
   * WarmThroughput.WriteUnitsPerSecond: the writes per second the table takes at once. Null when DescribeTable
   * reports none: AWS always reports it; an emulator may report none (the local engine reports 0, taken as a value).
   */
  readonly warmWriteUnitsPerSecond: number | null;
  /**
   * The key attribute names of each secondary index, global and local: an item that holds them all lands in the
   * index, and its write there costs write units of its own (a dry run counts them).
   */
  readonly indexes: string[][];
  /** The global secondary indexes, whose warm throughput is their own (GlobalSecondaryIndexes[].WarmThroughput). */
  readonly globalIndexes?: readonly GlobalIndexWarmth[];
}

/** What to raise, once, before the first write: the table's and its indexes' warm write units per second. */
export interface WarmThroughputPlan {
  /** The table's new WarmThroughput.WriteUnitsPerSecond, or null when it takes as much at once already. */
  readonly table: number | null;
  /** The global secondary indexes to raise (GlobalSecondaryIndexUpdates[].Update.WarmThroughput), by name. */
  readonly indexes: readonly { readonly name: string; readonly writeUnitsPerSecond: number }[];
}

/** Raising a table's warm write throughput: UpdateTable's `WarmThroughput` (preflight-io.ts). */
export interface WarmThroughputIo {
  /** 'busy' when the table is being updated already (ResourceInUseException): the import goes on without it. */
  raiseWarmThroughput(table: string, plan: WarmThroughputPlan): Promise<'raised' | 'busy'>;
}

/**
 * What to raise the table's warm throughput to, once, before the import's first write (one UpdateTable with
 * `WarmThroughput: { WriteUnitsPerSecond }` and, per global secondary index, `GlobalSecondaryIndexUpdates: [{ Update:
 * { IndexName, WarmThroughput } }]`: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateGlobalSecondaryIndexAction.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/update-warm-throughput.html), or null for no call:
 * none asked for, the table and its indexes already take as much at once, or the server knows no warm throughput.
 *
 * The indexes are warmed too: every item that holds an index's key attributes is also written to that index, whose
 * throughput is its own, and a throttled index write throttles the table's write
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TroubleshootingThrottling-cloudwatch.html). Every
 * global index is warmed, to the table's rate (an index entry is never bigger than its item): which records hold an
 * index's keys is known only as they are read. A new on-demand table takes about 4,000 writes/s at once and doubles
 * its previous peak within 30 minutes; pre-warmed, it takes the requested rate from the first write. The update is
 * asynchronous and not waited for. "Once increased, warm throughput values can't be decreased", and raising them is
 * billed (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html).
 *
 * Refused (InvalidRequestError, before any write): a provisioned table, whose writes are capped by its
 * WriteCapacityUnits, which a higher warm throughput does not raise; and a raise the deployment does not allow
 * (`allowed` false: the stack holds no dynamodb:UpdateTable unless deployed with `allowWarmThroughput`).
 */
export function warmThroughputToSet(
  table: string,
  requested: number | undefined,
  target: TargetTable,
  allowed: boolean,
): WarmThroughputPlan | null {
  if (!requested) return null;
  if (!target.onDemand) {
    throw new InvalidRequestError([
      `warmThroughput: for on-demand tables only; ${JSON.stringify(table)} is provisioned, so its writes are ` +
        'capped by its WriteCapacityUnits: raise those instead',
    ]);
  }
  const below = (current: number | null) => current !== null && current < requested;
  const plan: WarmThroughputPlan = {
    table: below(target.warmWriteUnitsPerSecond) ? requested : null,
    indexes: (target.globalIndexes ?? [])
      .filter((index) => below(index.warmWriteUnitsPerSecond))
      .map((index) => ({ name: index.name, writeUnitsPerSecond: requested })),
  };
  if (plan.table === null && plan.indexes.length === 0) return null;
  if (!allowed) throw new InvalidRequestError([notAllowed(table, requested)]);
  return plan;
}

function notAllowed(table: string, requested: number): string {
  return (
    `warmThroughput: ${JSON.stringify(table)} takes less than ${requested} write units/s at once, and this ` +
    'deployment may not pre-warm tables (its preflight holds no dynamodb:UpdateTable). Deploy with ' +
    'allowWarmThroughput: true (cdk deploy -c allowWarmThroughput=true), raise the warm throughput yourself ' +
    `(aws dynamodb update-table --table-name ${table} --warm-throughput WriteUnitsPerSecond=${requested}), ` +
    'or leave warmThroughput out'
  );
}
