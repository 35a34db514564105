import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import type { RunnerEvent, StateEvent } from '../../../cli/local-run/run-options.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import { expectTableMatches, ngramImport, runWithEvents, throttleError, withOwnLedger } from './fixture.js';

/** The ledger's item calls: what Preflight (admission), ImportChunk (lease) and Summarize (release) send. */
const LEDGER_ITEM_CALLS = new Set([
  'GetItemCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchGetItemCommand',
]);

/**
 * Throws ProvisionedThroughputExceededException (as DynamoDB's deserializer builds it) for the next ledger item call
 * each time `arm()` is called; in the initialize step, outside the SDK's own retry, as if the SDK had given up.
 */
function throttleLedgerCalls(dynamodb: DynamoDBClient, ledgerTable: string) {
  const armed = { count: 0, thrown: 0 };
  dynamodb.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TableName?: string; RequestItems?: object };
      const ledger = input.TableName === ledgerTable || Object.keys(input.RequestItems ?? {}).includes(ledgerTable);
      if (ledger && LEDGER_ITEM_CALLS.has(context.commandName ?? '') && armed.count > 0) {
        armed.count--;
        armed.thrown++;
        throw throttleError();
      }
      return next(args);
    },
    { step: 'initialize', name: 'own-throttle' },
  );
  return { arm: () => armed.count++, thrown: () => armed.thrown };
}

describe("throttles the functions' own calls meet", () => {
  it('are retried by Preflight and Summarize (ThrottledError), and the import completes', async () => {
    const { table, request, rows } = await ngramImport(2000, 1);
    const wiring = withOwnLedger(createWiring()); // clients of its own: the fault stays in this test
    const throttles = throttleLedgerCalls(wiring.dynamodb, wiring.ledger.tableName);
    throttles.arm(); // Preflight's admission
    const onEvent = (e: RunnerEvent) => void (e.type === 'chunk-progress' && e.done && throttles.arm()); // Summarize's release
    const retried: StateEvent[] = [];
    const onStateEvent = (e: StateEvent) => void (e.type === 'StateRetried' && retried.push(e));

    const { summary } = await runWithEvents(request, { maxConcurrency: 2, wiring, onEvent, onStateEvent });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length });
    expect(throttles.thrown()).toBe(2);
    expect(retried.map((e) => e.state?.name)).toEqual(['Preflight', 'Summarize']);
    for (const e of retried) expect(e.retry?.retrier.ErrorEquals).toContain('ThrottledError');
    await expectTableMatches(table, rows);
  }, 60_000);
});
