import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { createImportHandler } from '../../lambdas/import/handler.js';
import type { createPreflightHandler } from '../../lambdas/preflight/handler.js';
import type { createSummarizeFunctionHandler } from '../../lambdas/summarize/handler.js';
import type { createFailedChunkHandler } from '../../lambdas/failed-chunk/handler.js';
import { handlerBundleFile } from '../../lib/bundle-settings.js';
import { TASK_HANDLER_FILES, type TaskStateName } from '../../lib/workflow-tasks.js';
import { packageRoot } from './package-root.js';

/** The handler factory each Task's bundle exports, as its handler file declares it. */
export interface HandlerFactories {
  readonly Preflight: typeof createPreflightHandler;
  readonly ImportChunk: typeof createImportHandler;
  /** The Summarize function's: it serves the Summarize and ReleaseLanes states, as deployed. */
  readonly Summarize: typeof createSummarizeFunctionHandler;
  readonly FindFailedChunk: typeof createFailedChunkHandler;
}

const FACTORY_EXPORTS = {
  Preflight: 'createPreflightHandler',
  ImportChunk: 'createImportHandler',
  Summarize: 'createSummarizeFunctionHandler',
  FindFailedChunk: 'createFailedChunkHandler',
} as const satisfies Record<TaskStateName, string>;

/** Absolute path of a Task's handler bundle (`npm run build` writes it). */
export function handlerBundlePath(task: TaskStateName): string {
  return join(packageRoot(), handlerBundleFile(TASK_HANDLER_FILES[task]));
}

async function loadFactory<T extends TaskStateName>(task: T): Promise<HandlerFactories[T]> {
  const path = handlerBundlePath(task);
  if (!existsSync(path)) throw new Error(`handler bundle ${path} is missing: run npm run build`);
  const bundle = (await import(path)) as Record<string, unknown>;
  const factory = bundle[FACTORY_EXPORTS[task]];
  if (typeof factory !== 'function') throw new Error(`${path} does not export ${FACTORY_EXPORTS[task]}`);
  return factory as HandlerFactories[T];
}

/**
 * The handler factories from the esbuild bundles, the code NodejsFunction deploys, not the TypeScript
 * sources. Each bundle carries its own copy of the AWS SDK, as in Lambda; the clients passed in with a
 * wiring come from the caller's copy, which works because the SDK's clients and commands meet only
 * through plain objects (middleware stacks, config), never `instanceof`.
 */
export async function loadHandlerFactories(): Promise<HandlerFactories> {
  const [Preflight, ImportChunk, Summarize, FindFailedChunk] = await Promise.all([
    loadFactory('Preflight'),
    loadFactory('ImportChunk'),
    loadFactory('Summarize'),
    loadFactory('FindFailedChunk'),
  ]);
  return { Preflight, ImportChunk, Summarize, FindFailedChunk };
}
