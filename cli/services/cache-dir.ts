import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Directory that holds the local engine's venv (ministack and its pinned Python packages).
 *
 * It lives outside the repository so that CI caches, fresh clones and `git clean` all share one copy.
 * Order: `S3DDB_CACHE_DIR`, then `$XDG_CACHE_HOME/s3-ddb-import`, then `~/.cache/s3-ddb-import`.
 */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.S3DDB_CACHE_DIR) return env.S3DDB_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 's3-ddb-import');
  return join(homedir(), '.cache', 's3-ddb-import');
}
