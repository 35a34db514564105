import { BatchWriteItemCommand, UpdateContinuousBackupsCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ImportRequest } from '../../lambdas/contract/import-request.js';
import { DEFAULT_REJECTS_PREFIX, resolveLambdaConfig } from '../../lambdas/environment/config.js';
import { WRITE_MODE_TABLE } from '../../lambdas/write/write-modes.js';
import { CHUNK_LAYOUTS } from '../../lambdas/chunk-layouts/chunk-layouts.js';
import { SOURCE_FORMATS } from '../../lambdas/formats/record-formats.js';
import { createPreflightHandler } from '../../lambdas/preflight/handler.js';
import { runPreflight } from '../../lambdas/preflight/preflight.js';
import { preflightIo } from '../../lambdas/preflight/preflight-io.js';
import { createWiring, type Wiring } from '../../lambdas/wiring/wiring.js';
import type { PlanningState } from '../../lambdas/contract/workflow-payloads.js';
import { lastJsonLine, runCli } from './cli-process.js';
import { LOCAL_BUCKET } from '../../cli/local-run/local-stack.js';
import { createBucket, createTable, dynamodb, listKeys, putText, runImport, scanAll, uniqueName } from './harness.js';

/**
 * The safety net before an import that can destroy data, against the local engine, which answers as DynamoDB does: a
 * new table has point-in-time recovery off (DescribeContinuousBackups says DISABLED), and UpdateContinuousBackups turns
 * it on (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateContinuousBackups.html). A server
 * that knows no backup operation at all (UNSUPPORTED) is covered by test/lambdas/table-checks/table-safety-check.test.ts.
 */

/** Five items keyed by `id`, each with n = 1; the file names three of them with n = 99 and one new key. */
const SEEDED = ['a', 'b', 'c', 'd', 'e'];
const FILE = 'id,n\na,99\nc,99\ne,99\nz,99\n';

async function setUp(seed = true) {
  const table = await createTable(['id', 'S']);
  if (seed) {
    const puts = SEEDED.map((id) => ({ PutRequest: { Item: { id: { S: id }, n: { N: '1' } } } }));
    await dynamodb.send(new BatchWriteItemCommand({ RequestItems: { [table]: puts } }));
  }
  const bucket = await createBucket();
  await putText(bucket, 'safety/rows.csv', FILE);
  const request: ImportRequest = { bucket, key: 'safety/rows.csv', table, types: { n: 'N' } };
  return { table, bucket, request };
}

/** The table's items, in key order: compared item by item with what was seeded. */
const itemsOf = async (table: string) =>
  (await scanAll(table)).sort((x, y) => String(x.id.S).localeCompare(String(y.id.S)));
const seededItems = (): Record<string, AttributeValue>[] => SEEDED.map((id) => ({ id: { S: id }, n: { N: '1' } }));

type Mw = (
  next: (args: unknown) => Promise<unknown>,
  context: { commandName?: string },
) => (args: unknown) => Promise<unknown>;

/** Turns point-in-time recovery on, as an operator would before a delete import. */
async function turnPitrOn(table: string): Promise<void> {
  const update = new UpdateContinuousBackupsCommand({
    TableName: table,
    PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
  });
  const { ContinuousBackupsDescription } = await dynamodb.send(update);
  expect(ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.PointInTimeRecoveryStatus).toBe('ENABLED');
}

/**
 * Preflight alone, on the real engine, up to the ledger: a ledger that grants no lanes, so the state comes back
 * waiting and nothing is imported (the import's writers are not what these tests are about). Returns the state and
 * the DynamoDB commands preflight sent.
 */
async function preflightOnly(request: ImportRequest) {
  const wiring = createWiring({ config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null } });
  const sent: string[] = [];
  const record: Mw = (next, context) => async (args) => (sent.push(context.commandName ?? ''), next(args));
  const stack = wiring.dynamodb.middlewareStack as unknown as { add(mw: Mw, options: object): void };
  stack.add(record, { step: 'initialize', name: 'recordSafety' });
  const event = {
    input: request,
    executionName: uniqueName('safety'),
    execution: { id: 'x', startTime: new Date().toISOString(), stateMachineArn: 'arn' },
    maxConcurrency: 4,
  };
  const state = await runPreflight(event, preflightIo(wiring.s3, wiring.dynamodb), {
    ...resolveLambdaConfig(wiring.config),
    shouldStop: () => false,
    writeModes: WRITE_MODE_TABLE,
    formats: SOURCE_FORMATS,
    layouts: CHUNK_LAYOUTS,
    control: { importConcurrency: async () => null },
    ledger: { admit: async () => ({ granted: 0, reason: 'the test grants no lanes' }) },
  });
  return { state, sent: sent.filter((name) => name !== 'DescribeTableCommand') };
}

