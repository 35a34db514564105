import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BackupRequiredError } from '../../lambdas/contract/errors.js';
import type { ResolvedRequest } from '../../lambdas/contract/import-request.js';
import type { TableSafety } from '../../lambdas/contract/table-safety.js';
import { checkTableSafety } from '../../lambdas/table-checks/table-safety-check.js';
import { tableSafetyIo } from '../../lambdas/table-checks/table-safety-io.js';
import type { Output } from './summary.js';

/**
 * Before `local` or `start` starts an import: the same safety check preflight makes (lambdas/table-checks/table-safety-check.ts),
 * with the CLI's client, so the user reads it before anything is uploaded or started. Its warning goes to stderr;
 * an unprotected `delete` throws BackupRequiredError (the caller prints it and exits 1, as for a refused request).
 * Any other failure (the CLI's identity may not read the table's backups: only the stack's preflight role is granted
 * that; the table is missing) is a note, and the import goes on: preflight checks again with its own role, and
 * fails there with the error as it is.
 */
export async function noticeBeforeStart(
  dynamodb: DynamoDBClient,
  request: Pick<ResolvedRequest, 'table' | 'mode' | 'dryRun' | 'allowWithoutBackup'>,
  output: Output,
): Promise<TableSafety | null> {
  let safety: TableSafety | null;
  try {
    safety = await checkTableSafety(request, tableSafetyIo(dynamodb));
  } catch (error) {
    if (error instanceof BackupRequiredError) throw error;
    const { name, message } = error as Error;
    output.err(
      `note: could not check the point-in-time recovery of table ${JSON.stringify(request.table)} ` +
        `(${name}: ${message}); preflight checks it before any write`,
    );
    return null;
  }
  if (safety?.warning) output.err(`warning: ${safety.warning}`);
  return safety;
}
