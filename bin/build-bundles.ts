import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { BUILD_DIR, HANDLER_BUNDLE_SETTINGS, HANDLER_PACKAGE_JSON, handlerBundleFile } from '../lib/bundle-settings.js';
import { TASK_HANDLER_FILES } from '../lib/workflow-tasks.js';

/** The repository root, where every path below starts. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The CLI's bundle; it finds the workflow file and the handler bundles from the package root (lib/package-root.ts). */
export const CLI_BUNDLE_FILE = `${BUILD_DIR}/s3-ddb-import.mjs`;
const CLI_ENTRY = 'bin/s3-ddb-import.ts';

/** What bin/s3-ddb-import.mjs reads to tell whether the bundles are older than their sources. */
export const BUILD_INFO_FILE = `${BUILD_DIR}/build-info.json`;

/** Files that shape every bundle without being bundled into it: a change to any of them calls for a build. */
const BUILD_INPUTS = ['lib/bundle-settings.ts', 'bin/build-bundles.ts', 'package-lock.json'];

/**
 * The CLI is not deployed: it runs on the local Node (20.19 at least, see package.json's engines) and
 * loads the handler bundles at run time, so it takes the handlers' settings with its own target.
 */
const CLI_SETTINGS = { ...HANDLER_BUNDLE_SETTINGS, target: 'node20.19' } satisfies BuildOptions;

/** The record of a build: its start (epoch ms) and the repository files it read, node_modules aside. */
export interface BuildInfo {
  readonly startedMs: number;
  readonly inputs: readonly string[];
}

/**
 * Replaces a file in one step (a new file renamed over the old): tests and CLI runs may be loading a bundle
 * while `npm pack` rebuilds it (test/package/), and must see the old bytes or the new, never half a file.
 */
export async function replaceFile(path: string, contents: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, path);
}

async function bundle(entry: string, outfile: string, settings: BuildOptions): Promise<Metafile> {
  // An absolute entry and the root as working directory: how NodejsFunction runs esbuild, so the output matches.
  const result = await build({
    ...settings,
    entryPoints: [join(ROOT, entry)],
    outfile: join(ROOT, outfile),
    absWorkingDir: ROOT,
    metafile: true,
    logLevel: 'warning',
    write: false,
  });
  await Promise.all(result.outputFiles.map((file) => replaceFile(file.path, file.contents)));
  return result.metafile;
}

/** A handler's bundle, and beside it the package.json that makes Lambda load it as an ES module. */
async function bundleHandler(handlerFile: string): Promise<Metafile> {
  const outfile = handlerBundleFile(handlerFile);
  const metafile = await bundle(handlerFile, outfile, HANDLER_BUNDLE_SETTINGS);
  await replaceFile(join(ROOT, dirname(outfile), 'package.json'), HANDLER_PACKAGE_JSON);
  return metafile;
}

/**
 * `npm run build`: bundles each Task's handler with the settings NodejsFunction uses
 * (dist/lambdas/<handler>/index.js, its map and package.json) and the CLI (dist/s3-ddb-import.mjs), then records the inputs.
 */
export async function buildBundles(): Promise<BuildInfo> {
  const startedMs = Date.now();
  const metafiles = await Promise.all([
    ...Object.values(TASK_HANDLER_FILES).map(bundleHandler),
    bundle(CLI_ENTRY, CLI_BUNDLE_FILE, CLI_SETTINGS),
  ]);
  const bundled = metafiles
    .flatMap((metafile) => Object.keys(metafile.inputs))
    .filter((input) => !input.startsWith('node_modules/'));
  const info: BuildInfo = { startedMs, inputs: [...new Set([...bundled, ...BUILD_INPUTS])].sort() };
  await replaceFile(join(ROOT, BUILD_INFO_FILE), `${JSON.stringify(info, null, 2)}\n`);
  return info;
}
