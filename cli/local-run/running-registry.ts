import { unlinkSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pidAlive } from '../services/kept-engine.js';
import { cacheDir } from '../services/cache-dir.js';

/** What a running `local` or `local watch` says about itself, so `rate --local` (another process) can find it. */
export interface RunningLocal {
  readonly pid: number;
  /** Its DynamoDB: the ledger of the imports it runs lives there. */
  readonly dynamodbEndpoint: string;
  readonly ledgerTable: string;
  /** ISO 8601. */
  readonly startedAt: string;
}

/** A registration, removed by `remove()` or, whatever ends the process, by its exit or a SIGINT/SIGTERM. */
export interface Registration {
  readonly file: string;
  /** Removes the file; safe to call twice, and synchronous so that it can run inside an `exit` handler. */
  remove(): void;
}

/** `<cache dir>/running`: one `<pid>.json` per running `local` or `local watch`. */
export const runningDir = (env: NodeJS.ProcessEnv = process.env): string => join(cacheDir(env), 'running');

/**
 * Registers this process as running local imports until `remove()`. The file is written under a temporary name
 * and renamed, so a reader never sees half of it. Best effort: an import does not fail because the cache dir is
 * read-only; it runs unregistered (then `--local` finds it only through AWS_ENDPOINT_URL_DYNAMODB).
 */
export async function registerRunning(
  entry: Pick<RunningLocal, 'dynamodbEndpoint' | 'ledgerTable'>,
  options: { dir?: string; pid?: number; now?: () => number } = {},
): Promise<Registration> {
  const dir = options.dir ?? runningDir();
  const pid = options.pid ?? process.pid;
  const file = join(dir, `${pid}.json`);
  const running: RunningLocal = { pid, ...entry, startedAt: new Date((options.now ?? Date.now)()).toISOString() };
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    process.off('exit', remove);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    for (const path of [file, `${file}.tmp`]) {
      try {
        unlinkSync(path);
      } catch {
        // not there (not written yet, or a reader found it stale): nothing to remove
      }
    }
  };
  // The default action of a signal ends the process without `exit` or `finally`: remove the file first, then let
  // the signal do what it would have done (the services' own handler re-raises it after stopping the servers).
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  // Armed before the file exists: a signal the moment a reader sees it still removes it.
  process.on('exit', remove);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(`${file}.tmp`, `${JSON.stringify(running)}\n`);
    await rename(`${file}.tmp`, file);
  } catch {
    remove();
  }
  return { file, remove };
}

/** Whether a process of that id runs (the kept engine's file uses the same check). */
export { pidAlive } from '../services/kept-engine.js';

/**
 * The registered processes that still run, oldest first. A file whose process is gone (killed with SIGKILL, or
 * the machine restarted) is removed; a file that is not a registration is left alone and skipped.
 */
export async function listRunning(dir = runningDir(), alive: (pid: number) => boolean = pidAlive) {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const running: RunningLocal[] = [];
  for (const name of names.filter((n) => /^\d+\.json$/.test(n))) {
    const entry = parseRunning(await readFile(join(dir, name), 'utf8').catch(() => ''));
    if (!entry || `${entry.pid}.json` !== name) continue;
    if (alive(entry.pid)) running.push(entry);
    else await unlink(join(dir, name)).catch(() => undefined); // another reader may have removed it first
  }
  return running.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

function parseRunning(text: string): RunningLocal | null {
  try {
    const value = JSON.parse(text) as Partial<Record<keyof RunningLocal, unknown>>;
    const { pid, dynamodbEndpoint, ledgerTable, startedAt } = value;
    if (!Number.isSafeInteger(pid) || (pid as number) <= 0) return null;
    if (typeof dynamodbEndpoint !== 'string' || typeof ledgerTable !== 'string' || typeof startedAt !== 'string')
      return null;
    return { pid: pid as number, dynamodbEndpoint, ledgerTable, startedAt };
  } catch {
    return null;
  }
}
