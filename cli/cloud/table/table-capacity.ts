import {
  DescribeTableCommand,
  ResourceNotFoundException,
  type DynamoDBClient,
  type GlobalSecondaryIndexDescription,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import { CloudCommandError } from '../aws/clients.js';

/**
 * A new on-demand table sustains up to 4,000 writes/s before it scales (and scales to twice its previous peak
 * within 30 minutes): https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/pre-warming-on-demand-capacity-mode.html.
 * Used when DescribeTable shows no warm throughput (a DynamoDB that has none; the local engine shows 0), for the table and for each GSI.
 */
export const NEW_ON_DEMAND_WRITES_PER_SECOND = 4000;

/** Which figure says how many write units per second a table or index takes now. */
export type CapacitySource =
  | 'provisioned'
  | 'warm throughput'
  | 'on-demand maximum'
  | 'a new on-demand table'
  | 'a new on-demand index'
  | 'the requested warmThroughput';

/** What a table or one of its GSIs takes in write units per second. */
export interface WriteCapacity {
  /** Write units per second it takes now, and which figure said so. */
  readonly writeUnitsPerSecond: number;
  readonly from: CapacitySource;
  /**
   * The most it will ever take without a change by its owner: the provisioned WCU, or an on-demand maximum
   * (OnDemandThroughput.MaxWriteRequestUnits). Null for on-demand without a maximum, which grows with the traffic.
   */
  readonly limit: number | null;
}

/** A global secondary index: its key and projection (which items it holds, and how much of each), its capacity. */
export interface IndexCapacity extends WriteCapacity {
  readonly name: string;
  /** The index's key attributes (partition, then sort): an item lacking one is not written to the index. */
  readonly keyNames: readonly string[];
  /** ALL, KEYS_ONLY, or INCLUDE with `nonKeyAttributes`. */
  readonly projection: { readonly type: 'ALL' | 'KEYS_ONLY' | 'INCLUDE'; readonly nonKeyAttributes: readonly string[] };
}

/** A table's key and what it, and each of its GSIs, takes in write units per second, from DescribeTable. */
export interface TableCapacity extends WriteCapacity {
  readonly name: string;
  readonly keys: KeyAttribute[];
  readonly billingMode: 'PROVISIONED' | 'PAY_PER_REQUEST';
  readonly indexes: readonly IndexCapacity[];
}

/**
 * DescribeTable (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTable.html): the
 * key schema, BillingModeSummary (absent on tables created provisioned), ProvisionedThroughput.WriteCapacityUnits,
 * OnDemandThroughput.MaxWriteRequestUnits (a cap the owner set) and WarmThroughput.WriteUnitsPerSecond (what
 * the table takes instantly: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableWarmThroughputDescription.html),
 * and the same for each of GlobalSecondaryIndexes, with its KeySchema and Projection.
 */
export async function readTableCapacity(dynamodb: DynamoDBClient, name: string): Promise<TableCapacity> {
  const table = await dynamodb.send(new DescribeTableCommand({ TableName: name })).then(
    (answer) => answer.Table ?? {},
    (error: Error) => {
      if (!(error instanceof ResourceNotFoundException)) throw error;
      throw new CloudCommandError(
        `table ${JSON.stringify(name)} not found: create it first (the import writes existing tables), or check AWS_REGION`,
      );
    },
  );
  const keys: KeyAttribute[] = (table.KeySchema ?? []).map((k) => ({
    name: k.AttributeName ?? '',
    role: k.KeyType === 'RANGE' ? 'RANGE' : 'HASH',
    type: (table.AttributeDefinitions?.find((d) => d.AttributeName === k.AttributeName)?.AttributeType ??
      'S') as KeyAttribute['type'],
  }));
  const billingMode = table.BillingModeSummary?.BillingMode === 'PAY_PER_REQUEST' ? 'PAY_PER_REQUEST' : 'PROVISIONED';
  const indexes = (table.GlobalSecondaryIndexes ?? []).map((index) => indexCapacity(index, billingMode));
  return { name, keys, billingMode, ...writeCapacity(table, billingMode, 'a new on-demand table'), indexes };
}

/** The same figures for a table and for a GSI (both describe ProvisionedThroughput, OnDemandThroughput, WarmThroughput). */
function writeCapacity(
  described: Pick<
    TableDescription | GlobalSecondaryIndexDescription,
    'ProvisionedThroughput' | 'OnDemandThroughput'
  > & {
    readonly WarmThroughput?: { readonly WriteUnitsPerSecond?: number };
  },
  billingMode: TableCapacity['billingMode'],
  fresh: 'a new on-demand table' | 'a new on-demand index',
): WriteCapacity {
  if (billingMode === 'PROVISIONED') {
    const wcu = described.ProvisionedThroughput?.WriteCapacityUnits ?? 0;
    return { writeUnitsPerSecond: wcu, from: 'provisioned', limit: wcu };
  }
  const warm = described.WarmThroughput?.WriteUnitsPerSecond;
  const max = described.OnDemandThroughput?.MaxWriteRequestUnits;
  // A maximum of -1 (or none) means no cap (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html).
  const limit = max !== undefined && max > 0 ? max : null;
  const instant =
    warm && warm > 0
      ? { writeUnitsPerSecond: warm, from: 'warm throughput' as const }
      : { writeUnitsPerSecond: NEW_ON_DEMAND_WRITES_PER_SECOND, from: fresh };
  if (limit !== null && limit < instant.writeUnitsPerSecond)
    return { writeUnitsPerSecond: limit, from: 'on-demand maximum', limit };
  return { ...instant, limit };
}

function indexCapacity(index: GlobalSecondaryIndexDescription, billingMode: TableCapacity['billingMode']) {
  const type = index.Projection?.ProjectionType ?? 'ALL';
  return {
    name: index.IndexName ?? '',
    keyNames: (index.KeySchema ?? []).map((k) => k.AttributeName ?? ''),
    projection: {
      type: type === 'KEYS_ONLY' || type === 'INCLUDE' ? type : ('ALL' as const),
      nonKeyAttributes: index.Projection?.NonKeyAttributes ?? [],
    },
    ...writeCapacity(index, billingMode, 'a new on-demand index'),
  };
}

/**
 * The table as an import with `warmThroughput` meets it: preflight raises an on-demand table's warm write throughput
 * to that before the first write (lambdas/preflight/warm-throughput.ts), up to its on-demand maximum. Its GSIs keep
 * their own warm throughput.
 */
export function withWarmThroughput(table: TableCapacity, warmThroughput: number | undefined): TableCapacity {
  if (!warmThroughput || table.billingMode !== 'PAY_PER_REQUEST') return table;
  const target = table.limit !== null ? Math.min(table.limit, warmThroughput) : warmThroughput;
  if (target <= table.writeUnitsPerSecond) return table;
  return { ...table, writeUnitsPerSecond: target, from: 'the requested warmThroughput' };
}
