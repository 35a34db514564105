import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureMinistack } from './ministack-install.js';
import { freePort } from './free-port.js';
import { startProcess, type RunningService, type ServiceStartOptions } from './process.js';

/**
 * Python start plus the first health answer takes about 0.2-0.4 s on an idle 2-core box; beside a loaded test run
 * it can take several seconds. A slow start is not a failure: 60 s.
 */
const READY_TIMEOUT_MS = 60_000;
/** Per probe; a live server answers in milliseconds. */
const PROBE_TIMEOUT_MS = 1_000;

/**
 * Runs ministack's own entry point after starting a thread that waits for stdin to close. The pipe closes when the
 * Node process that started the engine dies, however it dies (SIGKILL included), and the thread then kills the
 * engine's process group, its Lambda workers with it: no engine is ever left behind.
 */
const LIFELINE_ENTRY = `
import os, signal, sys, threading
def _parent_gone():
    sys.stdin.buffer.read()
    os.killpg(0, signal.SIGKILL)
threading.Thread(target=_parent_gone, daemon=True).start()
sys.argv = ['ministack']
from ministack.app import main
main()
`;

/** The CA variables ministack sets for its Lambda workers when it serves TLS (core/tls.py trust_gateway_cert). */
const TLS_TRUST_VARS = new Set(['NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE', 'SSL_CERT_FILE']);

/** Options for {@link startMinistack}. */
export interface MinistackOptions extends ServiceStartOptions {
  /** Listen on this port instead of a free one the kernel picks. @default - a free loopback port */
  readonly port?: number;
  /** More settings for the engine (for example `AUTH=true`, `USE_SSL=1` for the deployed tier). @default - none */
  readonly env?: Readonly<Record<string, string>>;
}

/** A started engine: its endpoint, process, and the temp dir that holds its log and files. */
export interface RunningMinistack extends RunningService {
  /** The engine's log; kept after a failed start so the error can name it. */
  readonly logFile: string;
  /** ministack's scratch dir (TMPDIR): its pid file, TLS material, S3 spill files. Removed on stop. */
  readonly workDir: string;
  /** With `USE_SSL`: the engine's self-signed certificate, for clients to trust (`NODE_EXTRA_CA_CERTS`). */
  readonly caFile?: string;
}

/**
 * Starts ministack (DynamoDB, S3 and, for the deployed tier, CloudFormation, Lambda, Step Functions, EventBridge,
 * IAM) on a loopback port, installing it into the cache dir on first use, and waits until its health check answers.
 * It listens on 127.0.0.1 only (`BIND_HOST`; its own default is every interface).
 */
export async function startMinistack(options: MinistackOptions): Promise<RunningMinistack> {
  const python = await ensureMinistack(options.cache, options.log);
  const port = options.port ?? (await freePort());
  const tls = /^(1|true|yes)$/i.test(options.env?.USE_SSL ?? '');
  const endpoint = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const workDir = mkdtempSync(join(tmpdir(), 's3ddb-ministack-'));
  // ministack writes its self-signed certificate here (under TMPDIR) before it listens.
  const caFile = tls ? join(workDir, 'ministack-tls', 'server.crt') : undefined;
  const logFile = join(workDir, 'ministack.log');
  let keepLog = false;
  const server = startProcess('ministack', python, ['-c', LIFELINE_ENTRY], {
    env: engineEnv(port, workDir, options.env),
    logFile,
    stdinLifeline: true,
    cleanup: () => {
      if (!keepLog) rmSync(workDir, { recursive: true, force: true });
    },
  });
  try {
    await server.waitUntilReady(() => healthy(`${endpoint}/_ministack/health`, caFile), READY_TIMEOUT_MS);
  } catch (error) {
    keepLog = true;
    await server.stop();
    throw new Error(`${(error as Error).message}\n(the engine's log is kept at ${logFile})`);
  }
  return { endpoint, process: server, logFile, workDir, ...(caFile ? { caFile } : {}) };
}

/** Whether the health check answers 200; over TLS, trusting only the engine's own certificate. */
async function healthy(url: string, caFile: string | undefined): Promise<boolean> {
  if (!caFile) {
    const response = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.status === 200;
  }
  if (!existsSync(caFile)) return false;
  const ca = readFileSync(caFile);
  return new Promise((resolve, reject) => {
    const request = httpsGet(url, { ca, timeout: PROBE_TIMEOUT_MS }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} in ${PROBE_TIMEOUT_MS} ms`)));
    request.on('error', reject);
  });
}

function engineEnv(port: number, workDir: string, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  // Endpoints and keys meant for our own clients must not leak into the engine or the workers it starts.
  // Over TLS, ministack points its Lambda workers at its own certificate only where no CA variable is set yet: a
  // host's bundle variables (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE, ...) would keep the workers from trusting it.
  const tls = /^(1|true|yes)$/i.test(extra.USE_SSL ?? '');
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_') && !(tls && TLS_TRUST_VARS.has(name))),
  );
  return {
    ...inherited,
    GATEWAY_PORT: String(port),
    BIND_HOST: '127.0.0.1',
    LOG_LEVEL: 'WARNING',
    // Its pid file, generated TLS material and S3 spill files go to a dir of this run, not a shared /tmp name.
    TMPDIR: workDir,
    S3_DATA_DIR: join(workDir, 's3'),
    ...extra,
  };
}
