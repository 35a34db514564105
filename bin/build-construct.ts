import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BUILD_DIR } from '../lib/bundle-settings.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the construct is emitted: JavaScript and `.d.ts` of lib/index.ts and what it imports (tsconfig.build.json). */
export const CONSTRUCT_DIR = `${BUILD_DIR}/construct`;

/**
 * The construct as the package exports it (package.json `exports`): lib/index.ts and every module it imports,
 * compiled by tsc with declarations. The folder is emptied first, so a module deleted from the sources cannot
 * linger in the package. Only `npm run build` (and so `npm pack`) runs this; the repository's own synth and tests
 * run the TypeScript sources.
 */
export async function buildConstruct(): Promise<void> {
  await rm(join(ROOT, CONSTRUCT_DIR), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const args = [tsc, '-p', 'tsconfig.build.json', '--outDir', CONSTRUCT_DIR];
  await promisify(execFile)(process.execPath, args, { cwd: ROOT }).catch(
    (error: { stdout?: string; message: string }) => {
      throw new Error(`tsc -p tsconfig.build.json failed:\n${error.stdout || error.message}`);
    },
  );
}
