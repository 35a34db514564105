import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { existsSync } from 'node:fs';
import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDir, MINISTACK_VERSION } from '../../../cli/services/index.js';
import { exportLines, readKeptEngine, type KeptEngine } from '../../../cli/services/kept-engine.js';
import { execFile } from 'node:child_process';
import { CLI, type CliRun } from '../../e2e/cli-process.js';

const KEPT: KeptEngine = {
  pid: 2_000_000_000, // above any pid_max: never alive
  endpoint: 'http://127.0.0.1:40123',
  region: 'us-east-1',
  credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
  startedAt: '2026-01-01T00:00:00.000Z',
};

/** A cache dir of its own (so no other run finds this engine), sharing the installed engine's venv. */
async function ownCache(): Promise<string> {
  const cache = await mkdtemp(join(tmpdir(), 'kept-cache-'));
  const venv = `ministack-${MINISTACK_VERSION}`;
  await symlink(join(cacheDir(), venv), join(cache, venv));
  return cache;
}

/** The test run's environment without its engine's endpoints (the CLI looks for a kept engine), in `cache`. */
function envIn(cache: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, S3DDB_CACHE_DIR: cache };
  for (const name of ['AWS_ENDPOINT_URL_DYNAMODB', 'AWS_ENDPOINT_URL_S3', 'AWS_REGION', 'AWS_ACCESS_KEY_ID'])
    delete env[name];
  return env;
}

/** The CLI in its own process with exactly `env` (cli-process.ts's runCli would add the run's endpoints back). */
function runCli(args: string[], { env, cwd }: { env: NodeJS.ProcessEnv; cwd: string }): Promise<CliRun> {
  return new Promise((resolve) =>
    execFile(process.execPath, [CLI, ...args], { env, cwd, timeout: 180_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe('the kept engine state file', () => {
  it('reads as none, and is removed, when its keeper is gone', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'kept-')), 'engine.json');
    await writeFile(file, JSON.stringify(KEPT));
    expect(await readKeptEngine(file)).toBeNull();
    expect(existsSync(file)).toBe(false);
  });

  it('reads as the engine while its keeper runs; never a non-loopback endpoint', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'kept-')), 'engine.json');
    await writeFile(file, JSON.stringify({ ...KEPT, pid: process.pid }));
    expect(await readKeptEngine(file)).toEqual({ ...KEPT, pid: process.pid });
    await writeFile(file, JSON.stringify({ ...KEPT, pid: process.pid, endpoint: 'http://0.0.0.0:40123' }));
    expect(await readKeptEngine(file, () => true)).toBeNull();
  });

  it('gives ready-to-paste export lines', () => {
    expect(exportLines(KEPT)).toEqual([
      'export AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:40123',
      'export AWS_ENDPOINT_URL_S3=http://127.0.0.1:40123',
      'export AWS_REGION=us-east-1',
      'export AWS_DEFAULT_REGION=us-east-1',
      'export AWS_ACCESS_KEY_ID=a',
      'export AWS_SECRET_ACCESS_KEY=b',
    ]);
  });
});

describe('local up, local, local down', () => {
  it('keeps one engine across commands: what `local` imports stays, the export lines reach it, down stops it', async () => {
    const cache = await ownCache();
    const env = envIn(cache);
    const cwd = await mkdtemp(join(tmpdir(), 'kept-run-'));
    await writeFile(join(cwd, 'people.csv'), 'id,name\n1,ada\n2,grace\n');
    const up = await runCli(['local', 'up'], { env, cwd });
    expect(up.code).toBe(0);
    const lines = up.stdout.trim().split('\n');
    expect(lines.map((l) => l.split('=')[0])).toEqual(exportLines(KEPT).map((l) => l.split('=')[0]));
    const vars = Object.fromEntries(lines.map((l) => l.slice('export '.length).split('=') as [string, string]));
    expect(vars.AWS_ENDPOINT_URL_DYNAMODB).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const kept = (await readKeptEngine(join(cache, 'engine.json')))!;
    try {
      const args = ['local', 'people.csv', '--table', 'people', '--create-table', '--pk', 'id', '--json'];
      const first = await runCli(args, { env, cwd });
      expect(first.stderr).toContain(`using the engine kept by \`local up\` at ${kept.endpoint}`);
      expect(first.code).toBe(0);
      // After the command ended, the table is still there, with the file's rows, through the printed lines.
      const dynamodb = new DynamoDBClient({
        endpoint: vars.AWS_ENDPOINT_URL_DYNAMODB,
        region: vars.AWS_REGION,
        credentials: { accessKeyId: vars.AWS_ACCESS_KEY_ID, secretAccessKey: vars.AWS_SECRET_ACCESS_KEY },
      });
      const { Items } = await dynamodb.send(new ScanCommand({ TableName: 'people' }));
      const items = (Items ?? []).map((item) => ({ id: item.id.S, name: item.name.S }));
      expect(items.sort((a, b) => a.id!.localeCompare(b.id!))).toEqual([
        { id: '1', name: 'ada' },
        { id: '2', name: 'grace' },
      ]);
      dynamodb.destroy();
    } finally {
      const down = await runCli(['local', 'down', '--json'], { env, cwd });
      expect(down).toMatchObject({ code: 0, stdout: '{"status":"STOPPED"}\n' });
    }
    expect(existsSync(join(cache, 'engine.json'))).toBe(false);
    expect(() => process.kill(kept.pid, 0)).toThrow();
  });
});
