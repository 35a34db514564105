import { readFile, rename, unlink, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheDir } from './cache-dir.js';

/**
 * The engine `local up` keeps running across commands, as its state file in the cache dir names it: the process
 * that keeps it (`local up --foreground`), where it listens (127.0.0.1 only) and the keys and region it takes.
 */
export interface KeptEngine {
  /** The keeper's process id: `local down` signals it; a dead one makes the file stale. */
  readonly pid: number;
  readonly endpoint: string;
  readonly region: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  readonly startedAt: string;
}

/** `<cache dir>/engine.json`: one kept engine per cache dir (per user, by default). */
export const keptEngineFile = (env: NodeJS.ProcessEnv = process.env): string => join(cacheDir(env), 'engine.json');

/**
 * The kept engine, or null when none runs. A file whose keeper is gone (killed, or the machine restarted) is
 * removed, so a stale file never points a command at a dead port.
 *
 * @example
 * const kept = await readKeptEngine(); // { pid: 4242, endpoint: 'http://127.0.0.1:40123', ... } or null
 */
export async function readKeptEngine(
  file = keptEngineFile(),
  alive: (pid: number) => boolean = pidAlive,
): Promise<KeptEngine | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const engine = parseKept(text);
  if (engine && alive(engine.pid)) return engine;
  if (engine) await unlink(file).catch(() => undefined); // its keeper is gone
  return null;
}

/** Writes the state file whole (a temp file renamed over it), so a reader never sees half of it. */
export async function writeKeptEngine(engine: KeptEngine, file = keptEngineFile()): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(`${file}.tmp`, `${JSON.stringify(engine)}\n`, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

/** Removes the state file if it still names `pid` (a newer keeper's file is left alone). */
export async function removeKeptEngine(pid: number, file = keptEngineFile()): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text !== null && parseKept(text)?.pid === pid) await unlink(file).catch(() => undefined);
}

/**
 * The lines a shell takes to point the AWS CLI, boto3 or an SDK at the kept engine (both services on one port).
 * `AWS_ENDPOINT_URL_<SERVICE>` is the service-specific endpoint variable of the SDKs' shared configuration
 * (https://docs.aws.amazon.com/sdkref/latest/guide/feature-ss-endpoints.html).
 *
 * @example
 * exportLines(kept); // ['export AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:40123', ...]
 */
export function exportLines(engine: Pick<KeptEngine, 'endpoint' | 'region' | 'credentials'>): string[] {
  return [
    `export AWS_ENDPOINT_URL_DYNAMODB=${engine.endpoint}`,
    `export AWS_ENDPOINT_URL_S3=${engine.endpoint}`,
    `export AWS_REGION=${engine.region}`,
    // boto3 (and so the AWS CLI v1) reads AWS_DEFAULT_REGION only; the SDKs for JavaScript, Go and Java read AWS_REGION.
    `export AWS_DEFAULT_REGION=${engine.region}`,
    `export AWS_ACCESS_KEY_ID=${engine.credentials.accessKeyId}`,
    `export AWS_SECRET_ACCESS_KEY=${engine.credentials.secretAccessKey}`,
  ];
}

/** Whether a process of that id runs: signal 0 checks without sending anything (EPERM: it runs as another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseKept(text: string): KeptEngine | null {
  try {
    const value = JSON.parse(text) as Partial<KeptEngine>;
    const { pid, endpoint, region, credentials, startedAt } = value;
    if (!Number.isSafeInteger(pid) || (pid as number) <= 0 || typeof endpoint !== 'string') return null;
    if (!/^https?:\/\/127\.0\.0\.1:\d+$/.test(endpoint) || typeof region !== 'string') return null;
    if (typeof credentials?.accessKeyId !== 'string' || typeof credentials.secretAccessKey !== 'string') return null;
    return { pid: pid as number, endpoint, region, credentials, startedAt: String(startedAt) };
  } catch {
    return null;
  }
}
