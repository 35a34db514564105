import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { promisify } from 'node:util';
import { cacheDir } from '../../cli/services/cache-dir.js';

/**
 * Each language's example app synthesized the way its user would: copied out of the repository into an empty
 * folder, its packages installed from its own registry (PyPI, Maven Central) plus the package `npm run build:jsii`
 * wrote, then `cdk synth` (the CLI from npm) running the app as cdk.json says.
 */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CDK = join(ROOT, 'node_modules/.bin/cdk');
const PACKAGES = join(ROOT, 'dist/jsii/packages');
const run = promisify(execFile);
/** jsii's runtime prints a banner on Node 20 (end of life for jsii since 2026-10-30); the synth is the same. */
const QUIET = { JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: '1' };

/**
 * Versions each registry serves (PyPI held aws-cdk-lib 2.275.0 and Maven Central 2.263.0 when this was written,
 * npm 2.276.0): the apps pin them so a run is repeatable; examples/java/pom.xml names Maven's.
 */
export const PYPI_PACKAGES = ['aws-cdk-lib==2.275.0', 'constructs==10.8.1'];

/** A synthesized app: its cloud assembly folder and the stack's template. */
export interface Synthesized {
  readonly cdkOut: string;
  readonly template: Template;
}

export interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
  [key: string]: unknown;
}
export interface Template {
  Resources: Record<string, Resource>;
  [key: string]: unknown;
}

