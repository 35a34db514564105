import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CliError } from '../output/cli-error.js';
import { cacheDir } from './cache-dir.js';
import { LOCAL_CREDENTIALS, LOCAL_REGION } from './index.js';
import { pidAlive, readKeptEngine, removeKeptEngine, writeKeptEngine, type KeptEngine } from './kept-engine.js';
import { startMinistack } from './ministack.js';

/** A first start installs the engine (about 10 s) and a loaded machine starts Python slowly: 120 s. */
const KEEPER_READY_MS = 120_000;
/** The keeper stops the engine within a few seconds of SIGTERM; past this it is killed. */
const KEEPER_STOP_MS = 15_000;
/** How often the state file and the keeper are looked at while waiting. */
const POLL_MS = 100;

/** The kept engine could not be started or stopped; the message names its log. */
export class KeptEngineError extends CliError {
  constructor(message: string) {
    super(message);
    this.name = 'KeptEngineError';
  }
}

/** Where the keeper writes its own output and the engine's start errors. */
export const keeperLog = (env: NodeJS.ProcessEnv = process.env) => join(cacheDir(env), 'engine.log');

/**
 * `local up --foreground`: starts the engine on 127.0.0.1, writes the state file, and keeps it until SIGINT or
 * SIGTERM, then stops it and removes the file. `ready` is told once the file is written.
 */
export async function keepEngine(log: (line: string) => void, ready: (engine: KeptEngine) => void): Promise<void> {
  const engine = await startMinistack({ cache: cacheDir(), log, credentials: LOCAL_CREDENTIALS });
  const kept: KeptEngine = {
    pid: process.pid,
    endpoint: engine.endpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
    startedAt: new Date().toISOString(),
  };
  const stopped = new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  try {
    await writeKeptEngine(kept);
    ready(kept);
    await stopped;
  } finally {
    await removeKeptEngine(process.pid);
    await engine.process.stop();
  }
}

/**
 * `local up`: starts `local up --foreground` as a detached process (its output in the keeper's log) and waits
 * until it has written the state file. `cli` is the CLI's entry script.
 */
export async function startKeeper(cli: string): Promise<KeptEngine> {
  const logFile = keeperLog();
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, [cli, 'local', 'up', '--foreground'], {
    detached: true,
    stdio: ['ignore', fd, fd],
    env: withoutEndpoints(process.env),
  });
  closeSync(fd);
  child.unref();
  let exited = false;
  child.once('exit', () => (exited = true));
  for (const end = Date.now() + KEEPER_READY_MS; Date.now() < end && !exited; await sleep(POLL_MS)) {
    const kept = await readKeptEngine();
    if (kept && kept.pid === child.pid) return kept;
  }
  if (!exited) child.kill('SIGTERM');
  const tail = readFileSync(logFile, 'utf8').trim().split('\n').slice(-5).join('\n');
  throw new KeptEngineError(`the engine did not start (its log, ${logFile}, ends with):\n${tail}`);
}

/** `local down`: SIGTERM to the keeper, which stops the engine; killed when it has not exited in time. */
export async function stopKeeper(engine: KeptEngine): Promise<void> {
  process.kill(engine.pid, 'SIGTERM');
  for (const end = Date.now() + KEEPER_STOP_MS; Date.now() < end; await sleep(POLL_MS)) {
    if (!pidAlive(engine.pid)) return removeKeptEngine(engine.pid);
  }
  process.kill(engine.pid, 'SIGKILL');
  await removeKeptEngine(engine.pid);
}

/** The keeper starts its own engine: endpoints left in the shell (of a kept engine, say) must not stop it. */
function withoutEndpoints(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { AWS_ENDPOINT_URL_DYNAMODB: _d, AWS_ENDPOINT_URL_S3: _s, ...rest } = env;
  return rest;
}
