import {
  GetItemCommand,
  PutItemCommand,
  ScanCommand,
  TransactionCanceledException,
  TransactWriteItemsCommand,
  type DynamoDBClient,
  type ScanCommandInput,
} from '@aws-sdk/client-dynamodb';
import { countLanes } from '../../../lambdas/admission/lane-admission.js';
import { countsOf, LANES_KEY } from '../../../lambdas/admission/ledger-items.js';
import { beforeEach, describe, expect, it } from 'vitest';
import { ImportLedger, LEASE_MS, type Admit } from '../../../lambdas/admission/ledger.js';
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
 * The real client, except that each Scan is sent with Limit 1, so the engine ends every page after one item with a
 * LastEvaluatedKey (as DynamoDB does at 1 MB: API_Scan.html); each Scan input is kept in `asked`, and `afterScan`
 * runs once a page has been read, before the ledger acts on it.
 */
function pagedScans(asked: ScanCommandInput[], afterScan: () => Promise<unknown> = async () => {}) {
  const send = async (command: object) => {
    if (!(command instanceof ScanCommand)) return dynamodb.send(command as never);
    asked.push(command.input);
    const page = await dynamodb.send(new ScanCommand({ ...command.input, Limit: 1 }));
    await afterScan();
    return page;
  };
  return { send: send as never } as Pick<DynamoDBClient, 'send'>;
}

/**
 * The real client, except that its first `conflicts` transactions are cancelled as DynamoDB cancels one that meets
 * another on the same item (TransactionConflict: API_TransactWriteItems.html) before reaching the engine.
 */
function conflicting(conflicts: number): Pick<DynamoDBClient, 'send'> {
  let left = conflicts;
  const send = async (command: object) => {
    if (!(command instanceof TransactWriteItemsCommand) || left-- <= 0) return dynamodb.send(command as never);
    throw new TransactionCanceledException({
      message:
        'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict, None]',
      $metadata: { httpStatusCode: 400 },
      CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
    });
  };
  return { send: send as never };
}

/** The lanes item as it is, strongly consistent. */
async function lanesItem(table: string) {
  const { Item } = await dynamodb.send(new GetItemCommand({ TableName: table, Key: LANES_KEY, ConsistentRead: true }));
  return Item;
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
    expect(await lanesItem(table)).toBeUndefined();
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
    // The counters say what the imports' own items hold, however the race went.
    expect(countsOf(await lanesItem(table), 't')).toEqual(countLanes(await ledger.holders(), 't'));
  });

  it('keeps the lanes item the same size however many imports hold lanes (counters, not a list)', async () => {
    const many = { tableLanes: 1000, want: 1 };
    await ledger.admit(ask('first', many));
    const names = Object.keys((await lanesItem(table))!).sort();
    for (let i = 0; i < 120; i++) await ledger.admit(ask(`i${i}`, many));
    const after = (await lanesItem(table))!;
    // The same attributes; only the four counters' digits grew (1 to 121). The pool that listed each holder grew
    // ~70-120 bytes per import, past 400 KB near 4,000 imports.
    expect(Object.keys(after).sort()).toEqual(names);
    expect(JSON.stringify(after).length).toBeLessThan(200);
    expect(countsOf(await lanesItem(table), 't')).toMatchObject({ poolHeld: 121, tableImports: 121 });
    expect(Object.keys(await ledger.holders())).toHaveLength(121);
  });

  it('admits and releases through transactions that met others: waits a jittered, growing time and tries again', async () => {
    const waits: number[] = [];
    const busy = new ImportLedger(
      conflicting(3),
      table,
      () => now,
      async (ms) => void waits.push(ms),
    );
    expect((await busy.admit(ask('a'))).granted).toBe(4);
    expect(waits).toHaveLength(3);
    waits.forEach((ms, i) => expect(ms).toBeLessThanOrEqual(25 * 2 ** i)); // full jitter under 25, 50, 100 ms
    const releasing = new ImportLedger(
      conflicting(2),
      table,
      () => now,
      async (ms) => void waits.push(ms),
    );
    await releasing.release('a');
    expect(waits).toHaveLength(5);
    expect(await ledger.read('a')).toBeNull();
    expect(countsOf(await lanesItem(table), 't')).toMatchObject({ poolHeld: 0, tableHeld: 0, tableImports: 0 });
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

  it('reads the holders strongly consistent, page after page, and reclaims the lease it read run out', async () => {
    await ledger.admit(ask('alive', { want: 6 }));
    const longAgo = new ImportLedger(dynamodb, table, () => now - LEASE_MS - 1);
    await longAgo.admit(ask('ghost', { want: 4 })); // its lease ran out a millisecond ago
    const asked: ScanCommandInput[] = [];
    const paged = new ImportLedger(pagedScans(asked), table, () => now);
    // The table's 10 lanes are full: ghost's 4 go to next, alive keeps its 6.
    expect(await paged.admit(ask('next'))).toMatchObject({ granted: 4 });
    expect(await ledger.read('ghost')).toBeNull();
    expect(await ledger.read('alive')).toMatchObject({ lanes: 6 });
    // The lanes item and three imports' items, one a page, and a last page that is empty.
    expect(asked.length).toBeGreaterThanOrEqual(3);
    for (const input of asked) expect(input).toMatchObject({ TableName: table, ConsistentRead: true });
  });

  it('keeps the lanes of an import that renews its lease between the read and the reclaim', async () => {
    const slow = new ImportLedger(dynamodb, table, () => now - LEASE_MS - 1);
    await slow.admit(ask('slow', { want: 10 })); // read as run out...
    const renewed = pagedScans([], () => ledger.renew('slow')); // ...and renewed before the reclaim lands
    expect((await new ImportLedger(renewed, table, () => now).admit(ask('next'))).granted).toBe(0);
    expect(await ledger.read('slow')).toMatchObject({ lanes: 10 });
    await ledger.release('slow');
    expect((await ledger.admit(ask('next'))).granted).toBe(4);
  });

  it('releases an import admitted before the counters (no `capped`) by deleting its item, leaving the counts', async () => {
    await ledger.admit(ask('new', { want: 3 }));
    // As the pool-list ledger wrote an import's item; its lanes were counted in the old pool item, not here.
    const old = { pk: { S: 'import#old' }, table: { S: 't' }, lanes: { N: '5' }, leaseUntil: { N: String(now) } };
    await dynamodb.send(new PutItemCommand({ TableName: table, Item: { ...old, paused: { BOOL: false } } }));
    await ledger.release('old');
    expect(await ledger.read('old')).toBeNull();
    expect(countsOf(await lanesItem(table), 't')).toMatchObject({ poolHeld: 3, tableHeld: 3, tableImports: 1 });
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
