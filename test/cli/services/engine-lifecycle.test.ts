import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineRequirementError, cacheDir, ensureMinistack, startMinistack } from '../../../cli/services/index.js';
import { CLI } from '../../e2e/cli-process.js';

/** The test run's environment without the endpoints of the run's own engine: a CLI started with it starts its own. */
function ownEngineEnv(more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...more };
  delete env.AWS_ENDPOINT_URL_DYNAMODB;
  delete env.AWS_ENDPOINT_URL_S3;
  return env;
}

/** Process ids of every live process whose parent chain leads to `root` (from /proc, Linux only). */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited while we looked
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent !== pid) continue;
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/** Waits for the event "every one of `pids` has exited", checking every 100 ms, for at most `limitMs`. */
async function exited(pids: number[], limitMs = 30_000): Promise<number[]> {
  for (const end = Date.now() + limitMs; Date.now() < end; await sleep(100)) {
    if (!pids.some(alive)) return [];
  }
  return pids.filter(alive);
}

/** `local watch` in its own process with an engine of its own; resolves once it says it is watching. */
async function watching(): Promise<{ child: ChildProcess; engine: number[]; stderr: () => string }> {
  const cwd = await mkdtemp(join(tmpdir(), 'engine-life-'));
  const args = [CLI, 'local', 'watch', '--prefix', 'in/', '--table', 't-life', '--pk', 'id', '--create-table'];
  const child = spawn(process.execPath, args, { cwd, env: ownEngineEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  for (let waited = 0; !stderr.includes('watching s3://'); waited += 100) {
    if (child.exitCode !== null || waited > 120_000) throw new Error(`local watch did not start:\n${stderr}`);
    await sleep(100);
  }
  return { child, engine: descendants(child.pid!), stderr: () => stderr };
}

const servers: Server[] = [];
afterAll(() => servers.forEach((server) => server.close()));

describe('the local engine: install and start', () => {
  it('fails before any work when Python is missing, naming what to install, and leaves no venv behind', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'engine-cache-'));
    const outcome = await ensureMinistack(cache, () => undefined, '/nonexistent/python3').catch((e: Error) => e);
    expect(outcome).toBeInstanceOf(EngineRequirementError);
    expect((outcome as Error).message).toContain('needs Python 3.10+ with venv: /nonexistent/python3 was not found');
    expect((outcome as Error).message).toContain('apt-get install python3 python3-venv');
    expect(readdirSync(cache)).toEqual([]);
  });

  it('fails in `local` with exit 1 and the same words before uploading anything, --json saying FAILED', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'engine-cache-'));
    const env = ownEngineEnv({ S3DDB_CACHE_DIR: cache, S3DDB_PYTHON: '/nonexistent/python3' });
    const sample = join(process.cwd(), 'sample', 'googlebooks-1gram-sample.tsv');
    // runCli would put the run's own endpoints back into the environment: this CLI must see none.
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [CLI, 'local', sample, '--table', 'ngrams', '--json'],
        { env },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain('execution ');
    expect(run.stderr).toContain('import failed: EngineRequirementError: the local engine (ministack) needs Python');
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      status: 'FAILED',
      error: 'EngineRequirementError',
    });
  });

  it('fails naming the port and the kept log when the port is taken', async () => {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const credentials = { accessKeyId: 'a', secretAccessKey: 'b' };

    const outcome = await startMinistack({ cache: cacheDir(), log: () => undefined, credentials, port }).catch(
      (e: Error) => e,
    );

    expect(outcome).toBeInstanceOf(Error);
    const message = (outcome as Error).message;
    expect(message).toContain(`127.0.0.1:${port} is already in use`);
    const log = /the engine's log is kept at (\S+)\)/.exec(message)?.[1];
    expect(log && readFileSync(log, 'utf8')).toContain('already in use');
  });
});

describe('the local engine: stopping', () => {
  it('Ctrl-C (SIGINT) on `local watch` stops the engine and every process it started', async () => {
    const { child, engine } = await watching();
    expect(engine.length).toBeGreaterThan(0);

    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];

    expect(await exited(engine)).toEqual([]);
    // As docs/guides/local-engine.md (Ctrl-C) says: exit 0 when no import was running, its own engine's signal handler notwithstanding.
    expect(code).toBe(0);
  });

  it('SIGKILL of the CLI, where no handler of ours runs, still ends the engine (its stdin lifeline closes)', async () => {
    const { child, engine } = await watching();
    expect(engine.length).toBeGreaterThan(0);

    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));

    expect(await exited(engine)).toEqual([]);
  });
});
