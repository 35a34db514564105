import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { handlerBundleFile } from '../../lib/bundle-settings.js';
import { TASK_HANDLER_FILES } from '../../lib/workflow-tasks.js';
import { REPO } from './offline-app.js';

/** Every file the tarball holds besides the compiled construct: the whitelist of package.json's `files`, spelled out. */
export const EXPECTED_FILES: readonly string[] = [
  'CHANGELOG.md',
  'LICENSE',
  'README.md',
  'package.json',
  'bin/fresh-bundles.mjs',
  'bin/node-version.mjs',
  'bin/s3-ddb-import.mjs',
  'dist/s3-ddb-import.mjs',
  'dist/s3-ddb-import.mjs.map',
  'statemachine/import.asl.json',
  ...Object.values(TASK_HANDLER_FILES).flatMap((handler) => {
    const folder = dirname(handlerBundleFile(handler));
    return ['index.js', 'index.js.map', 'package.json'].map((name) => `${folder}/${name}`);
  }),
];

/**
 * A file of the compiled construct: the `.js` or `.d.ts` that tsc emits for a TypeScript module of lib/ or lambdas/
 * (tsconfig.build.json), and nothing else from those folders: no sources, tests or maps.
 */
export function isConstructFile(path: string): boolean {
  const match = /^dist\/construct\/((?:lib|lambdas)\/[\w/.-]+?)\.(?:js|d\.ts)$/.exec(path);
  return match !== null && existsSync(join(REPO, `${match[1]}.ts`));
}

/** Module names in `import ... from` / `export ... from` lines and `import('...')` types (not in comments). */
const IMPORT_PATTERNS = [/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm, /\bimport\('([^']+)'\)/g];

/**
 * The packages that the declarations reachable from `entry` import: what a user's compiler must resolve to read
 * the package's types (declarations nothing reaches, such as internal modules', are never loaded).
 */
export async function declarationImports(entry: string): Promise<string[]> {
  const seen = new Set<string>();
  const external = new Set<string>();
  const visit = async (file: string): Promise<void> => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = await readFile(file, 'utf8');
    for (const pattern of IMPORT_PATTERNS) {
      for (const [, name] of text.matchAll(pattern)) {
        if (!name?.startsWith('.')) external.add(name as string);
        else await visit(join(dirname(file), name.replace(/\.js$/, '.d.ts')));
      }
    }
  };
  await visit(entry);
  return [...external].sort();
}

/**
 * The modules a bundle imports that are not Node's own: what would have to be installed beside it. esbuild parses
 * the bundle (a regular expression would also match module names inside its strings) and lists what it imports.
 */
export async function nonBuiltinImports(bundle: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [bundle],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const names = Object.values(metafile.inputs).flatMap((input) => input.imports.map((imported) => imported.path));
  const builtin = (name: string) => name.startsWith('node:') || builtinModules.includes(name);
  return [...new Set(names.filter((name) => !builtin(name)))].sort();
}
