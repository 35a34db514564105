import type { BatchStatementRequest, BatchStatementResponse } from '@aws-sdk/client-dynamodb';
import type { Item } from './item-sink.js';
import type { StatementKind, StatementMode } from './statement-mode.js';
import { StatementWriteFailedError } from '../contract/errors.js';

/** One item on its way as a PartiQL statement: which statement it goes as now, and its statements once built. */
export interface Pending {
  readonly item: Item;
  /** The key's canonical text, for error messages. */
  readonly key: string;
  kind: StatementKind;
  /** Times it went from UPDATE to INSERT or back. */
  switches: number;
  /** Its last statement came back throttled (it goes again after the backoff). */
  throttled?: boolean;
  insert?: BatchStatementRequest;
  update?: BatchStatementRequest;
}

/**
 * Statement error codes worth sending again after a wait: the throttles, a server error and a conflict with a
 * transaction on the item, from BatchStatementError's codes
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchStatementError.html). The others
 * (ValidationError, ItemCollectionSizeLimitExceeded, ResourceNotFound, AccessDenied) would fail again.
 */
const RETRYABLE_CODES = new Set([
  'ProvisionedThroughputExceeded',
  'ThrottlingError',
  'RequestLimitExceeded',
  'InternalServerError',
  'TransactionConflict',
]);

/**
 * An item that went from UPDATE to INSERT and back this many times meets another writer creating and deleting it
 * between our statements: the import fails rather than loop.
 */
export const MAX_SWITCHES = 4;

/** What one reply settled, and what goes again. */
export interface StatementOutcome {
  written: number;
  skipped: number;
  /** UPDATEs that found no item, and statements that found one (INSERT's DuplicateItem, an UPDATE written). */
  missing: number;
  found: number;
  /** Statements to send again: throttled ones (marked `throttled`), and updates switching between UPDATE and INSERT. */
  next: Pending[];
}

/**
 * Reads a BatchExecuteStatement reply, whose responses come in the order of the statements: a statement written;
 * an UPDATE that found no item (ConditionalCheckFailed) goes again as its INSERT; an INSERT that found an item
 * (DuplicateItem) is what the mode says (`onDuplicate`: skipped, written, or its UPDATE next). Throws
 * StatementWriteFailedError for an error no retry mends, naming the item's key.
 */
export function statementOutcomes(
  mode: StatementMode,
  { table, keyCount }: { readonly table: string; readonly keyCount: number },
  sent: readonly Pending[],
  responses: readonly BatchStatementResponse[],
): StatementOutcome {
  const outcome: StatementOutcome = { written: 0, skipped: 0, missing: 0, found: 0, next: [] };
  sent.forEach((entry, i) => {
    const code = responses[i]?.Error?.Code;
    entry.throttled = code !== undefined && RETRYABLE_CODES.has(code);
    if (code === undefined) {
      outcome.written++;
      if (entry.kind === 'update') outcome.found++;
    } else if (entry.throttled) {
      outcome.next.push(entry);
    } else if (code === 'DuplicateItem' && entry.kind === 'insert') {
      outcome.found++;
      const duplicate = mode.onDuplicate(entry.item, keyCount);
      if (duplicate === 'update') outcome.next.push(switched(entry, 'update', table));
      else outcome[duplicate]++;
    } else if (code === 'ConditionalCheckFailed' && entry.kind === 'update') {
      outcome.missing++;
      outcome.next.push(switched(entry, 'insert', table));
    } else {
      throw statementError(table, entry, code, responses[i]?.Error?.Message);
    }
  });
  return outcome;
}

function switched(entry: Pending, kind: StatementKind, table: string): Pending {
  if (++entry.switches > MAX_SWITCHES)
    throw statementError(table, entry, 'Conflict', 'another writer keeps creating and deleting the item');
  entry.kind = kind;
  return entry;
}

function statementError(table: string, entry: Pending, code: string, message: string | undefined) {
  const statement = entry.kind === 'insert' ? 'INSERT' : 'UPDATE';
  return new StatementWriteFailedError(
    `${statement} into ${table} failed with ${code}${message ? ` (${message})` : ''} for the item of key ${entry.key}`,
  );
}
