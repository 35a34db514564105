import { cacheDir, startMinistack, type RunningMinistack } from '../../cli/services/index.js';

/**
 * ministack's root key: `test` (core/iam_evaluator.py is_root_access_key). It passes every IAM check, so the test and
 * the CLI act as an administrator would; the deployed functions run with their own roles' session keys, which the
 * engine checks against the roles' policies.
 */
export const ROOT_CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
/** The engine's default region; the stack deploys there. */
export const REGION = 'us-east-1';

/**
 * Starts ministack as the deployed tier needs it: IAM enforcement on (`AUTH=true`), which needs TLS (`USE_SSL=1`)
 * because the stack's bucket policy denies requests that are not over TLS (aws:SecureTransport), as on AWS.
 */
export function startEngine(log: (line: string) => void): Promise<RunningMinistack> {
  return startMinistack({
    cache: cacheDir(process.env),
    log,
    credentials: ROOT_CREDENTIALS,
    env: { AUTH: 'true', USE_SSL: '1' },
  });
}

/**
 * Points every SDK client and CLI started from this process at the engine, trusting only its certificate: AWS SDK
 * v3 reads AWS_ENDPOINT_URL, the CDK CLI reads AWS_CA_BUNDLE, Node reads NODE_EXTRA_CA_CERTS at start (so forked
 * workers and child processes trust it, this process does not need to).
 */
export function engineEnv(engine: RunningMinistack): Record<string, string> {
  return {
    AWS_ENDPOINT_URL: engine.endpoint,
    AWS_ACCESS_KEY_ID: ROOT_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: ROOT_CREDENTIALS.secretAccessKey,
    AWS_REGION: REGION,
    AWS_CA_BUNDLE: engine.caFile as string,
    NODE_EXTRA_CA_CERTS: engine.caFile as string,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    CDK_DISABLE_VERSION_CHECK: '1',
  };
}

/** Applies {@link engineEnv} to `env`, dropping what would send requests elsewhere or sign them otherwise. */
export function applyEngineEnv(engine: RunningMinistack, env: NodeJS.ProcessEnv = process.env): void {
  for (const name of ['AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_ENDPOINT_URL_DYNAMODB', 'AWS_ENDPOINT_URL_S3']) {
    delete env[name];
  }
  Object.assign(env, engineEnv(engine));
}
