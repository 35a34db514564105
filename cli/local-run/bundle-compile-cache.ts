import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { bundleScriptText, planBundleScript, type ScriptPlan } from './bundle-script.js';

/** Bumped when bundle-script.ts changes what it makes of a bundle, so older cache files are not read. */
const SCRIPT_FORM = 1;
/** Hex digits of the key in a cache file's name. */
const KEY_LENGTH = 32;

/** A bundle loaded through {@link loadCachedBundle}: its exports, and whether its code cache needs writing. */
export interface CachedBundle {
  readonly exports: Record<string, unknown>;
  /** Writes the code cache now, with whatever the run has compiled so far; nothing when the cache was used as read. */
  readonly saveCache: () => void;
}

/** `<dir>/<handler>-<key>`, the key a hash of the bundle's bytes, Node's version and the script form. */
function cacheName(dir: string, path: string, source: string): string {
  const handler = basename(dirname(path));
  const key = createHash('sha256')
    .update(`${process.version} ${process.arch} ${SCRIPT_FORM}\n`)
    .update(source)
    .digest('hex')
    .slice(0, KEY_LENGTH);
  return join(dir, `${handler}-${key}`);
}

function readCache(name: string): { plan?: ScriptPlan; code?: Buffer } {
  try {
    return { plan: JSON.parse(readFileSync(`${name}.json`, 'utf8')) as ScriptPlan, code: readFileSync(`${name}.bin`) };
  } catch {
    return {};
  }
}

/** Writes a file in one step (a rename), so that a parallel run reads the old file or the new, never half of one. */
function replaceFile(file: string, data: string | Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, file);
}

/** Writes the plan and the code cache of `name`, and drops the handler's older ones. */
function writeCache(name: string, plan: ScriptPlan, code: Buffer): void {
  const dir = dirname(name);
  mkdirSync(dir, { recursive: true });
  const handler = basename(name).slice(0, -KEY_LENGTH);
  for (const file of readdirSync(dir))
    if (file.startsWith(handler) && !file.startsWith(basename(name))) rmSync(join(dir, file), { force: true });
  replaceFile(`${name}.json`, JSON.stringify(plan));
  replaceFile(`${name}.bin`, code);
}

/**
 * Loads a handler bundle with V8's code cache for it from `dir` (keyed by the bundle's bytes, so a rebuilt bundle
 * never meets an old cache, and V8 itself rejects a cache it cannot use), as bundle-script.ts makes it a script; on a
 * 2-core machine this takes ~50 ms off each bundle's load, and off the first calls of its SDK, whose compiled
 * functions the cache holds too. Undefined when the bundle is not one bundle-script.ts can make a script of.
 */
export async function loadCachedBundle(path: string, dir: string): Promise<CachedBundle | undefined> {
  const source = readFileSync(path, 'utf8');
  const name = cacheName(dir, path, source);
  const cache = readCache(name);
  const plan = cache.plan ?? (await planBundleScript(source));
  if (!plan) return undefined;
  const compiled = new vm.Script(bundleScriptText(source, plan), {
    filename: path,
    lineOffset: -1,
    cachedData: cache.code,
  });
  const namespaces = Object.fromEntries(
    await Promise.all(plan.builtins.map(async (builtin) => [builtin, await import(builtin)] as const)),
  );
  const run = compiled.runInThisContext() as (...args: unknown[]) => Promise<Record<string, unknown>>;
  const meta = { url: pathToFileURL(path).href, filename: path, dirname: dirname(path) };
  const exports = await run(namespaces, (specifier: string) => import(specifier), meta);
  const stale = !cache.code || compiled.cachedDataRejected === true;
  return { exports, saveCache: () => (stale ? writeCache(name, plan, compiled.createCachedData()) : undefined) };
}
