// Plain JavaScript on purpose: it runs before any bundle exists, with nothing to transpile TypeScript.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Written by bin/build-bundles.ts: `{ startedMs, inputs }`, the build's start and the files it read. */
const BUILD_INFO = join(ROOT, 'dist/build-info.json');
/** The build's own entry: a checkout has it; the package installed from npm ships bundles, not sources. */
const BUILD_ENTRY = join(ROOT, 'bin/build.ts');

/**
 * Why the bundles need building, or undefined when no file they were built from changed since. Installed from
 * npm there is nothing to build from: the bundles are the ones `npm pack` built, and they are used as they are.
 */
export function staleReason() {
  if (!existsSync(BUILD_ENTRY)) return undefined;
  let info;
  try {
    info = JSON.parse(readFileSync(BUILD_INFO, 'utf8'));
  } catch {
    return 'no build yet';
  }
  for (const input of info.inputs) {
    const mtimeMs = statSync(join(ROOT, input), { throwIfNoEntry: false })?.mtimeMs;
    if (mtimeMs === undefined || mtimeMs > info.startedMs) return `${input} changed`;
  }
  return undefined;
}

/**
 * Builds the bundles (`npm run build`) when they are missing or older than a source: a checkout that
 * changed under them must not run the previous code. Build output goes to stderr; stdout is the CLI's.
 */
export function ensureFreshBundles() {
  const reason = staleReason();
  if (reason === undefined) return;
  process.stderr.write(`building the bundles first (${reason})\n`);
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'bin/build.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
  });
  if (build.status !== 0) {
    process.stderr.write(`the build failed (${build.error?.message ?? `exit ${build.status}`}); run npm run build\n`);
    process.exit(1);
  }
}
