import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { OutputTail } from './output-tail.js';

/** Grace period between SIGTERM and SIGKILL; the engine shuts down in well under a second. */
const STOP_GRACE_MS = 5_000;
/** Pause between readiness probes: short, because the engine is up in well under a second. */
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
  /** Last few KB of the server's stdout and stderr (read from the log file when there is one). */
  readonly output: { toString(): string };
  /** Where the server's stdout and stderr go, when the caller named a file. */
  readonly logFile?: string;
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

/** Options for {@link startProcess}. */
export interface StartProcessOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Synchronous: it may run inside the `exit` handler. */
  readonly cleanup?: () => void;
  /** Send stdout and stderr to this file instead of a pipe (no Node CPU spent on a chatty server's logs). */
  readonly logFile?: string;
  /**
   * Give the server a pipe as stdin that stays open while this process lives: a server that exits when its stdin
   * closes then dies with us even when we are killed with SIGKILL, where no handler of ours runs.
   */
  readonly stdinLifeline?: boolean;
}

/**
 * Starts `command` as a server, in a process group of its own so that stopping it also stops the workers it forks.
 * Until it is stopped, an `exit` handler kills the group synchronously and SIGINT/SIGTERM stop it, so neither
 * Ctrl-C nor a failing test run leaves a server behind.
 */
export function startProcess(
  name: string,
  command: string,
  args: readonly string[],
  options: StartProcessOptions = {},
): ServiceProcess {
  const logFd = options.logFile === undefined ? undefined : openSync(options.logFile, 'a');
  const out = logFd ?? 'pipe';
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.stdinLifeline ? 'pipe' : 'ignore', out, out],
    detached: true,
  });
  if (logFd !== undefined) closeSync(logFd);
  const output = options.logFile === undefined ? followed(child) : fileTail(options.logFile);
  // Settles with the spawn error (e.g. ENOENT: the venv was removed) or undefined once the child runs.
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

  return {
    name,
    pid: child.pid,
    output,
    ...(options.logFile ? { logFile: options.logFile } : {}),
    stop,
    waitUntilReady,
  };
}

function followed(child: ChildProcess): OutputTail {
  const output = new OutputTail();
  output.follow(child.stdout);
  output.follow(child.stderr);
  return output;
}

/** The last few KB of a log file, read when an error message needs them, with the file named. */
function fileTail(path: string): { toString(): string } {
  return {
    toString: () => {
      const tail = new OutputTail();
      try {
        tail.push(readFileSync(path, 'utf8'));
      } catch {
        // An unreadable log still gets named below.
      }
      return `${tail}\n  (whole log: ${path})`;
    },
  };
}

/** Signals the whole process group the server leads (it was spawned detached, so its pid is the group id). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal); // the group is gone already; the leader may still be reaped
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

async function terminate(child: ChildProcess): Promise<void> {
  if (!isRunning(child)) {
    signalGroup(child, 'SIGKILL'); // the leader is gone; workers it forked may not be
    return;
  }
  const exited = once(child, 'exit');
  signalGroup(child, 'SIGTERM');
  const killer = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(killer);
  // Workers the server forked may outlive its own exit by a moment; they share its group.
  signalGroup(child, 'SIGKILL');
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
    signalGroup(entry.child, 'SIGKILL');
    finish(entry);
  }
}

/**
 * Stops the servers, then re-raises the signal if nobody else listened for it when it came, so the process ends
 * with the usual status (130 for Ctrl-C) instead of us choosing an exit code for the host program.
 */
function stopAllAndResignal(signal: NodeJS.Signals): void {
  // Counted when the signal comes, not after the servers stopped: a command that handles the signal itself
  // (`local watch` exits 0, `local` 130) may have removed its handler by then, and must keep its exit code.
  const handledElsewhere = process.listenerCount(signal) > 1;
  void Promise.allSettled([...live].map((entry) => entry.stop())).then(() => {
    if (!handledElsewhere && process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}
