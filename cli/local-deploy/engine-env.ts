import { cacheDir, startMinistack, type RunningMinistack } from '../services/index.js';

/** Where the engine listens and how to sign for it: a kept engine (`local up`) or one with IAM enforced. */
export interface EngineTarget {
  readonly endpoint: string;
  readonly region: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** The engine's CA certificate, when it serves TLS (`USE_SSL=1`). @default - plain HTTP */
  readonly caFile?: string;
}

/**
 * ministack's root key: `test` (core/iam_evaluator.py is_root_access_key). It passes every IAM check, so the CDK CLI
 * and the commands act as an administrator would; the deployed functions run with their own roles' session keys,
 * which an engine with `AUTH=true` checks against the roles' policies.
 */
export const ROOT_CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
/** The engine's default region; the stack deploys there. */
export const ENGINE_REGION = 'us-east-1';

/**
 * Starts ministack with IAM enforcement on (`AUTH=true`), which needs TLS (`USE_SSL=1`) because the stack's bucket
 * policy denies requests that are not over TLS (aws:SecureTransport), as on AWS. The deployed test tier runs on it.
 */
export function startIamEngine(log: (line: string) => void): Promise<RunningMinistack> {
  return startMinistack({
    cache: cacheDir(process.env),
    log,
    credentials: ROOT_CREDENTIALS,
    env: { AUTH: 'true', USE_SSL: '1' },
  });
}

/** The target of an engine {@link startIamEngine} started. */
export const iamEngineTarget = (engine: RunningMinistack): EngineTarget => ({
  endpoint: engine.endpoint,
  region: ENGINE_REGION,
  credentials: ROOT_CREDENTIALS,
  ...(engine.caFile ? { caFile: engine.caFile } : {}),
});

/**
 * The environment that points every SDK client, the CDK CLI and the AWS CLI at the engine: AWS_ENDPOINT_URL covers
 * every service (https://docs.aws.amazon.com/sdkref/latest/guide/feature-ss-endpoints.html); with TLS, the CDK CLI
 * reads AWS_CA_BUNDLE and Node reads NODE_EXTRA_CA_CERTS at start (so child processes trust the engine).
 *
 * @example
 * engineEnv({ endpoint: 'http://127.0.0.1:4566', region: 'us-east-1', credentials }); // { AWS_ENDPOINT_URL: ..., ... }
 */
export function engineEnv(target: EngineTarget): Record<string, string> {
  return {
    AWS_ENDPOINT_URL: target.endpoint,
    AWS_ACCESS_KEY_ID: target.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: target.credentials.secretAccessKey,
    AWS_REGION: target.region,
    ...(target.caFile ? { AWS_CA_BUNDLE: target.caFile, NODE_EXTRA_CA_CERTS: target.caFile } : {}),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    CDK_DISABLE_VERSION_CHECK: '1',
  };
}

/** Variables that would send requests elsewhere or sign them otherwise, dropped before {@link engineEnv} applies. */
const ELSEWHERE = ['AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_ENDPOINT_URL_DYNAMODB', 'AWS_ENDPOINT_URL_S3'];

/** `env` pointed at the engine: {@link engineEnv} over it, without what would send requests elsewhere. */
export function envForEngine(target: EngineTarget, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const rest = Object.fromEntries(Object.entries(env).filter(([name]) => !ELSEWHERE.includes(name)));
  return { ...rest, ...engineEnv(target) };
}

/** Applies {@link envForEngine} to `env` itself (the deployed tier's setup, whose forked workers inherit it). */
export function applyEngineEnv(target: EngineTarget, env: NodeJS.ProcessEnv = process.env): void {
  for (const name of ELSEWHERE) delete env[name];
  Object.assign(env, engineEnv(target));
}
