import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { KeyAttribute } from '../../lambdas/contract/workflow-payloads.js';
import { CloudCommandError } from './clients.js';

/**
 * A new on-demand table sustains up to 4,000 writes/s before it scales (and scales to twice its previous peak
 * within 30 minutes): https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/pre-warming-on-demand-capacity-mode.html.
 * Used when DescribeTable shows no warm throughput (DynamoDB Local shows none).
 */
export const NEW_ON_DEMAND_WRITES_PER_SECOND = 4000;

/** A table's key and what it takes in write units per second, from DescribeTable. */
export interface TableCapacity {
  readonly name: string;
  readonly keys: KeyAttribute[];
  readonly billingMode: 'PROVISIONED' | 'PAY_PER_REQUEST';
  /** Write units per second the table takes now, and which figure said so. */
  readonly writeUnitsPerSecond: number;
  readonly from: 'provisioned' | 'warm throughput' | 'on-demand maximum' | 'a new on-demand table';
}

/**
 * DescribeTable (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeTable.html): the
 * key schema, BillingModeSummary (absent on tables created provisioned), ProvisionedThroughput.WriteCapacityUnits,
 * OnDemandThroughput.MaxWriteRequestUnits (a cap the owner set) and WarmThroughput.WriteUnitsPerSecond (what
 * the table takes instantly: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableWarmThroughputDescription.html).
 */
export async function readTableCapacity(dynamodb: DynamoDBClient, name: string): Promise<TableCapacity> {
  const table = await dynamodb.send(new DescribeTableCommand({ TableName: name })).then(
    (answer) => answer.Table,
    (error: Error) => {
      if (error.name !== 'ResourceNotFoundException') throw error;
      throw new CloudCommandError(
        `table ${JSON.stringify(name)} not found: create it first (the import writes existing tables), or check AWS_REGION`,
      );
    },
  );
  const keys: KeyAttribute[] = (table?.KeySchema ?? []).map((k) => ({
    name: k.AttributeName ?? '',
    role: k.KeyType === 'RANGE' ? 'RANGE' : 'HASH',
    type: (table?.AttributeDefinitions?.find((d) => d.AttributeName === k.AttributeName)?.AttributeType ??
      'S') as KeyAttribute['type'],
  }));
  const billingMode = table?.BillingModeSummary?.BillingMode === 'PAY_PER_REQUEST' ? 'PAY_PER_REQUEST' : 'PROVISIONED';
  if (billingMode === 'PROVISIONED') {
    return {
      name,
      keys,
      billingMode,
      writeUnitsPerSecond: table?.ProvisionedThroughput?.WriteCapacityUnits ?? 0,
      from: 'provisioned',
    };
  }
  const warm = table?.WarmThroughput?.WriteUnitsPerSecond;
  const max = table?.OnDemandThroughput?.MaxWriteRequestUnits;
  const instant =
    warm && warm > 0
      ? { writeUnitsPerSecond: warm, from: 'warm throughput' as const }
      : { writeUnitsPerSecond: NEW_ON_DEMAND_WRITES_PER_SECOND, from: 'a new on-demand table' as const };
  // A maximum of -1 (or none) means no cap (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_OnDemandThroughput.html).
  if (max !== undefined && max > 0 && max < instant.writeUnitsPerSecond)
    return { name, keys, billingMode, writeUnitsPerSecond: max, from: 'on-demand maximum' };
  return { name, keys, billingMode, ...instant };
}
