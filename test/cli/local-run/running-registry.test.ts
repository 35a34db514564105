import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listRunning, registerRunning, runningDir } from '../../../cli/local-run/running-registry.js';

const T0 = Date.UTC(2025, 2, 14, 9, 26, 53);
const ENTRY = { dynamodbEndpoint: 'http://127.0.0.1:8000', ledgerTable: 's3-ddb-import-ledger' };

/** The pid of a process that has ended (the kernel hands pids out in turn, so it is not reused within a test). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

let dir: string;
beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'running-')), 'running');
});

describe('the registry of running local processes', () => {
  it('is <cache dir>/running', () => {
    expect(runningDir({ S3DDB_CACHE_DIR: '/c' })).toBe('/c/running');
  });

  it('registers a process as <pid>.json with its DynamoDB and ledger table, and removes it (twice is fine)', async () => {
    const registration = await registerRunning(ENTRY, { dir, now: () => T0 });
    expect(registration.file).toBe(join(dir, `${process.pid}.json`));
    const written = { pid: process.pid, ...ENTRY, startedAt: '2025-03-14T09:26:53.000Z' };
    expect(JSON.parse(await readFile(registration.file, 'utf8'))).toEqual(written);
    expect(await listRunning(dir)).toEqual([written]);
    registration.remove();
    registration.remove();
    expect(await readdir(dir)).toEqual([]);
    expect(await listRunning(dir)).toEqual([]);
  });

  it("ignores a dead process's file and removes it; keeps the live ones, oldest first", async () => {
    const dead = await deadPid();
    await registerRunning(ENTRY, { dir, pid: dead, now: () => T0 });
    const live = await registerRunning({ ...ENTRY, ledgerTable: 'live' }, { dir, now: () => T0 + 1000 });
    const parent = await registerRunning(
      { ...ENTRY, ledgerTable: 'parent' },
      { dir, pid: process.ppid, now: () => T0 },
    );
    expect((await listRunning(dir)).map((r) => r.ledgerTable)).toEqual(['parent', 'live']);
    expect((await readdir(dir)).sort()).toEqual([`${process.pid}.json`, `${process.ppid}.json`].sort());
    live.remove();
    parent.remove();
  });

  it('skips what is not a registration, and leaves it alone', async () => {
    const registration = await registerRunning(ENTRY, { dir });
    await writeFile(join(dir, 'notes.txt'), 'hello');
    await writeFile(join(dir, '1.json'), '{"pid":1,'); // cut short
    await writeFile(join(dir, '2.json'), JSON.stringify({ pid: process.pid, ...ENTRY, startedAt: 'x' })); // not its name
    expect((await listRunning(dir)).map((r) => r.pid)).toEqual([process.pid]);
    expect((await readdir(dir)).sort()).toEqual(['1.json', '2.json', `${process.pid}.json`, 'notes.txt'].sort());
    registration.remove();
  });

  it('arms its cleanup before the file exists, so a signal the moment a reader sees the file still removes it', async () => {
    const armed = () => ['exit', 'SIGINT', 'SIGTERM'].map((event) => process.listenerCount(event));
    const before = armed();
    const registering = registerRunning(ENTRY, { dir });
    expect(armed()).toEqual(before.map((n) => n + 1)); // at once, before any await
    expect(existsSync(join(dir, `${process.pid}.json`))).toBe(false);
    (await registering).remove();
    expect(armed()).toEqual(before);
  });

  it('lets the import run unregistered when the cache dir cannot be written', async () => {
    const armed = () => process.listenerCount('SIGINT');
    const before = armed();
    const file = join(tmpdir(), `not-a-dir-${process.pid}`);
    await writeFile(file, '');
    const registration = await registerRunning(ENTRY, { dir: join(file, 'running') }); // ENOTDIR
    expect(existsSync(registration.file)).toBe(false);
    expect(armed()).toBe(before);
    registration.remove();
  });

  it('finds nothing where no process ever registered', async () => {
    expect(await listRunning(join(dir, 'never'))).toEqual([]);
  });
});

// A process that outlives the signal fails its test in seconds, not minutes (tsx starts in about one).
describe('a registered process that ends', { timeout: 20_000 }, () => {
  const script = fileURLToPath(new URL('./register-and-wait.ts', import.meta.url));
  const started: ChildProcess[] = [];
  afterEach(() =>
    started.forEach((child) => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')),
  );
  const start = async (how: 'wait' | 'exit') => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, dir, how], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    started.push(child);
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const [line] = (await once(child.stdout, 'data')) as [Buffer];
    const file = line.toString().trim();
    if (how === 'wait') expect(existsSync(file)).toBe(true); // registered until the signal
    return { child, exited, file };
  };

  it('on Ctrl-C (SIGINT) removes its file, then dies of the signal as it would have', async () => {
    const { child, exited, file } = await start('wait');
    child.kill('SIGINT');
    expect(await exited).toEqual([null, 'SIGINT']);
    expect(existsSync(file)).toBe(false);
  });

  it('on SIGTERM too', async () => {
    const { child, exited, file } = await start('wait');
    child.kill('SIGTERM');
    expect(await exited).toEqual([null, 'SIGTERM']);
    expect(existsSync(file)).toBe(false);
  });

  it('on process.exit() removes its file and keeps its exit code', async () => {
    const { exited, file } = await start('exit');
    expect(await exited).toEqual([3, null]);
    expect(existsSync(file)).toBe(false);
  });
});
