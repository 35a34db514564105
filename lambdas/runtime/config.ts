/** Lambda configuration from environment variables, read once per container. */
export interface LambdaConfig {
  /** Rejects and reports go to s3://<bucket>/<rejectsPrefix>/<execution>/. */
  readonly rejectsPrefix: string;
  /** Tables this deployment may write; a request for another fails in preflight with a clear error. */
  readonly allowedTables: readonly string[] | null;
}

export const DEFAULT_REJECTS_PREFIX = 's3-ddb-import/rejects';

export function readLambdaConfig(env: NodeJS.ProcessEnv = process.env): LambdaConfig {
  const allowed = env.ALLOWED_TABLES?.split(',').map((t) => t.trim()).filter(Boolean);
  return {
    rejectsPrefix: env.REJECTS_PREFIX?.trim() || DEFAULT_REJECTS_PREFIX,
    allowedTables: allowed && allowed.length > 0 ? allowed : null,
  };
}
