import { existsSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { startProcess, type RunningService, type ServiceStartOptions } from './process.js';
import { runCommand } from './run-command.js';

/** Pinned pseudo-version of github.com/minio/minio, so every machine builds the same server. */
export const MINIO_VERSION = 'v0.0.0-20260212201848-7aac2a2c5b7c';
/** MinIO answers its health check in under a second when idle; 120 s covers a cold disk cache on a loaded box. */
const READY_TIMEOUT_MS = 120_000;
/** Per probe; a live server answers in milliseconds. */
const PROBE_TIMEOUT_MS = 1_000;

/**
 * Path of the MinIO binary, built with `go install` on first use (about 5 minutes, about 2 GB of Go
 * caches). GOBIN points at a temp dir beside the target that is renamed into place afterwards, so an
 * interrupted build is never mistaken for a finished one.
 */
export async function ensureMinio(cache: string, log: (line: string) => void): Promise<string> {
  const home = join(cache, `minio-${MINIO_VERSION}`);
  const binary = join(home, 'minio');
  if (existsSync(binary)) return binary;

  log('building MinIO (one time, about 5 minutes)…');
  await mkdir(cache, { recursive: true });
  const work = await mkdtemp(join(cache, '.build-minio-'));
  try {
    await runCommand('go', ['install', `github.com/minio/minio@${MINIO_VERSION}`], {
      env: { ...process.env, GOBIN: work },
      log,
      label: 'MinIO build',
    });
    // A concurrent build may have won the race; its binary is as good as ours.
    await rename(work, home).catch((error: unknown) => {
      if (!existsSync(binary)) throw error;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  log('MinIO built');
  return binary;
}

/**
 * Starts MinIO on free loopback ports with a fresh temp data dir (removed on stop) and waits until
 * its liveness endpoint answers 200. The web console is switched off; it still needs a port of its own.
 */
export async function startMinio(options: ServiceStartOptions): Promise<RunningService> {
  const binary = await ensureMinio(options.cache, options.log);
  const [port, consolePort] = await Promise.all([freePort(), freePort()]);
  const endpoint = `http://127.0.0.1:${port}`;
  const data = await mkdtemp(join(tmpdir(), 's3ddb-minio-'));
  const args = ['server', data, '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`];
  const server = startProcess('MinIO', binary, [...args, '--quiet'], {
    env: {
      ...process.env,
      MINIO_ROOT_USER: options.credentials.accessKeyId,
      MINIO_ROOT_PASSWORD: options.credentials.secretAccessKey,
      MINIO_BROWSER: 'off',
    },
    cleanup: () => rmSync(data, { recursive: true, force: true }),
  });
  try {
    await server.waitUntilReady(async () => {
      const response = await fetch(`${endpoint}/minio/health/live`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      await response.body?.cancel();
      return response.status === 200;
    }, READY_TIMEOUT_MS);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return { endpoint, process: server };
}
