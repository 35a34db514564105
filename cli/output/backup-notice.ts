import { DescribeTableCommand, ResourceNotFoundException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BackupRequiredError, TableNotFoundError } from '../../lambdas/contract/errors.js';
import type { ResolvedRequest } from '../../lambdas/contract/import-request.js';
import type { TableSafety } from '../../lambdas/contract/table-safety.js';
import { checkTableSafety } from '../../lambdas/table-checks/table-safety-check.js';
import { tableSafetyIo } from '../../lambdas/table-checks/table-safety-io.js';
import { CliError } from './cli-error.js';
import type { Output } from './summary.js';

/**
 * The request's table does not exist: found by the CLI before anything is uploaded or started. Its name stays
 * `TableNotFoundError`, the name preflight fails with, so `--json`'s `error` field reads the same either way; its
 * hint says how to get the table (`local`: --create-table; `start`: create it in the account first).
 */
export class MissingTableError extends CliError {
  constructor(table: string, hint: string, cause: unknown) {
    super(`table ${JSON.stringify(table)} does not exist`, { hint, cause });
    this.name = 'TableNotFoundError';
  }
}

/**
 * Before `local` or `start` starts an import: DescribeTable (a missing table stops here, with `missingTableHint`,
 * before any upload) and the same safety check preflight makes (lambdas/table-checks/table-safety-check.ts), with the
 * CLI's client, so the user reads it before anything is uploaded or started. Its warning goes to stderr; an
 * unprotected `delete` throws BackupRequiredError (the caller prints it and exits 1, as for a refused request).
 * Any other failure (the CLI's identity may not read the table or its backups: only the stack's roles are granted
 * that) is a note, and the import goes on: preflight checks again with its own role, and fails there with the
 * error as it is.
 *
 * @example
 * await noticeBeforeStart(dynamodb, resolved, output, 'give --create-table --pk id to create it');
 */
export async function noticeBeforeStart(
  dynamodb: DynamoDBClient,
  request: Pick<ResolvedRequest, 'table' | 'mode' | 'dryRun' | 'allowWithoutBackup'>,
  output: Output,
  missingTableHint: string,
): Promise<TableSafety | null> {
  let safety: TableSafety | null;
  try {
    await describeTable(dynamodb, request.table);
    safety = await checkTableSafety(request, tableSafetyIo(dynamodb));
  } catch (error) {
    if (error instanceof BackupRequiredError) throw error;
    if (error instanceof TableNotFoundError) throw new MissingTableError(request.table, missingTableHint, error);
    const { name, message } = error as Error;
    output.err(
      `note: could not check table ${JSON.stringify(request.table)} and its point-in-time recovery ` +
        `(${name}: ${message}); preflight checks them before any write`,
    );
    return null;
  }
  if (safety?.warning) output.err(`warning: ${safety.warning}`);
  return safety;
}

async function describeTable(dynamodb: DynamoDBClient, table: string): Promise<void> {
  try {
    await dynamodb.send(new DescribeTableCommand({ TableName: table }));
  } catch (error) {
    if (error instanceof ResourceNotFoundException) throw new TableNotFoundError(table, { cause: error });
    throw error;
  }
}
