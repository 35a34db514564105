// The house's layers as an ESLint rule (`house/import-zones`), so `npm run lint` fails on an arrow that points up,
// sideways, or into another handler's folder. A local rule rather than eslint-plugin-import's no-restricted-paths:
// the layer tables below are the whole configuration, and a handler folder is found by its handler.ts, so a new
// handler is private without a line here. test/lint/import-zones.test.ts proves each kind of arrow fails.
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: this file's parent folder. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The top-level folders, bottom first: each imports only those before it. test/ and bench/ exercise everything
 * and are imported by nothing in these four.
 * @example `lib/watch-input.ts` may import `lambdas/request/`; `lambdas/` may not import `lib/`.
 */
export const TOP_LAYERS = ['lambdas', 'lib', 'cli', 'bin'];

/** Folders whose files may import anything, each shared helper of theirs included. */
const UNRESTRICTED = new Set(['test', 'bench']);

/**
 * The concept folders of lambdas/, bottom first; a folder imports only folders of an earlier row. Handler folders
 * (holding a handler.ts) sit above every row and are private to their own files. A new concept folder gets a row.
 * @example `write` (row 2) may import `retry` (row 1); `retry` may not import `write`, nor `source` import `write`.
 */
export const LAMBDAS_LAYERS = [
  ['contract', 'attribute-values', 'async'],
  ['retry', 'observability', 'request', 'dynamodb-transport', 'admission', 'sync-compare'],
  ['source', 'write', 'environment', 'map-run'],
  ['formats', 'table-checks'],
  ['columns', 'mirror'],
  ['chunk-layouts'],
  ['wiring'],
];

/**
 * The folders of cli/, bottom first, as for lambdas/.
 * @example `commands` (the top row) may import `local-run`; `local-run` may not import `commands`.
 */
export const CLI_LAYERS = [
  ['output'],
  ['progress', 'services'],
  ['command-line', 'cloud'],
  ['flags'],
  ['local-run', 'local-deploy'],
  ['watch'],
  ['commands'],
];

/** Where a repository-relative path sits: its top folder, its folder under it, and that folder's row. */
function zoneOf(path) {
  const [top, folder] = path.split('/');
  const layers = top === 'lambdas' ? LAMBDAS_LAYERS : top === 'cli' ? CLI_LAYERS : undefined;
  const handler = top === 'lambdas' && existsSync(join(ROOT, top, folder, 'handler.ts'));
  const row = layers?.findIndex((names) => names.includes(folder));
  return { top, folder, handler, layers, row: handler ? Infinity : row };
}

/** Why `from` may not import `to` (both repository-relative), or undefined when it may. */
export function zoneProblem(from, to) {
  const a = zoneOf(from);
  const b = zoneOf(to);
  if (UNRESTRICTED.has(a.top)) return undefined;
  if (UNRESTRICTED.has(b.top)) return `${a.top}/ imports ${b.top}/, which only tests and benches may`;
  if (b.handler && (a.top !== b.top || a.folder !== b.folder))
    return `${b.top}/${b.folder}/ is a handler's private folder: move what ${a.top}/${a.folder}/ needs to a concept folder`;
  if (a.top !== b.top) {
    const [ra, rb] = [TOP_LAYERS.indexOf(a.top), TOP_LAYERS.indexOf(b.top)];
    // A root file (a config) or a data file (package.json, the workflow) is in no layer.
    if (ra === -1 || rb === -1 || rb < ra) return undefined;
    return `${a.top}/ may not import ${b.top}/ (bottom first: ${TOP_LAYERS.join(', ')})`;
  }
  if (!a.layers || a.folder === b.folder || !b.folder?.length || !a.folder.length) return undefined;
  for (const z of [a, b])
    if (z.row === -1) return `${z.top}/${z.folder}/ is in no layer: give it a row in lint/import-zones.mjs`;
  if (b.row < a.row) return undefined;
  const way = b.row === a.row ? 'sideways' : 'up';
  return `${a.top}/${a.folder}/ imports ${way} into ${b.top}/${b.folder}/ (lint/import-zones.mjs lists the layers)`;
}

/** The ESLint rule: checks every relative import, re-export and dynamic import of a file. */
export const importZonesRule = {
  meta: { type: 'problem', docs: { description: 'imports point down the house layers' }, schema: [] },
  create(context) {
    const from = relative(ROOT, context.filename).split(sep).join('/');
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = relative(ROOT, resolve(dirname(context.filename), spec))
        .split(sep)
        .join('/');
      const problem = zoneProblem(from, to);
      if (problem) context.report({ node: node.source, message: problem });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** The plugin eslint.config.mjs registers as `house`. */
export const housePlugin = { rules: { 'import-zones': importZonesRule } };
