import type {
  ChunkProgress,
  ImportChunkEvent,
  PreflightEvent,
  ScanState,
  SummarizeEvent,
} from '../../lambdas/contract/workflow-payloads.js';
import { DEFAULT_LAMBDA_TIMEOUT_SECONDS } from '../../lambdas/contract/limits.js';
import type { LambdaContextLike } from '../../lambdas/environment/lambda-context.js';
import { createWiring, type Wiring } from '../../lambdas/wiring/wiring.js';
import type { TaskStateName } from '../../lib/workflow-tasks.js';
import { loadHandlerFactories, type HandlerFactories } from './handler-bundles.js';
import { invokeWithTimeout } from './invoke-with-timeout.js';
import { invocationContext } from './lambda-clock.js';
import { localControlPlane } from './local-control-plane.js';
import type { LocalRunOptions, RunnerEvent } from './run-options.js';
import { runningTask } from './running-task.js';

/** How each task's invocations are run: its timeout, its clock (lambda-clock.ts), and where events go. */
interface InvocationSettings {
  readonly timeoutsMs: Record<TaskStateName, number>;
  readonly clocks: NonNullable<LocalRunOptions['clocks']>;
  readonly emit: (event: RunnerEvent) => void;
}

/**
 * The handler of every Task state of the workflow, built from the esbuild bundles (what deploys, not the
 * sources) with the run's wiring, each called as Lambda calls it (invoke-with-timeout.ts).
 */
export async function localTaskHandlers(options: LocalRunOptions) {
  const wiring: Wiring = { ...(options.wiring ?? createWiring()), control: options.controlPlane ?? localControlPlane };
  const factories = await loadHandlerFactories();
  const settings = invocationSettings(options);
  return {
    Preflight: preflightTask(factories.Preflight(wiring), settings),
    ImportChunk: importChunkTask(factories.ImportChunk(wiring), settings),
    Summarize: summarizeTask(factories.Summarize(wiring), settings),
  } satisfies Record<TaskStateName, unknown>; // every Task state of the workflow is bound to its handler
}

function invocationSettings(options: LocalRunOptions): InvocationSettings {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LAMBDA_TIMEOUT_SECONDS * 1000;
  return {
    timeoutsMs: {
      Preflight: options.taskTimeoutsMs?.Preflight ?? timeoutMs,
      ImportChunk: options.taskTimeoutsMs?.ImportChunk ?? timeoutMs,
      Summarize: timeoutMs,
    },
    clocks: options.clocks ?? {},
    emit: options.onEvent ?? (() => undefined),
  };
}

/** Runs one invocation of `task` as its handler, with a fresh context on the task's clock. */
function invoke<T>(
  task: 'Preflight' | 'ImportChunk',
  settings: InvocationSettings,
  handler: (context: LambdaContextLike) => Promise<T>,
): Promise<T> {
  const timeoutMs = settings.timeoutsMs[task];
  return runningTask.run(task, () =>
    invokeWithTimeout(timeoutMs, handler, invocationContext(timeoutMs, settings.clocks[task])),
  );
}

function preflightTask(handler: ReturnType<HandlerFactories['Preflight']>, settings: InvocationSettings) {
  return async (input: PreflightEvent): Promise<ScanState> => {
    const state = await invoke('Preflight', settings, (context) => handler(input, context));
    settings.emit({
      type: 'preflight',
      chunks: state.chunks.length,
      chunkList: state.chunks,
      scanComplete: state.scanComplete,
      offset: state.checkpoint.offset,
      size: state.object.size,
      queue: state.queue,
      lanes: state.lanes,
    });
    return state;
  };
}

function importChunkTask(handler: ReturnType<HandlerFactories['ImportChunk']>, settings: InvocationSettings) {
  return async (input: ImportChunkEvent): Promise<ChunkProgress> => {
    const { chunkIndex, chunk, progress: previous } = input;
    const from = previous?.next ?? { offset: chunk.start, line: chunk.line };
    settings.emit({ type: 'chunk-start', chunkIndex, from });
    const progress = await invoke('ImportChunk', settings, (context) => handler(input, context));
    settings.emit({ type: 'chunk-progress', chunkIndex, done: progress.next === null, ...progress });
    return progress;
  };
}

function summarizeTask(handler: ReturnType<HandlerFactories['Summarize']>, settings: InvocationSettings) {
  return (input: SummarizeEvent) =>
    runningTask.run('Summarize', () => invokeWithTimeout(settings.timeoutsMs.Summarize, () => handler(input)));
}
