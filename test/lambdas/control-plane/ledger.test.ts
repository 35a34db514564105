import {
  BatchGetItemCommand,
  GetItemCommand,
  type BatchGetItemCommandOutput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { ImportLedger, LEASE_MS, type Admit } from '../../../lambdas/control-plane/ledger.js';
import { ensureLedgerTable } from '../../../cli/local-run/local-stack.js';
import { dynamodb, uniqueName } from '../../e2e/harness.js';

const ask = (execution: string, over: Partial<Admit> = {}): Admit => ({
  execution,
  table: 't',
  want: 4,
  capped: false,
  poolLanes: null,
  tableLanes: 10,
  maxWriteRate: 0,
  ...over,
});

/** The real client, with the name of each command the ledger sends written down. */
function recording(sent: string[]): Pick<DynamoDBClient, 'send'> {
  return {
    send: ((command: object) => (sent.push(command.constructor.name), dynamodb.send(command as never))) as never,
  };
}

/**
 * The real client, except that DynamoDB leaves the keys of `unread` imports unprocessed in each BatchGetItem (as it
 * may under load: API_BatchGetItem.html); each BatchGetItem input is kept in `asked`.
 */
function leavingUnprocessed(unread: readonly string[], asked: object[]): Pick<DynamoDBClient, 'send'> {
  const send = async (command: object) => {
    const output = await dynamodb.send(command as never);
    if (!(command instanceof BatchGetItemCommand)) return output;
    asked.push(command.input);
    const { Responses = {} } = output as BatchGetItemCommandOutput;
    const keys = unread.map((name) => ({ pk: { S: `import#${name}` } }));
    const [table, items] = Object.entries(Responses)[0];
    const kept = items.filter((item) => !keys.some((key) => key.pk.S === item.pk?.S));
    return { ...output, Responses: { [table]: kept }, UnprocessedKeys: { [table]: { Keys: keys } } };
  };
  return { send: send as never };
}

describe('the ledger of running imports, on the local engine', () => {
  let now = 1_000_000;
  let table: string;
  let ledger: ImportLedger;
  beforeEach(async () => {
    table = uniqueName('ledger');
    await ensureLedgerTable(dynamodb, table);
    ledger = new ImportLedger(dynamodb, table, () => now);
  });

  it('releases on a fresh ledger (an empty import: never admitted) with reads and deletes only, making no item', async () => {
    const sent: string[] = [];
    // Summarize's role may GetItem, UpdateItem and DeleteItem on the ledger, not PutItem (issue 26, break 1).
    await new ImportLedger(recording(sent), table, () => now).release('empty');
    expect(sent.filter((name) => !/^(Get|Delete)ItemCommand$/.test(name))).toEqual([]);
    const { Item } = await dynamodb.send(
      new GetItemCommand({ TableName: table, Key: { pk: { S: 'pool' } }, ConsistentRead: true }),
    );
    expect(Item).toBeUndefined();
  });

  it('grants lanes, gives the same grant to the same import again, and takes them back on release', async () => {
    expect((await ledger.admit(ask('a'))).granted).toBe(4);
    expect((await ledger.admit(ask('a'))).granted).toBe(4);
    expect((await ledger.admit(ask('b', { want: 10 }))).granted).toBe(6);
    expect((await ledger.admit(ask('c'))).granted).toBe(0);
    await ledger.release('a');
    await ledger.release('a'); // a second release (a retried Summarize) changes nothing
    expect((await ledger.admit(ask('c'))).granted).toBe(4);
  });

  it('never grants more than the table holds when 20 imports ask at once', async () => {
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => ledger.admit(ask(`x${i}`, { want: 3 }))));
    const granted = decisions.reduce((sum, d) => sum + d.granted, 0);
    // 10 lanes: three imports of 3 and one of 1, however the race went; every other one waits.
    expect(granted).toBe(10);
    expect(decisions.filter((d) => d.granted > 0).length).toBe(4);
  });

  it('hands the lanes of an import whose lease ran out to the next one that needs them', async () => {
    expect((await ledger.admit(ask('gone', { want: 10 }))).granted).toBe(10);
    expect((await ledger.admit(ask('next'))).granted).toBe(0);
    now += LEASE_MS - 1; // the lease still holds
    expect((await ledger.admit(ask('next'))).granted).toBe(0);
    now += 2;
    expect((await ledger.admit(ask('next'))).granted).toBe(4);
    expect(await ledger.read('gone')).toBeNull();
  });

  it('reads leases strongly consistent and keeps the lanes of an import whose lease DynamoDB left unprocessed', async () => {
    await ledger.admit(ask('alive', { want: 6 }));
    const longAgo = new ImportLedger(dynamodb, table, () => now - LEASE_MS - 1);
    await longAgo.admit(ask('ghost', { want: 4 })); // its lease ran out a millisecond ago
    const asked: object[] = [];
    const busy = new ImportLedger(leavingUnprocessed(['alive'], asked), table, () => now);
    // ghost's lease was read and has run out: its 4 lanes go to next; alive's was not read, so alive keeps its 6.
    expect(await busy.admit(ask('next'))).toMatchObject({ granted: 4 });
    expect(await ledger.read('ghost')).toBeNull();
    expect(await ledger.read('alive')).toMatchObject({ lanes: 6 });
    expect((await busy.admit(ask('later'))).granted).toBe(0);
    expect(await ledger.read('alive')).toMatchObject({ lanes: 6 });
    expect(asked).not.toEqual([]);
    for (const input of asked) expect(input).toMatchObject({ RequestItems: { [table]: { ConsistentRead: true } } });
  });

  it('keeps a live import: renewing its lease keeps its lanes past the first lease', async () => {
    await ledger.admit(ask('alive', { want: 10 }));
    now += LEASE_MS - 1000;
    expect(await ledger.renew('alive')).toMatchObject({ lanes: 10, paused: false });
    now += 2000;
    expect((await ledger.admit(ask('next'))).granted).toBe(0);
  });

  it('changes a running import’s rate and pause, read back by its lanes; none for an unknown import', async () => {
    await ledger.admit(ask('live', { maxWriteRate: 500 }));
    expect(await ledger.renew('live')).toEqual({
      execution: 'live',
      table: 't',
      lanes: 4,
      maxWriteRate: 500,
      paused: false,
    });
    expect(await ledger.setRate('live', 2000)).toMatchObject({ maxWriteRate: 2000 });
    expect(await ledger.setPaused('live', true)).toMatchObject({ paused: true, maxWriteRate: 2000 });
    expect(await ledger.renew('live')).toMatchObject({ paused: true, maxWriteRate: 2000 });
    expect(await ledger.setRate('nobody', 1)).toBeNull();
    await ledger.release('live');
    expect(await ledger.renew('live')).toBeNull();
  });
});