describe('a delete import and point-in-time recovery', () => {
  it('fails when the table has point-in-time recovery off (as a new table has) and the request does not allow it: BackupRequiredError, table unchanged', async () => {
    const { table, request } = await setUp();

    const outcome = await runImport({ ...request, mode: 'delete' }).catch((e: Error) => e);

    expect(outcome).toMatchObject({
      name: 'BackupRequiredError',
      message: expect.stringContaining(`table "${table}" has point-in-time recovery off`),
    });
    expect((outcome as Error).message).toContain(`aws dynamodb update-continuous-backups --table-name ${table}`);
    expect((outcome as Error).message).toContain('"allowWithoutBackup": true');
    // Any write, a put of n = 99 or a delete, would show here.
    expect(await itemsOf(table)).toEqual(seededItems());
  });

  it('lets it start with allowWithoutBackup: preflight passes to the ledger, its output carrying the warning', async () => {
    const { table, request } = await setUp();

    const { state, sent } = await preflightOnly({ ...request, mode: 'delete', allowWithoutBackup: true });

    expect(state.queue).toMatchObject({ waiting: true, reason: 'the test grants no lanes' });
    expect(state.chunks).toHaveLength(1);
    expect(state.safety).toEqual({
      pointInTimeRecovery: 'DISABLED',
      holdsItems: null,
      warning: expect.stringContaining('allowWithoutBackup is set: the items this import deletes cannot be restored'),
    });
    expect(sent).toEqual(['DescribeContinuousBackupsCommand']);
    expect(await itemsOf(table)).toEqual(seededItems());
  });

  it("deletes once point-in-time recovery is on: the file's keys gone, the others untouched", async () => {
    const { table, request } = await setUp();
    await turnPitrOn(table);

    const { summary } = await runImport({ ...request, mode: 'delete' });

    // a, c and e deleted; z had no item (fine); b and d as seeded.
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 4, deleted: 4 });
    expect(await itemsOf(table)).toEqual(seededItems().filter((item) => ['b', 'd'].includes(item.id.S!)));
  });

  it('lets it start when point-in-time recovery is on, with no warning and no Scan', async () => {
    const { table, request } = await setUp();
    await turnPitrOn(table);

    const { state, sent } = await preflightOnly({ ...request, mode: 'delete' });

    expect(state.safety).toEqual({ pointInTimeRecovery: 'ENABLED', holdsItems: null, warning: null });
    expect(state.queue.waiting).toBe(true);
    expect(sent).toEqual(['DescribeContinuousBackupsCommand']);
    expect(await itemsOf(table)).toEqual(seededItems());
  });
});

describe('put and update without point-in-time recovery', () => {
  it.each([
    ['put', 'items with the keys this import writes are replaced'],
    ['update', 'the attributes this import sets replace their old values'],
  ] as const)('%s into a table that holds items: preflight passes with a warning', async (mode, risk) => {
    const { table, request } = await setUp();

    const { state, sent } = await preflightOnly({ ...request, mode });

    expect(state.safety).toEqual({
      pointInTimeRecovery: 'DISABLED',
      holdsItems: true,
      warning: expect.stringContaining(`table "${table}" has point-in-time recovery off`),
    });
    expect(state.safety?.warning).toContain(risk);
    expect(sent).toEqual(['DescribeContinuousBackupsCommand', 'ScanCommand']);
  });

  it('put into an empty table: nothing at risk, no warning', async () => {
    const { request } = await setUp(false);
    const { state } = await preflightOnly(request);
    expect(state.safety).toEqual({ pointInTimeRecovery: 'DISABLED', holdsItems: false, warning: null });
  });

  it('insert: never replaces, so nothing is asked', async () => {
    const { request } = await setUp();
    const { state, sent } = await preflightOnly({ ...request, mode: 'insert' });
    expect(state.safety).toBeUndefined();
    expect(sent).toEqual([]);
  });
});

/** What `body` writes to stderr, line by line (Powertools writes warnings there: test/lambdas/observability). */
async function stderrLines<T>(body: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  }) as typeof process.stderr.write);
  try {
    return { result: await body(), lines };
  } finally {
    spy.mockRestore();
  }
}

describe("preflight's handler", () => {
  it('logs the warning once, on the call that checked the table, as a WARN line naming it', async () => {
    const { table, request } = await setUp();
    const wiring: Wiring = {
      ...createWiring({ config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null } }),
      control: { importConcurrency: async () => null } as Wiring['control'],
      ledger: {
        admit: async () => ({ granted: 0, reason: 'the test grants no lanes' }),
      } as unknown as Wiring['ledger'],
    };
    const handler = createPreflightHandler(wiring);
    const context = { getRemainingTimeInMillis: () => 900_000 };
    const event = (input: ImportRequest | PlanningState) => ({
      input,
      executionName: uniqueName('safety'),
      execution: { id: 'x', startTime: new Date().toISOString(), stateMachineArn: 'arn' },
      maxConcurrency: 4,
    });

    const first = await stderrLines(() => handler(event(request), context));
    const again = await stderrLines(() => handler(event(first.result), context));

    const warnings = (lines: string[]) =>
      lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.level === 'WARN');
    expect(warnings(first.lines)).toEqual([
      expect.objectContaining({
        message: first.result.safety?.warning,
        table,
        safety: { pointInTimeRecovery: 'DISABLED', holdsItems: true, warning: first.result.safety?.warning },
      }),
    ]);
    expect(first.result.safety?.warning).toContain('already holds items');
    expect(warnings(again.lines)).toEqual([]);
  });
});

