import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { OutputTail } from './output-tail.js';

/** Grace period between SIGTERM and SIGKILL; both servers shut down in well under a second. */
const STOP_GRACE_MS = 5_000;
/** Pause between readiness probes: short, because MinIO is up in under a second. */
const PROBE_INTERVAL_MS = 100;

/** A local server that was started: where it listens, and its process. */
export interface RunningService {
  readonly endpoint: string;
  readonly process: ServiceProcess;
}

/** What starting a local server needs: the cache dir, a progress log and the credentials to accept. */
export interface ServiceStartOptions {
  readonly cache: string;
  readonly log: (line: string) => void;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/** A long-running server started by local mode, killed with its parent. */
export interface ServiceProcess {
  readonly name: string;
  /** The server's process id (the bench reads its CPU time from /proc). */
  readonly pid: number | undefined;
  /** Last few KB of the server's stdout and stderr. */
  readonly output: OutputTail;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and runs its cleanup. */
  stop(): Promise<void>;
  /** Polls `probe` until it returns true; fails early with the output if the server dies. */
  waitUntilReady(probe: () => Promise<boolean>, timeoutMs: number): Promise<void>;
}

interface Entry {
  readonly child: ChildProcess;
  readonly cleanup: () => void;
  readonly stop: () => Promise<void>;
}

const live = new Set<Entry>();

/**
 * Starts `command` as a server. Until it is stopped, an `exit` handler kills it synchronously and
 * SIGINT/SIGTERM stop it, so neither Ctrl-C nor a failing test run leaves a JVM holding 1 GB.
 * `cleanup` must be synchronous because it may run inside that `exit` handler.
 */
export function startProcess(
  name: string,
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; cleanup?: () => void } = {},
): ServiceProcess {
  const output = new OutputTail();
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  output.follow(child.stdout);
  output.follow(child.stderr);
  // Settles with the spawn error (e.g. ENOENT: java not installed) or undefined once the child runs.
  const spawned = new Promise<Error | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', resolve);
  });
  const cleanup = options.cleanup ?? (() => {});
  let stopping: Promise<void> | undefined;
  // Memoised, so stop() from the caller and from a signal handler share one shutdown.
  const stop = (): Promise<void> => (stopping ??= terminate(child).then(() => finish(entry)));
  const entry: Entry = { child, cleanup, stop };
  register(entry);

  const waitUntilReady = async (probe: () => Promise<boolean>, timeoutMs: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    const spawnError = await spawned;
    if (spawnError) throw new Error(`${name}: cannot start ${command}: ${spawnError.message}`);
    for (;;) {
      if (!isRunning(child)) {
        throw new Error(`${name} exited during start-up (${child.signalCode ?? `exit ${child.exitCode}`}):\n${output}`);
      }
      if (await probe().catch(() => false)) return;
      if (Date.now() > deadline) throw new Error(`${name} did not answer within ${timeoutMs / 1000} s:\n${output}`);
      await sleep(PROBE_INTERVAL_MS);
    }
  };

  return { name, pid: child.pid, output, stop, waitUntilReady };
}

function isRunning(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

async function terminate(child: ChildProcess): Promise<void> {
  if (!isRunning(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(killer);
}

function finish(entry: Entry): void {
  if (!live.delete(entry)) return;
  entry.cleanup();
  if (live.size === 0) {
    process.off('exit', killAllNow);
    process.off('SIGINT', stopAllAndResignal);
    process.off('SIGTERM', stopAllAndResignal);
  }
}

function register(entry: Entry): void {
  if (live.size === 0) {
    process.on('exit', killAllNow);
    process.on('SIGINT', stopAllAndResignal);
    process.on('SIGTERM', stopAllAndResignal);
  }
  live.add(entry);
}

/** Runs inside `exit`, where only synchronous work happens: send the signal, remove temp dirs. */
function killAllNow(): void {
  for (const entry of [...live]) {
    if (isRunning(entry.child)) entry.child.kill('SIGKILL');
    finish(entry);
  }
}

/**
 * Stops the servers, then re-raises the signal if nobody else listens for it, so the process ends
 * with the usual status (130 for Ctrl-C) instead of us choosing an exit code for the host program.
 */
function stopAllAndResignal(signal: NodeJS.Signals): void {
  void Promise.allSettled([...live].map((entry) => entry.stop())).then(() => {
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}
