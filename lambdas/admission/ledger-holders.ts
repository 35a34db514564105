import {
  ScanCommand,
  type AttributeValue,
  type DynamoDBClient,
  type ScanCommandInput,
  type ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type { PaginationConfiguration } from '@smithy/types';
import { sdkPages, type PageTokens } from '../async/sdk-pages.js';
import { executionOf, holderOf, leaseUntilOf } from './ledger-items.js';
import type { LedgerPool } from './ledger-pool.js';

type Send = Pick<DynamoDBClient, 'send'>['send'];
type Item = Record<string, AttributeValue>;

/** An import's item as the holders scan reads it. */
export interface HolderItem {
  readonly execution: string;
  readonly item: Item;
}

/** The Scan's continuation and page-size fields, as client-dynamodb's generated paginateScan names them. */
const SCAN_TOKENS: PageTokens = { input: 'ExclusiveStartKey', output: 'LastEvaluatedKey', pageSize: 'Limit' };

/**
 * Every import's item in the ledger: a Scan, page after page through the SDK's paginator until DynamoDB returns no
 * LastEvaluatedKey (a page ends at 1 MB, ~7,000 items here;
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Scan.html). The ledger holds only the lanes item
 * and one small item per running import, so the Scan reads little more than what it returns. `consistent` for lease
 * reclaim: an eventually consistent Scan may miss a renewal made within the last second
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadConsistency.html). Only items
 * read are ever judged, so an import the Scan did not return keeps its lanes.
 */
export async function scanHolders(send: Send, tableName: string, consistent: boolean): Promise<HolderItem[]> {
  // The paginator calls only `send`, and checks the client against its own class (async/sdk-pages.ts): here a plain
  // object's, since the ledger is handed `send` alone.
  const client = { send } as unknown as PaginationConfiguration['client'];
  const input: ScanCommandInput = { TableName: tableName, ...(consistent ? { ConsistentRead: true } : {}) };
  const holders: HolderItem[] = [];
  for await (const page of sdkPages<ScanCommandInput, ScanCommandOutput>(client, ScanCommand, SCAN_TOKENS, input)) {
    for (const item of page.Items ?? []) {
      const execution = executionOf(item);
      if (execution !== null) holders.push({ execution, item });
    }
  }
  return holders;
}

/**
 * Takes the lanes of holders whose lease ran out (their execution ended without releasing, e.g. stopped from the
 * console) off the ledger; how many it took off. Only a lease read strongly consistent (scanHolders) and found run
 * out is reclaimed, and the write is conditional on it still being run out, so a lane renewing meanwhile keeps it.
 */
export async function reclaimStale(
  pool: Pick<LedgerPool, 'giveBack'>,
  holders: readonly HolderItem[],
  now: number,
): Promise<number> {
  let reclaimed = 0;
  for (const { execution, item } of holders) {
    if (leaseUntilOf(item) >= now) continue;
    const outcome = await pool.giveBack(execution, item, { now });
    if (outcome === 'taken' && holderOf(item)) reclaimed++;
  }
  return reclaimed;
}