async function sh(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  try {
    return await run(file, args, { ...options, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/** The one file of `dir` (under dist/jsii/packages) whose name ends with `suffix`. */
export async function builtPackage(dir: string, suffix: string): Promise<string> {
  const found = (await readdir(join(PACKAGES, dir))).filter((name) => name.endsWith(suffix));
  if (found.length !== 1)
    throw new Error(`expected one *${suffix} in dist/jsii/packages/${dir}: run npm run build:jsii`);
  return join(PACKAGES, dir, found[0] as string);
}

/**
 * A venv in the cache dir holding PYPI_PACKAGES (installed once, reused while the pins hold) and the wheel just
 * built (reinstalled every run: the version stays, the contents change).
 */
export async function pythonVenv(wheel: string): Promise<string> {
  const venv = join(cacheDir(), `jsii-python-venv-${PYPI_PACKAGES.join('-')}`);
  const python = join(venv, 'bin/python');
  const pip = [python, '-m', 'pip', '--disable-pip-version-check', '--quiet'] as const;
  const ready = await sh(python, ['-c', 'import aws_cdk, constructs']).then(
    () => true,
    () => false,
  );
  if (!ready) {
    await sh('python3', ['-m', 'venv', venv]);
    await sh(pip[0], [...pip.slice(1), 'install', ...PYPI_PACKAGES]);
  }
  await sh(pip[0], [...pip.slice(1), 'install', '--force-reinstall', '--no-deps', wheel]);
  return venv;
}

/** Copies `example` (a folder under examples/) into an empty folder outside the repository. */
export async function copyExample(example: string): Promise<string> {
  const app = await mkdtemp(join(tmpdir(), `s3ddb-${example.replace('/', '-')}-`));
  await cp(join(ROOT, 'examples', example), app, { recursive: true });
  return app;
}

/** `cdk synth` in `app` (cdk.json says how to run it), with `env` added; the Imports stack's template. */
export async function synth(app: string, env: NodeJS.ProcessEnv = {}): Promise<Synthesized> {
  const cdkOut = join(app, 'cdk.out');
  await sh(CDK, ['synth', '--quiet', '-o', cdkOut], {
    cwd: app,
    env: { ...process.env, ...QUIET, CDK_DOCKER: '/bin/false', ...env },
  });
  const template = JSON.parse(await readFile(join(cdkOut, 'Imports.template.json'), 'utf8')) as Template;
  return { cdkOut, template };
}

/** The TypeScript app with the same props as the examples (test/jsii/typescript-app.ts), from this repository. */
export async function synthTypeScript(): Promise<Synthesized> {
  const app = await mkdtemp(join(tmpdir(), 's3ddb-ts-app-'));
  const tsx = join(ROOT, 'node_modules/.bin/tsx');
  await writeFile(
    join(app, 'cdk.json'),
    JSON.stringify({ app: `${tsx} ${join(ROOT, 'test/jsii/typescript-app.ts')}` }),
  );
  return synth(app);
}

export { sh };

const ASSET_KEY = /^[0-9a-f]{64}\.zip$/;

/**
 * The template as two apps of the same props must agree on it: no `Metadata` (construct paths and asset paths of
 * the synthesizing machine), no CDKMetadata resource or condition (it names the app's language and library
 * versions), and each Lambda code key as `<asset>` (bundles are compared by content: `bundleContents`).
 */
export function comparable(template: Template): Template {
  const resources = Object.fromEntries(
    Object.entries(template.Resources)
      .filter(([, resource]) => resource.Type !== 'AWS::CDK::Metadata')
      .map(([id, { Metadata: _metadata, ...resource }]) => [id, resource]),
  );
  const { Conditions: _conditions, ...rest } = template;
  const text = JSON.stringify({ ...rest, Resources: resources }, (_key, value: unknown) =>
    typeof value === 'string' && ASSET_KEY.test(value) ? '<asset>.zip' : value,
  );
  return JSON.parse(text) as Template;
}

/** Every file of `dir` with its bytes' sha256. */
async function filesOf(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) {
    files[name] = createHash('sha256')
      .update(await readFile(join(dir, name)))
      .digest('hex');
  }
  return files;
}

/**
 * Each of the pipeline's functions (an asset of ours), keyed as `builtBundles` keys them: its logical id without the
 * hash of its construct path (`ImportPreflightFunction53F7658F` is `ImportPreflightFunction`), to the files of its
 * staged asset.
 */
export async function deployedBundles({
  cdkOut,
  template,
}: Synthesized): Promise<Record<string, Record<string, string>>> {
  const bundles: Record<string, Record<string, string>> = {};
  for (const [id, resource] of Object.entries(template.Resources)) {
    const key = (resource.Properties?.Code as { S3Key?: string } | undefined)?.S3Key;
    if (resource.Type !== 'AWS::Lambda::Function' || !key || !id.startsWith('Import')) continue;
    bundles[id.replace(/[0-9A-F]{8}$/, '')] = await filesOf(join(cdkOut, `asset.${key.replace(/\.zip$/, '')}`));
  }
  return bundles;
}

/** The two templates hold the same resources, each equal (named on failure), and are equal as a whole. */
export function expectSameTemplate(ours: Template, theirs: Template): void {
  expect(Object.keys(ours.Resources).sort()).toEqual(Object.keys(theirs.Resources).sort());
  for (const [id, resource] of Object.entries(theirs.Resources)) expect(ours.Resources[id], id).toEqual(resource);
  expect(ours).toEqual(theirs);
}

/**
 * The bundles `npm run build:jsii` built (dist/lambdas, the same files the npm package ships), keyed as the
 * functions of `new ImportPipeline(stack, 'Import')` are: `ImportPreflightFunction…` runs dist/lambdas/preflight.
 */
export async function builtBundles(): Promise<Record<string, Record<string, string>>> {
  const bundles: Record<string, Record<string, string>> = {};
  for (const folder of await readdir(join(ROOT, 'dist/lambdas'))) {
    const name = folder.replace(/(^|-)([a-z])/g, (_match, _dash: string, letter: string) => letter.toUpperCase());
    bundles[`Import${name}Function`] = await filesOf(join(ROOT, 'dist/lambdas', folder));
  }
  return bundles;
}

/**
 * The jar `npm run build:jsii` wrote, installed into the user's local Maven repository (~/.m2) as `mvn
 * install:install-file` does for a jar not yet on Maven Central; the app's pom.xml then resolves it like any other.
 */
export async function installJar(): Promise<void> {
  const jar = await builtPackage('java/io/github/s3-ddb-import/s3-ddb-import/0.2.0', '0.2.0.jar');
  const pom = jar.replace(/\.jar$/, '.pom');
  await sh('mvn', ['-q', '-B', 'install:install-file', `-Dfile=${jar}`, `-DpomFile=${pom}`]);
}