describe('s3-ddb-import local says so before starting', () => {
  async function cliRun(request: Record<string, unknown>, args: string[] = []) {
    const cwd = await mkdtemp(join(tmpdir(), 'safety-'));
    await writeFile(join(cwd, 'rows.csv'), FILE);
    await writeFile(join(cwd, 'req.json'), JSON.stringify(request));
    return runCli(['local', 'rows.csv', '--request', 'req.json', '--json', ...args], { cwd });
  }

  it('fails when a delete meets a table without point-in-time recovery and no --allow-without-backup: exit 1, the refusal on stderr, table unchanged', async () => {
    const { table } = await setUp();

    const run = await cliRun({ table, types: { n: 'N' }, mode: 'delete' });

    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`import failed: BackupRequiredError: table "${table}" has point-in-time recovery off`);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'FAILED', error: 'BackupRequiredError' });
    expect(await itemsOf(table)).toEqual(seededItems());
  });

  it('refuses before it uploads: the file never reaches the local bucket', async () => {
    const { table } = await setUp();
    const cwd = await mkdtemp(join(tmpdir(), 'safety-'));
    const name = `${uniqueName('refused')}.csv`;
    await writeFile(join(cwd, name), FILE);

    const run = await runCli(['local', name, '--table', table, '--types', 'n=N', '--mode', 'delete', '--json'], {
      cwd,
    });

    expect(run.code).toBe(1);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'FAILED', error: 'BackupRequiredError' });
    expect(await listKeys(LOCAL_BUCKET, `imports/${name}`)).toEqual([]);
    expect(await itemsOf(table)).toEqual(seededItems());
  });

  async function cliFlags(args: string[]) {
    const cwd = await mkdtemp(join(tmpdir(), 'safety-'));
    await writeFile(join(cwd, 'rows.csv'), FILE);
    return runCli(['local', 'rows.csv', '--types', 'n=N', '--json', ...args], { cwd });
  }

  it('fails when --mode delete comes without --allow-without-backup: exit 1, nothing deleted', async () => {
    const { table } = await setUp();
    const run = await cliFlags(['--table', table, '--mode', 'delete']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Turn point-in-time recovery on (aws dynamodb update-continuous-backups --table-name ${table} ` +
        '--point-in-time-recovery-specification PointInTimeRecoveryEnabled=true), or send "allowWithoutBackup": true ' +
        '(CLI: --allow-without-backup) to delete anyway',
    );
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'FAILED', error: 'BackupRequiredError' });
    expect(await itemsOf(table)).toEqual(seededItems());
  });

  it("deletes with --allow-without-backup, the warning on stderr first: the file's keys gone, the others untouched", async () => {
    const { table } = await setUp();
    const run = await cliFlags(['--table', table, '--mode', 'delete', '--allow-without-backup']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      `warning: table "${table}" has point-in-time recovery off, and allowWithoutBackup is set: ` +
        'the items this import deletes cannot be restored',
    );
    expect(run.stderr.indexOf('warning: ')).toBeLessThan(run.stderr.indexOf('execution '));
    // a, c and e deleted; z had no item (fine); b and d as seeded.
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'SUCCEEDED', rows: 4, deleted: 4 });
    expect(await itemsOf(table)).toEqual(seededItems().filter((item) => ['b', 'd'].includes(item.id.S!)));
  });

  it('a dry run of a delete goes on, with the refusal the real run would meet as its warning, table unchanged', async () => {
    const { table } = await setUp();
    const run = await cliFlags(['--table', table, '--mode', 'delete', '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(
      /warning: table "[^"]+" has point-in-time recovery off: a delete import cannot be undone/,
    );
    expect(await itemsOf(table)).toEqual(seededItems());
  });

  it('warns on stderr before a put into a table that holds items, then imports', async () => {
    const { table } = await setUp();

    const run = await cliRun({ table, types: { n: 'N' } });

    expect(run.code, run.stderr).toBe(0);
    const warning = run.stderr.split('\n').find((line) => line.startsWith('warning: '));
    expect(warning).toBe(
      `warning: table "${table}" has point-in-time recovery off and already holds items: ` +
        'items with the keys this import writes are replaced, and cannot be restored',
    );
    // The warning comes before the import starts (the execution line).
    expect(run.stderr.indexOf('warning: ')).toBeLessThan(run.stderr.indexOf('execution '));
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'SUCCEEDED', written: 4 });
  });
});
