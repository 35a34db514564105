import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { buildBundles } from './build-bundles.js';
import { jsiiManifest } from './build-jsii-manifest.js';
import { stageAssets, stageSources } from './build-jsii-stage.js';

/**
 * `npm run build:jsii [-- --targets python,java]`: the construct as a jsii library. Stages the jsii entry
 * (jsii/index.ts) and every module it reaches into dist/jsii/project/ as a CommonJS project with its own
 * package.json, compiles it with jsii (the assembly, dist/jsii/project/.jsii), then has jsii-pacmak write each
 * target's package into dist/jsii/packages/ (python: a wheel, java: a jar under a local Maven repository, js: the
 * jsii npm tarball). `--targets none` stops after the assembly (API.md needs no more). Targets need their toolchain
 * on PATH: python3, mvn with a JDK, dotnet, go.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const JSII_DIR = join(ROOT, 'dist/jsii');
export const JSII_PROJECT = join(JSII_DIR, 'project');
export const JSII_PACKAGES = join(JSII_DIR, 'packages');

const run = promisify(execFile);

/** Runs a tool from node_modules/.bin in the staged project, its output shown only when it fails. */
async function tool(name: string, args: string[]): Promise<void> {
  try {
    await run(join(ROOT, 'node_modules/.bin', name), args, { cwd: JSII_PROJECT, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    process.stderr.write(`${name} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}\n`);
    process.exit(1);
  }
}

async function timed(label: string, step: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  await step();
  process.stderr.write(`${label} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const { values } = parseArgs({ options: { targets: { type: 'string', default: 'js,python,java' } } });
const targets = values.targets === 'none' ? [] : values.targets.split(',');

await rm(JSII_DIR, { recursive: true, force: true });
await mkdir(JSII_PROJECT, { recursive: true });
await timed('handler bundles (dist/lambdas)', () => buildBundles());
await timed('staged dist/jsii/project', async () => {
  await stageSources(ROOT, JSII_PROJECT);
  await stageAssets(ROOT, JSII_PROJECT);
  await writeFile(join(JSII_PROJECT, 'package.json'), `${JSON.stringify(await jsiiManifest(ROOT), null, 2)}\n`);
});
// jsii 6 prints a banner about Node 20's end of life; the assembly it builds is the same on 20 and 22.
await timed('jsii assembly', () => tool('jsii', ['--silence-warnings=reserved-word']));
if (targets.length > 0) {
  await timed(`jsii-pacmak (${targets.join(', ')})`, () =>
    tool('jsii-pacmak', [...targets.flatMap((target) => ['--targets', target]), '--outdir', JSII_PACKAGES]),
  );
}
