import { cacheDir } from './cache-dir.js';
import { readKeptEngine } from './kept-engine.js';
import { startMinistack } from './ministack.js';

export { cacheDir } from './cache-dir.js';
export { EngineRequirementError, MINISTACK_VERSION, ensureMinistack } from './ministack-install.js';
export { startMinistack, type MinistackOptions, type RunningMinistack } from './ministack.js';

/** Endpoints and credentials of the DynamoDB and S3 servers that local mode talks to. */
export interface LocalServices {
  readonly dynamodbEndpoint: string;
  readonly s3Endpoint: string;
  readonly region: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** The engine's process id, when this call started it (the bench reads its CPU time). */
  readonly enginePid?: number;
  /** Stops whatever this call started; servers given through the environment are left alone. */
  stop(): Promise<void>;
}

/** Options for {@link startLocalServices}. */
export interface StartLocalServicesOptions {
  /** Progress lines (the one-time install, the kept engine used). @default - written to stderr */
  readonly log?: (line: string) => void;
  /** Use the engine `local up` keeps, when one runs and no endpoint is set. @default true */
  readonly useKept?: boolean;
}

/**
 * Keys our clients sign with. ministack (without `AUTH=true`) accepts any signature, so these prove nothing about
 * signing: the signer is tested against the SigV4 suite's own vectors instead (test/lambdas/dynamodb-transport).
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 's3ddbimport', secretAccessKey: 's3ddbimport-local-secret' };
/** Region used to sign requests and the engine's default region. */
export const LOCAL_REGION = 'us-east-1';

/**
 * Starts ministack on a free loopback port, installing it into the cache dir on first use; it serves both DynamoDB
 * and S3. When no endpoint variable is set and `local up` keeps an engine (kept-engine.ts), that one is used and
 * left running. `AWS_ENDPOINT_URL_DYNAMODB` / `AWS_ENDPOINT_URL_S3` point at servers that are already running instead;
 * when both are set nothing is started, and the credentials and region come from `AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`. When only one is set, the engine serves the other.
 */
export async function startLocalServices(options: StartLocalServicesOptions = {}): Promise<LocalServices> {
  const env = process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const kept =
    options.useKept === false || env.AWS_ENDPOINT_URL_DYNAMODB || env.AWS_ENDPOINT_URL_S3
      ? null
      : await readKeptEngine();
  if (kept) {
    log(`using the engine kept by \`local up\` at ${kept.endpoint} (pid ${kept.pid}; \`local down\` stops it)`);
    const { endpoint, region, credentials } = kept;
    return { dynamodbEndpoint: endpoint, s3Endpoint: endpoint, region, credentials, stop: async () => undefined };
  }
  const external = Boolean(env.AWS_ENDPOINT_URL_DYNAMODB || env.AWS_ENDPOINT_URL_S3);
  const credentials =
    external && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY }
      : LOCAL_CREDENTIALS;
  const region = (external && env.AWS_REGION) || LOCAL_REGION;
  const needed = !env.AWS_ENDPOINT_URL_DYNAMODB || !env.AWS_ENDPOINT_URL_S3;
  const engine = needed ? await startMinistack({ cache: cacheDir(env), log, credentials }) : undefined;
  return {
    dynamodbEndpoint: env.AWS_ENDPOINT_URL_DYNAMODB || (engine?.endpoint as string),
    s3Endpoint: env.AWS_ENDPOINT_URL_S3 || (engine?.endpoint as string),
    region,
    credentials,
    ...(engine?.process.pid ? { enginePid: engine.process.pid } : {}),
    stop: async () => engine?.process.stop(),
  };
}

/**
 * Points SDK clients created from now on at `services`: AWS SDK v3 reads `AWS_ENDPOINT_URL_<SERVICE>`,
 * the region and the static keys from the environment. It has no variable for path-style S3
 * addressing, so S3 clients must still set `forcePathStyle: true` themselves (the engine is reached by IP address,
 * where a bucket cannot be a host name).
 */
export function applyServiceEnv(services: LocalServices, env: NodeJS.ProcessEnv = process.env): void {
  env.AWS_ENDPOINT_URL_DYNAMODB = services.dynamodbEndpoint;
  env.AWS_ENDPOINT_URL_S3 = services.s3Endpoint;
  env.AWS_REGION = services.region;
  env.AWS_ACCESS_KEY_ID = services.credentials.accessKeyId;
  env.AWS_SECRET_ACCESS_KEY = services.credentials.secretAccessKey;
  // A token left over from a real AWS session would be sent with these keys and rejected.
  delete env.AWS_SESSION_TOKEN;
}
