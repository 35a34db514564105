import { readFileSync } from 'node:fs';
import { TransactionCanceledException, TransactWriteItemsCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { ImportLedger, type Admit } from '../../../lambdas/admission/ledger.js';
import { ensureLedgerTable } from '../../../cli/local-run/local-stack.js';
import { ASL_DEFINITION_FILE } from '../../../lib/workflow-tasks.js';
import { dynamodb, uniqueName } from '../../e2e/harness.js';

const ask: Admit = {
  execution: 'busy',
  table: 't',
  want: 4,
  capped: false,
  poolLanes: null,
  tableLanes: 10,
  maxWriteRate: 0,
};

/**
 * The real client, except that once `busy()` says so every transaction is cancelled as DynamoDB cancels one that
 * meets another on the same item (TransactionConflict:
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html).
 */
function conflictingWhen(busy: () => boolean): Pick<DynamoDBClient, 'send'> {
  const send = async (command: object) => {
    if (!(command instanceof TransactWriteItemsCommand) || !busy()) return dynamodb.send(command as never);
    throw new TransactionCanceledException({
      message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
      $metadata: { httpStatusCode: 400 },
      CancellationReasons: [{ Code: 'TransactionConflict' }],
    });
  };
  return { send: send as never };
}

/** The ErrorEquals of every Retry of a top-level Task state of the workflow file. */
function retriedErrors(state: string): string[] {
  const definition = JSON.parse(readFileSync(new URL(`../../../${ASL_DEFINITION_FILE}`, import.meta.url), 'utf8')) as {
    States: Record<string, { Retry?: { ErrorEquals: string[] }[] }>;
  };
  return (definition.States[state].Retry ?? []).flatMap((r) => r.ErrorEquals);
}

describe('a release the ledger keeps cancelling (issue 38, risk 1)', () => {
  let table: string;
  beforeEach(async () => {
    table = uniqueName('ledger');
    await ensureLedgerTable(dynamodb, table);
  });

  it('fails with LedgerBusyError, a name the Retry of Summarize and of ReleaseLanes match, and a retry releases', async () => {
    let busy = false;
    const ledger = new ImportLedger(
      conflictingWhen(() => busy),
      table,
      Date.now,
      async () => {},
    );
    expect((await ledger.admit(ask)).granted).toBe(4);
    busy = true;

    const failure = await ledger.release('busy').then(
      () => null,
      (error: Error) => error,
    );

    expect(failure).toMatchObject({ name: 'LedgerBusyError', message: expect.stringContaining('busy') });
    // Without the name in a retrier, Summarize (no Catch) fails the execution after every row was written.
    for (const state of ['Summarize', 'ReleaseLanes']) expect(retriedErrors(state), state).toContain(failure!.name);
    expect(await ledger.read('busy')).not.toBeNull(); // still held: the retry has something to do
    busy = false; // the retry, once the conflict has passed
    await ledger.release('busy');
    expect(await ledger.read('busy')).toBeNull();
  });
});
