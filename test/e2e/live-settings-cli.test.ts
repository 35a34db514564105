import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { commandHelp } from '../../cli/command-line/help.js';
import { liveCommand } from '../../cli/commands/live-commands.js';
import { registerRunning } from '../../cli/local-run/running-registry.js';
import { DEFAULT_LEDGER_TABLE } from '../../lambdas/environment/config.js';
import { ensureLedgerTable } from '../../cli/local-run/local-stack.js';
import { importKey } from '../../lambdas/admission/ledger-items.js';
import { ImportLedger } from '../../lambdas/admission/ledger.js';
import { CLI, lastJsonLine, runCli } from './cli-process.js';
import { createBucket, dynamodb, uniqueName } from './harness.js';

/**
 * `rate`, `pause` and `resume --local` as users run them, in their own process, against the ledger of local runs in
 * the test run's local engine: an import is admitted as the workflow's preflight admits it, then changed.
 */
const ledger = new ImportLedger(dynamodb, DEFAULT_LEDGER_TABLE);
const execution = uniqueName('live');
const table = uniqueName('ngrams');

async function ledgerItem() {
  const { Item } = await dynamodb.send(
    new GetItemCommand({ TableName: DEFAULT_LEDGER_TABLE, Key: importKey(execution) }),
  );
  return {
    maxWriteRate: Item?.maxWriteRate?.N,
    paused: Item?.paused?.BOOL,
    lanes: Item?.lanes?.N,
    lease: Item?.leaseUntil?.N,
  };
}

beforeAll(async () => {
  await ensureLedgerTable(dynamodb, DEFAULT_LEDGER_TABLE);
  const ask = { execution, table, want: 8, capped: true, poolLanes: null, tableLanes: 40, maxWriteRate: 500 };
  expect((await ledger.admit(ask)).granted).toBe(8);
});
afterAll(() => ledger.release(execution));

describe('rate, pause and resume --local (AWS_ENDPOINT_URL_DYNAMODB names the DynamoDB, as in a test run)', () => {
  it('sets the rate, pauses and resumes: the ledger item holds each, and --json prints the live settings', async () => {
    const { lease } = await ledgerItem();
    const rate = await runCli(['rate', execution, '1500', '--local', '--json']);
    expect(rate.code).toBe(0);
    expect(lastJsonLine(rate.stdout)).toEqual({ execution, table, lanes: 8, maxWriteRate: 1500, paused: false });
    // The lease is the lanes' to renew: changing a setting leaves it as it was.
    expect(await ledgerItem()).toEqual({ maxWriteRate: '1500', paused: false, lanes: '8', lease });

    const arn = `arn:aws:states:us-east-1:000000000000:execution:s3-ddb-import-local:${execution}`;
    const pause = await runCli(['pause', arn, '--local', '--json']);
    expect(pause.code).toBe(0);
    expect(lastJsonLine(pause.stdout)).toEqual({ execution, table, lanes: 8, maxWriteRate: 1500, paused: true });
    expect(await ledgerItem()).toEqual({ maxWriteRate: '1500', paused: true, lanes: '8', lease });

    const resume = await runCli(['resume', execution, '--local']);
    expect(resume.code).toBe(0);
    expect(resume.stdout.trim().split('\n').at(-1)).toBe(
      `${execution}: resumed, at most 1500 items/s (8 lanes into ${table} go on from their checkpoints at their next ask, within 5 minutes)`,
    );
    expect(await ledgerItem()).toEqual({ maxWriteRate: '1500', paused: false, lanes: '8', lease });
  });

  it('fails when no running import of that name holds lanes: exit 1, the name, and the imports that run', async () => {
    const missing = uniqueName('nope');
    const run = await runCli(['rate', missing, '10', '--local', '--json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `rate failed: NoRunningImportError: no running import named "${missing}" holds lanes in `,
    );
    expect(run.stderr).toContain(`${execution} (8 lanes into ${table})`);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'FAILED', error: 'NoRunningImportError' });
    expect((await ledgerItem()).maxWriteRate).not.toBe('10');
    expect(await ledger.read(missing)).toBeNull(); // nothing was written for it
  });
});

