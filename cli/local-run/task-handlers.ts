import type {
  ChunkProgress,
  ImportChunkEvent,
  PreflightEvent,
  ReleaseLanesEvent,
  ReleasedLanes,
  ImportSummary,
  PlanningState,
  SummarizeEvent,
} from '../../lambdas/contract/workflow-payloads.js';
import { DEFAULT_LAMBDA_TIMEOUT_SECONDS } from '../../lambdas/contract/limits.js';
import type { LambdaContextLike } from '../../lambdas/environment/lambda-context.js';
import { createWiring, type Wiring } from '../../lambdas/wiring/wiring.js';
import type { TASK_STATE_FUNCTIONS, TaskStateName } from '../../lib/workflow-tasks.js';
import { SFNClient } from '@aws-sdk/client-sfn';
import { nameServiceError, withNamedServiceErrors } from '../../lambdas/wiring/service-error-names.js';
import { loadHandlerFactories, loadHandlerFactory, type HandlerFactories } from './handler-bundles.js';
import { invokeWithTimeout } from './invoke-with-timeout.js';
import { mirrorTaskHandlers } from './mirror-tasks.js';
import { invocationContext } from './lambda-clock.js';
import { localConcurrency } from './local-concurrency.js';
import { ensureLedgerTable } from './local-stack.js';
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
  const wiring = localWiring(options);
  const [factories] = await Promise.all([
    loadHandlerFactories(),
    ensureLedgerTable(wiring.dynamodb, wiring.ledger.tableName),
  ]);
  const settings = invocationSettings(options);
  const summarize = summarizeTask(wiring, settings);
  return {
    Preflight: preflightTask(factories.Preflight(wiring), settings),
    ImportChunk: importChunkTask(factories.ImportChunk(wiring), settings),
    Summarize: summarize,
    ReleaseLanes: summarize,
    FindFailedChunk: findFailedChunkTask(options),
    ...mirrorTaskHandlers(wiring, settings.timeoutsMs.MirrorScan, settings),
  } satisfies Record<keyof typeof TASK_STATE_FUNCTIONS, unknown>; // every Task state of the workflow has its handler
}

/**
 * `make`'s promise, made on the first call and shared by every later one: Summarize's and FindFailedChunk's handlers
 * are built when first called, since the Map's end (or its failure) is the first that needs their bundles.
 */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/**
 * The run's wiring with the local control plane (or the caller's stand-in), and short first waits: a local Wait
 * costs no execution history, so a waiting or paused import may ask again after a second.
 */
function localWiring(options: LocalRunOptions): Wiring {
  const wiring = options.wiring ?? createWiring();
  const { config } = wiring;
  return {
    ...wiring,
    control: options.concurrency ?? localConcurrency,
    config: {
      ...config,
      queueFirstWaitSeconds: config.queueFirstWaitSeconds ?? LOCAL_FIRST_WAIT_SECONDS,
      pausedFirstWaitSeconds: config.pausedFirstWaitSeconds ?? LOCAL_FIRST_WAIT_SECONDS,
    },
  };
}

/**
 * The first wait for lanes, and while paused, in local runs (Step Functions' own: 5 s and 10 s); whole seconds, as
 * a Wait state's SecondsPath takes only integers (the interpreter checks it as Step Functions does).
 */
const LOCAL_FIRST_WAIT_SECONDS = 1;

function invocationSettings(options: LocalRunOptions): InvocationSettings {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LAMBDA_TIMEOUT_SECONDS * 1000;
  return {
    timeoutsMs: {
      Preflight: options.taskTimeoutsMs?.Preflight ?? timeoutMs,
      ImportChunk: options.taskTimeoutsMs?.ImportChunk ?? timeoutMs,
      Summarize: timeoutMs,
      FindFailedChunk: timeoutMs,
      MirrorScan: timeoutMs,
      MirrorParts: timeoutMs,
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
  // Named as the deployed handlers name them (lambdas/wiring/wiring.ts withDefaultWiring), so the same Retry matches.
  return runningTask.run(task, () =>
    invokeWithTimeout(timeoutMs, handler, invocationContext(timeoutMs, settings.clocks[task])).catch(named),
  );
}

function preflightTask(handler: ReturnType<HandlerFactories['Preflight']>, settings: InvocationSettings) {
  return async (input: PreflightEvent): Promise<PlanningState> => {
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
    const from = previous?.next ?? { offset: chunk.start, line: chunk.line ?? 1 };
    settings.emit({ type: 'chunk-start', chunkIndex, from });
    const progress = await invoke('ImportChunk', settings, (context) => handler(input, context));
    settings.emit({ type: 'chunk-progress', chunkIndex, done: progress.next === null, ...progress });
    return progress;
  };
}

/**
 * Summarize and ReleaseLanes both run the Summarize function, as they do deployed (lib/workflow-tasks.ts). Its
 * handler is built before the timeout starts, as Lambda's init runs before the handler's clock.
 */
function summarizeTask(wiring: Wiring, settings: InvocationSettings) {
  const handler = once(async () => (await loadHandlerFactory('Summarize'))(wiring));
  const invoke = async (input: SummarizeEvent | ReleaseLanesEvent) => {
    const summarize = await handler();
    // The function hands each event to its task's handler by shape, as deployed (lambdas/summarize/handler.ts).
    const run = (): Promise<ImportSummary | ReleasedLanes> =>
      'releaseLanes' in input ? summarize(input) : summarize(input);
    return invokeWithTimeout(settings.timeoutsMs.Summarize, run);
  };
  return (input: SummarizeEvent | ReleaseLanesEvent) => runningTask.run('Summarize', () => invoke(input)).catch(named);
}

type FindFailedChunkEvent = Parameters<ReturnType<HandlerFactories['FindFailedChunk']>>[0];

/** FindFailedChunk, named and attributed to its own function as deployed (running-task.ts). */
function findFailedChunkTask(options: LocalRunOptions) {
  const handler = once(async () =>
    (await loadHandlerFactory('FindFailedChunk'))({ sfn: options.sfn ?? new SFNClient({}) }),
  );
  const named = withNamedServiceErrors(async (input: FindFailedChunkEvent) => (await handler())(input));
  return (input: FindFailedChunkEvent) => runningTask.run('FindFailedChunk', () => named(input));
}

/** Rethrows an error named as the deployed handlers name it (lambdas/wiring/service-error-names.ts). */
function named(error: unknown): never {
  throw nameServiceError(error);
}
