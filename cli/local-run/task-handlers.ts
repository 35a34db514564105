import { SFNClient } from '@aws-sdk/client-sfn';
import { DEFAULT_LAMBDA_TIMEOUT_SECONDS } from '../../lambdas/contract/limits.js';
import { createWiring, type TaskWiring } from '../../lambdas/wiring/wiring.js';
import { nameServiceError } from '../../lambdas/wiring/service-error-names.js';
import { TASK_FUNCTIONS, TASK_STATE_FUNCTIONS, type TaskStateName } from '../../lib/workflow-tasks.js';
import { loadHandlerFactories, loadHandlerFactory, type TaskHandler } from './handler-bundles.js';
import { invokeWithTimeout } from './invoke-with-timeout.js';
import { invocationContext } from './lambda-clock.js';
import { localConcurrency } from './local-concurrency.js';
import { ensureLedgerTable } from './local-stack.js';
import type { LocalRunOptions } from './run-options.js';
import { runningTask } from './running-task.js';
import type { TaskInvoker, TaskReports } from './run-options.js';

/** How each task's invocations are run: its timeout, its clock (lambda-clock.ts), and what it reports. */
interface InvocationSettings {
  readonly timeoutsMs: Record<TaskStateName, number>;
  readonly clocks: NonNullable<LocalRunOptions['clocks']>;
  readonly reports: TaskReports;
  readonly invokers: NonNullable<LocalRunOptions['invokers']>;
}

/** The handler of one Task state, as the interpreter calls it. */
type StateHandler = (input: never) => Promise<unknown>;

/**
 * The handler of every Task state of the workflow, built from the esbuild bundles (what deploys, not the sources)
 * with the run's wiring, each bound from lib/workflow-tasks.ts by the one invoke below: a new Task is a row there.
 * `reports` tell the run's progress (task-reports.ts). The bundles of Preflight and ImportChunk load now, the first
 * write waiting on them; the others' when first called.
 * @example
 * const handlers = await localTaskHandlers({ timeoutMs: 60_000 });
 * const state = await handlers.Preflight(preflightEvent);
 */
export async function localTaskHandlers(
  options: LocalRunOptions,
  reports: TaskReports = {},
): Promise<Record<string, StateHandler>> {
  const wiring = localWiring(options);
  const settings = invocationSettings(options, reports);
  const tasks = Object.keys(TASK_FUNCTIONS) as TaskStateName[];
  const byFunction = new Map(tasks.map((task) => [task, taskHandler(task, wiring, settings)]));
  const byState = Object.entries(TASK_STATE_FUNCTIONS).map(([state, task]) => [state, byFunction.get(task)]);
  await Promise.all([loadHandlerFactories(), ensureLedgerTable(wiring.dynamodb, wiring.ledger.tableName)]);
  return Object.fromEntries(byState) as Record<keyof typeof TASK_STATE_FUNCTIONS, StateHandler>;
}

/**
 * Calls `task`'s handler as Lambda calls it: built once, before its first timeout starts (as Lambda's init runs
 * before the handler's clock); a fresh context on the task's clock and its timeout (invoke-with-timeout.ts);
 * attributed to its function (running-task.ts); its errors named as the deployed handlers name them
 * (lambdas/wiring/with-wiring.ts), so the same Retry matches; what it did reported (task-reports.ts).
 */
function taskHandler<T extends TaskStateName>(task: T, wiring: TaskWiring, settings: InvocationSettings) {
  let built: Promise<TaskHandler<T>> | undefined;
  const timeoutMs = settings.timeoutsMs[task];
  const report = settings.reports[task];
  const invoker = settings.invokers[task] as TaskInvoker<T> | undefined;
  const elsewhere: TaskHandler<T> | undefined =
    invoker && ((input, context) => invoker(input, context.getRemainingTimeInMillis()));
  return async (input: Parameters<TaskHandler<T>>[0]) => {
    const handler = elsewhere ?? (await (built ??= loadHandlerFactory(task).then((factory) => factory(wiring))));
    report?.before?.(input);
    const context = invocationContext(timeoutMs, settings.clocks[task]);
    const output = await runningTask.run(task, () =>
      invokeWithTimeout(timeoutMs, (context) => handler(input, context), context).catch(named),
    );
    report?.after?.(input, output);
    return output;
  };
}

/**
 * The run's wiring with the local control plane (or the caller's stand-in), short first waits (a local Wait costs
 * no execution history, so a waiting or paused import may ask again after a second), and the Step Functions
 * client FindFailedChunk reads Map Runs with.
 */
function localWiring(options: LocalRunOptions): TaskWiring {
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
    sfn: options.sfn ?? new SFNClient({}),
  };
}

/**
 * The first wait for lanes, and while paused, in local runs (Step Functions' own: 5 s and 10 s); whole seconds, as
 * a Wait state's SecondsPath takes only integers (the interpreter checks it as Step Functions does).
 */
const LOCAL_FIRST_WAIT_SECONDS = 1;

function invocationSettings(options: LocalRunOptions, reports: TaskReports): InvocationSettings {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LAMBDA_TIMEOUT_SECONDS * 1000;
  const tasks = Object.keys(TASK_FUNCTIONS) as TaskStateName[];
  const timeouts = tasks.map((task) => [task, options.taskTimeoutsMs?.[task] ?? timeoutMs]);
  return {
    timeoutsMs: Object.fromEntries(timeouts) as Record<TaskStateName, number>,
    clocks: options.clocks ?? {},
    reports,
    invokers: options.invokers ?? {},
  };
}

/** Rethrows an error named as the deployed handlers name it (lambdas/wiring/service-error-names.ts). */
function named(error: unknown): never {
  throw nameServiceError(error);
}