describe('rate --local finds the running local processes through <cache dir>/running', () => {
  it("skips a dead process's file (and removes it), a DynamoDB that does not answer, and one without a ledger", async () => {
    const cache = await mkdtemp(join(tmpdir(), 'live-cache-'));
    const dir = join(cache, 'running');
    const ended = spawn(process.execPath, ['-e', '']);
    await once(ended, 'exit');
    const { dynamodbEndpoint } = inject('localServices');
    const registered = [
      // a `local` killed with SIGKILL left its file; its engine went with it
      await registerRunning(
        { dynamodbEndpoint: 'http://127.0.0.1:9', ledgerTable: DEFAULT_LEDGER_TABLE },
        { dir, pid: ended.pid },
      ),
      // one that is stopping: its process still runs (our parent stands in), its engine no longer answers
      await registerRunning(
        { dynamodbEndpoint: 'http://127.0.0.1:9', ledgerTable: DEFAULT_LEDGER_TABLE },
        {
          dir,
          pid: process.ppid,
          now: () => 0,
        },
      ),
      // one whose DynamoDB answers but has no ledger table yet (no import of it was admitted); pid 1 always runs
      await registerRunning({ dynamodbEndpoint, ledgerTable: uniqueName('no-ledger') }, { dir, pid: 1, now: () => 1 }),
      await registerRunning({ dynamodbEndpoint, ledgerTable: DEFAULT_LEDGER_TABLE }, { dir }),
    ];
    try {
      const env = {
        AWS_ENDPOINT_URL_DYNAMODB: '',
        S3DDB_CACHE_DIR: cache,
        AWS_ACCESS_KEY_ID: '',
        AWS_SECRET_ACCESS_KEY: '',
      };
      const run = await runCli(['rate', execution, '2000', '--local', '--json'], { env });
      expect(run.code).toBe(0);
      expect(lastJsonLine(run.stdout)).toEqual({ execution, table, lanes: 8, maxWriteRate: 2000, paused: false });
      expect((await readdir(dir)).sort()).toEqual([`${process.pid}.json`, `${process.ppid}.json`, '1.json'].sort());
    } finally {
      registered.forEach((r) => r.remove());
    }
  });
});

describe('local watch registers itself while it runs', () => {
  it('writes <cache dir>/running/<pid>.json, where rate --local finds its ledger, and removes it on Ctrl-C', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'live-watch-'));
    const args = ['local', 'watch', '--prefix', 'in/', '--table', uniqueName('t'), '--bucket', await createBucket()];
    const env = { ...process.env, S3DDB_CACHE_DIR: cache };
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = once(child, 'exit');
    let stderr = '';
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d) => (stderr += d) && /watching s3:/.test(stderr) && resolve());
      void exited.then(() => reject(new Error(`local watch exited:\n${stderr}`)));
    });
    try {
      const file = join(cache, 'running', `${child.pid}.json`);
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
        pid: child.pid,
        dynamodbEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
        ledgerTable: DEFAULT_LEDGER_TABLE,
        startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      // Without AWS_ENDPOINT_URL_DYNAMODB, --local looks in the registered processes' ledgers: the watch's is one.
      const look = await runCli(['pause', uniqueName('nope'), '--local'], {
        env: { AWS_ENDPOINT_URL_DYNAMODB: '', S3DDB_CACHE_DIR: cache },
      });
      expect(look.code).toBe(1);
      expect(look.stderr).toContain(
        `holds lanes in local process ${child.pid} (${process.env.AWS_ENDPOINT_URL_DYNAMODB})`,
      );
    } finally {
      child.kill('SIGINT');
    }
    expect((await exited)[0]).toBe(0);
    expect(await readdir(join(cache, 'running'))).toEqual([]);
  });
});

describe('local registers itself while it runs', () => {
  it('writes <cache dir>/running/<pid>.json and removes it on Ctrl-C', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'live-local-'));
    await writeFile(join(cwd, 'ids.csv'), `id\n${Array.from({ length: 200 }, (_, i) => `row-${i}`).join('\n')}\n`);
    // 200 rows at 2 items/s: the import runs long enough to be looked at, and is stopped long before its end.
    const args = [
      'local',
      'ids.csv',
      '--table',
      uniqueName('ids'),
      '--create-table',
      '--pk',
      'id',
      '--max-write-rate',
      '2',
    ];
    const env = { ...process.env, S3DDB_CACHE_DIR: cwd };
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: 'ignore' });
    const exited = once(child, 'exit');
    const file = join(cwd, 'running', `${child.pid}.json`);
    try {
      for (let tries = 0; !(await readFile(file, 'utf8').catch(() => '')); tries++) {
        expect(tries).toBeLessThan(600); // 60 s
        await sleep(100);
      }
      expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
        pid: child.pid,
        dynamodbEndpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB,
        ledgerTable: DEFAULT_LEDGER_TABLE,
      });
    } finally {
      child.kill('SIGINT');
    }
    // Ctrl-C before the workflow starts ends it by the signal; once it runs, local releases its lanes and exits 130
    // (cli/services/interrupt.ts). A shell reads 130 either way.
    expect([
      [130, null],
      [null, 'SIGINT'],
    ]).toContainEqual(await exited);
    expect(await readdir(join(cwd, 'running'))).toEqual([]);
  });
});

describe('--help', () => {
  it.each([
    ['rate', commandHelp(liveCommand('rate'))],
    ['pause', commandHelp(liveCommand('pause'))],
    ['resume', commandHelp(liveCommand('resume'))],
  ])('%s --help prints its usage on stdout and exits 0; the main --help lists it', async (command, usage) => {
    expect(await runCli([command, '--help'])).toEqual({ code: 0, stdout: `${usage}\n`, stderr: '' });
    // The main --help lists the commands only (issue 35): one line naming the command, not its whole usage.
    const main = (await runCli(['--help'])).stdout;
    expect(main).toMatch(new RegExp(`^  ${command} <execution>`, 'm'));
    expect(main).not.toContain(`${usage}\n`);
  });
});
