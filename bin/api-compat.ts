import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { JSII_PACKAGE_NAME } from './build-jsii-manifest.js';

/**
 * `npm run api:compat`: jsii-diff between the last release's assembly on npm and the one `npm run build:jsii`
 * built (dist/jsii/project), so a change that would break a Python, Java, .NET or Go app fails (stable and
 * experimental APIs alike: the construct is `experimental` until 1.0, and its users are broken all the same).
 * Until a first release exists there is nothing to compare with: it says so and exits 0.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);

async function lastRelease(): Promise<string | undefined> {
  try {
    const { stdout } = await run('npm', ['view', JSII_PACKAGE_NAME, 'version']);
    return stdout.trim() || undefined;
  } catch {
    return undefined; // E404: never published
  }
}

const release = await lastRelease();
if (!release) {
  process.stdout.write(`api:compat: no release of ${JSII_PACKAGE_NAME} on npm yet, nothing to compare with\n`);
} else {
  const diff = join(ROOT, 'node_modules/.bin/jsii-diff');
  const args = ['--experimental-errors', `npm:${JSII_PACKAGE_NAME}@${release}`, join(ROOT, 'dist/jsii/project')];
  try {
    const { stdout } = await run(diff, args);
    process.stdout.write(stdout || `api:compat: compatible with ${JSII_PACKAGE_NAME}@${release}\n`);
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    process.stderr.write(`api:compat: breaks ${JSII_PACKAGE_NAME}@${release}:\n${stdout ?? ''}${stderr ?? ''}`);
    process.exit(1);
  }
}
