import { DescribeContinuousBackupsCommand, ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { TableNotFoundError } from '../contract/errors.js';
import type { PointInTimeRecovery } from '../contract/table-safety.js';
import type { TableSafetyIo } from './table-safety-check.js';

/**
 * The safety check's reads, bound to a DynamoDB client (preflight's, and the CLI's before it starts an import):
 * DescribeContinuousBackups (IAM dynamodb:DescribeContinuousBackups) and Scan with Limit 1 (dynamodb:Scan), on the
 * table. A missing table is TableNotFoundError, as DescribeTable's is in preflight-io.ts.
 */
export function tableSafetyIo(dynamodb: DynamoDBClient): TableSafetyIo {
  return {
    async pointInTimeRecovery(table) {
      try {
        const answer = await dynamodb.send(new DescribeContinuousBackupsCommand({ TableName: table }));
        const status = answer.ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.PointInTimeRecoveryStatus;
        return status === 'ENABLED' ? 'ENABLED' : 'DISABLED';
      } catch (error) {
        // A DynamoDB emulator without backups answers every backup operation with UnknownOperationException (HTTP 400): it keeps
        // no backups, so nothing could be restored. Its answer is used as it is: no point-in-time recovery.
        if ((error as Error).name === 'UnknownOperationException') return 'UNSUPPORTED' satisfies PointInTimeRecovery;
        throw notFound(error, table);
      }
    },
    async tableHoldsItems(table) {
      try {
        const answer = await dynamodb.send(new ScanCommand({ TableName: table, Limit: 1, Select: 'COUNT' }));
        // Should a page come back empty but with a LastEvaluatedKey, more may follow: taken as holding items
        // rather than read on (one warning too many beats one too few).
        return (answer.Count ?? 0) > 0 || answer.LastEvaluatedKey !== undefined;
      } catch (error) {
        throw notFound(error, table);
      }
    },
  };
}

function notFound(error: unknown, table: string): unknown {
  const name = (error as Error).name;
  if (name === 'ResourceNotFoundException' || name === 'TableNotFoundException') {
    return new TableNotFoundError(table, { cause: error });
  }
  return error;
}
