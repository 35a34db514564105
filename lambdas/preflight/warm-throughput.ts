import { InvalidRequestError } from '../contract/errors.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

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
   * reports none, which AWS always does and DynamoDB Local never does (it has no warm throughput to raise).
   */
  readonly warmWriteUnitsPerSecond: number | null;
  /**
   * The key attribute names of each secondary index, global and local: an item that holds them all lands in the
   * index, and its write there costs write units of its own (a dry run counts them).
   */
  readonly indexes: string[][];
}

/** Raising a table's warm write throughput: UpdateTable's `WarmThroughput` (preflight-io.ts). */
export interface WarmThroughputIo {
  /** 'busy' when the table is being updated already (ResourceInUseException): the import goes on without it. */
  raiseWarmThroughput(table: string, writeUnitsPerSecond: number): Promise<'raised' | 'busy'>;
}

/**
 * The write units per second to raise the table's warm throughput to, once, before the import's first write (UpdateTable
 * with `WarmThroughput: { WriteUnitsPerSecond }`: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateTable.html),
 * or null for no call: none asked for, the table already takes as much at once, or the server knows no warm
 * throughput (DynamoDB Local). A new on-demand table takes about 4,000 writes/s at once and doubles its previous peak
 * within 30 minutes; pre-warmed, it takes the requested rate from the first write. The update is asynchronous (the
 * table stays writable while its warm throughput says UPDATING) and not waited for. "Once increased, warm throughput
 * values can't be decreased", and raising them is billed, unlike the default values
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html,
 * https://aws.amazon.com/dynamodb/pricing/on-demand/).
 *
 * A provisioned table is refused (InvalidRequestError, before any write): its writes are capped by its
 * WriteCapacityUnits, which a higher warm throughput does not raise, so the pre-warm would be paid for nothing.
 */
export function warmThroughputToSet(table: string, requested: number | undefined, target: TargetTable): number | null {
  if (!requested) return null;
  if (!target.onDemand) {
    throw new InvalidRequestError([
      `warmThroughput: for on-demand tables only; ${JSON.stringify(table)} is provisioned, so its writes are ` +
        'capped by its WriteCapacityUnits: raise those instead',
    ]);
  }
  const current = target.warmWriteUnitsPerSecond;
  if (current === null || current >= requested) return null;
  return requested;
}
