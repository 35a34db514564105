import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BUILD_DIR } from '../lib/bundle-settings.js';

/**
 * `npm pack` runs this first (`prepack`; its `prepare` then builds the bundles): the construct as the package
 * exports it (package.json `exports`), lib/index.ts and every module it imports compiled by tsc with declarations
 * (tsconfig.build.json) into dist/construct/. The folder is emptied first, so a module deleted from the sources
 * cannot linger in the package. Nothing else needs it: the repository's synth and tests run the TypeScript sources,
 * so `npm ci` and the CLI's rebuild skip this step (and a type error stops a pack, never an install).
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONSTRUCT_DIR = `${BUILD_DIR}/construct`;

const started = Date.now();
await rm(join(ROOT, CONSTRUCT_DIR), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  await promisify(execFile)(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', CONSTRUCT_DIR], {
    cwd: ROOT,
  });
} catch (error) {
  const { stdout, message } = error as { stdout?: string; message: string };
  process.stderr.write(`tsc -p tsconfig.build.json failed:\n${stdout || message}\n`);
  process.exit(1);
}
process.stderr.write(`built ${CONSTRUCT_DIR}/ in ${Date.now() - started} ms\n`);
