import { cacheDir } from './cache-dir.js';
import { startDynamoDbLocal } from './dynamodb-local.js';
import { startMinio } from './minio.js';

export { cacheDir } from './cache-dir.js';
export { DYNAMODB_LOCAL_VERSION, ensureDynamoDbLocal } from './dynamodb-local.js';
export { MINIO_VERSION, ensureMinio } from './minio.js';

/** Endpoints and credentials of the DynamoDB and S3 servers that local mode talks to. */
export interface LocalServices {
  readonly dynamodbEndpoint: string;
  readonly s3Endpoint: string;
  readonly region: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** DynamoDB Local's process id, when this call started it (the bench reads its CPU time). */
  readonly dynamodbPid?: number;
  /** Stops whatever this call started; servers given through the environment are left alone. */
  stop(): Promise<void>;
}

/** Options for {@link startLocalServices}. */
export interface StartLocalServicesOptions {
  /** Progress lines (one-time downloads and builds). @default - written to stderr */
  readonly log?: (line: string) => void;
}

/** MinIO's root user; it wants a user of 3+ and a password of 8+ characters. DynamoDB Local takes anything. */
const LOCAL_CREDENTIALS = { accessKeyId: 's3ddbimport', secretAccessKey: 's3ddbimport-local-secret' };
/** Region used to sign requests; MinIO's default region and irrelevant to DynamoDB Local with -sharedDb. */
const LOCAL_REGION = 'us-east-1';

/**
 * Starts DynamoDB Local and MinIO in parallel on free loopback ports, fetching or building them into
 * the cache dir on first use. `AWS_ENDPOINT_URL_DYNAMODB` / `AWS_ENDPOINT_URL_S3` point at servers
 * that are already running instead; then nothing is started for that service, and the credentials
 * (when S3 is external) and region come from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`.
 */
export async function startLocalServices(options: StartLocalServicesOptions = {}): Promise<LocalServices> {
  const env = process.env;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cache = cacheDir(env);
  const external = Boolean(env.AWS_ENDPOINT_URL_DYNAMODB || env.AWS_ENDPOINT_URL_S3);
  // Started MinIO only knows its own root user; an external S3 knows the caller's keys.
  const credentials =
    env.AWS_ENDPOINT_URL_S3 && env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY }
      : LOCAL_CREDENTIALS;
  const region = (external && env.AWS_REGION) || LOCAL_REGION;

  const [dynamodb, s3] = await Promise.allSettled([
    env.AWS_ENDPOINT_URL_DYNAMODB ? undefined : startDynamoDbLocal({ cache, log, credentials }),
    env.AWS_ENDPOINT_URL_S3 ? undefined : startMinio({ cache, log, credentials }),
  ]);
  const started = [dynamodb, s3].flatMap((result) =>
    result.status === 'fulfilled' && result.value ? [result.value] : [],
  );
  const stop = async (): Promise<void> => {
    await Promise.all(started.map((service) => service.process.stop()));
  };
  if (dynamodb.status === 'rejected' || s3.status === 'rejected') {
    await stop();
    const reasons = [dynamodb, s3].flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
    throw new Error(`local services failed to start:\n${reasons.join('\n')}`);
  }
  return {
    dynamodbEndpoint: dynamodb.value?.endpoint ?? (env.AWS_ENDPOINT_URL_DYNAMODB as string),
    s3Endpoint: s3.value?.endpoint ?? (env.AWS_ENDPOINT_URL_S3 as string),
    region,
    credentials,
    ...(dynamodb.value?.process.pid ? { dynamodbPid: dynamodb.value.process.pid } : {}),
    stop,
  };
}

/**
 * Points SDK clients created from now on at `services`: AWS SDK v3 reads `AWS_ENDPOINT_URL_<SERVICE>`,
 * the region and the static keys from the environment. It has no variable for path-style S3
 * addressing, so S3 clients must still set `forcePathStyle: true` themselves (MinIO has no virtual hosts).
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
