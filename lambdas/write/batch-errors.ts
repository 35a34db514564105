import { BatchWriteFailedError } from '../contract/errors.js';

/** The error a BatchWriteItem not worth retrying fails the writer with (a validation error, a missing table). */
export function batchWriteFailed(table: string, error: unknown): BatchWriteFailedError {
  return new BatchWriteFailedError(`BatchWriteItem on ${table} failed: ${(error as Error).message}`, { cause: error });
}

/** The error a batch fails with once its retry budget is spent (`lastError` undefined: rows left unprocessed). */
export function batchRetriesSpent(table: string, left: number, attempts: number, lastError: unknown) {
  const why = lastError ? `last error: ${(lastError as Error).name}` : 'still unprocessed';
  const message = `${left} items not written to ${table} after ${attempts} attempts (${why})`;
  return new BatchWriteFailedError(message, { cause: lastError });
}
