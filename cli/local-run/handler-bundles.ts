import { channel } from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { handlerBundleFile } from '../../lib/bundle-settings.js';
import { packageRoot } from '../../lib/package-root.js';
import { TASK_FUNCTIONS, TASK_HANDLER_FILES, type TaskStateName } from '../../lib/workflow-tasks.js';
import type { TaskPayloads } from '../../lambdas/contract/task-payloads.js';
import type { LambdaContextLike } from '../../lambdas/environment/lambda-context.js';
import type { TaskWiring } from '../../lambdas/wiring/wiring.js';
import { cacheDir } from '../services/cache-dir.js';
import { loadCachedBundle, type CachedBundle } from './bundle-compile-cache.js';

/** A Task's handler, as its bundle's factory builds it: what Lambda calls with an event and a context. */
export type TaskHandler<T extends TaskStateName> = (
  event: TaskPayloads[T]['event'],
  context: LambdaContextLike,
) => Promise<TaskPayloads[T]['result']>;

/** The factory a Task's bundle exports (lib/workflow-tasks.ts TASK_FUNCTIONS names it): one wiring serves them all. */
export type HandlerFactory<T extends TaskStateName> = (wiring: TaskWiring) => TaskHandler<T>;

/** The handler factory of every Task. */
export type HandlerFactories = { readonly [T in TaskStateName]: HandlerFactory<T> };

/** Absolute path of a Task's handler bundle (`npm run build` writes it). */
export function handlerBundlePath(task: TaskStateName): string {
  return join(packageRoot(), handlerBundleFile(TASK_HANDLER_FILES[task]));
}

/**
 * One Task's handler factory, from the esbuild bundle NodejsFunction deploys, not the TypeScript sources; a bundle
 * is loaded once, on the first call, and later calls get the same exports. Each bundle carries its own copy of the AWS
 * SDK, as in Lambda; the clients passed in with a wiring come from the caller's copy, which works because the SDK's
 * clients and commands meet only through plain objects (middleware stacks, config), never `instanceof`.
 */
export async function loadHandlerFactory<T extends TaskStateName>(task: T): Promise<HandlerFactories[T]> {
  const path = handlerBundlePath(task);
  if (!existsSync(path)) throw new Error(`handler bundle ${path} is missing: run npm run build`);
  const bundle = await loadBundle(path);
  const name = TASK_FUNCTIONS[task].factory;
  const factory = bundle[name];
  if (typeof factory !== 'function') throw new Error(`${path} does not export ${name}`);
  return factory as HandlerFactories[T];
}

const loaded = new Map<string, Promise<Record<string, unknown>>>();
/** Where a process announces each bundle it starts loading (`{ path }`), for tracing; nothing is sent when no one listens. */
export const BUNDLE_LOAD_CHANNEL = 's3-ddb-import:handler-bundle-load';
const bundleLoads = channel(BUNDLE_LOAD_CHANNEL);
const cached: CachedBundle[] = [];

/**
 * A bundle's exports, loaded once per process: through the compile cache in the cache dir (bundle-compile-cache.ts),
 * or by Node's own loader when the bundle is not one that cache handles or S3DDB_COMPILE_CACHE is `off`. The cache is
 * written as the process exits, so it holds what the run compiled (the SDK's first calls too); a cache dir that
 * cannot be written only costs the next run its cache.
 */
function loadBundle(path: string): Promise<Record<string, unknown>> {
  let bundle = loaded.get(path);
  if (!bundle) {
    if (bundleLoads.hasSubscribers) bundleLoads.publish({ path });
    bundle = (async () => {
      const viaCache =
        process.env.S3DDB_COMPILE_CACHE !== 'off' && (await loadCachedBundle(path, join(cacheDir(), 'compile-cache')));
      if (!viaCache) return (await import(path)) as Record<string, unknown>;
      if (cached.push(viaCache) === 1) process.once('exit', saveCaches);
      return viaCache.exports;
    })();
    loaded.set(path, bundle);
  }
  return bundle;
}

function saveCaches(): void {
  for (const bundle of cached) {
    try {
      bundle.saveCache();
    } catch {
      // A read-only or full cache dir: the next run compiles without a cache, as this one did.
    }
  }
}

/**
 * The factories of the Tasks every run calls before its first write, loading their bundles. Summarize's and
 * FindFailedChunk's bundles load when first asked for (task-handlers.ts): each bundle carries its own copy of the
 * SDK, and compiling one costs 20-40 ms of the CLI's start on this machine, before any row is written.
 */
export async function loadHandlerFactories(): Promise<Pick<HandlerFactories, 'Preflight' | 'ImportChunk'>> {
  const [Preflight, ImportChunk] = await Promise.all([
    loadHandlerFactory('Preflight'),
    loadHandlerFactory('ImportChunk'),
  ]);
  return { Preflight, ImportChunk };
}
