import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { handlerBundlePath } from '../cli/local-run/handler-bundles.js';
import type { LocalRunOptions, TaskInvoker } from '../cli/local-run/run-options.js';
import type { TaskStateName } from '../lib/workflow-tasks.js';

const CHILD = fileURLToPath(new URL('./task-child.mjs', import.meta.url));
/**
 * BENCH_STEP_HEAP_MIB: caps each step's V8 old space (`--max-old-space-size`). V8 grows its heap with the garbage a
 * process makes before it collects, so a step's peak RSS rises with the work it does even when what it keeps does
 * not; a step that finishes under a fixed cap at every size keeps no more than the cap, whatever the table's size.
 */
const HEAP_MIB = process.env.BENCH_STEP_HEAP_MIB;
const NODE_FLAGS = HEAP_MIB ? [`--max-old-space-size=${HEAP_MIB}`] : [];

/** What one invocation in a child printed: the handler's output or error, its CPU seconds, the peak RSS. */
export interface ChildInvocation {
  readonly output?: unknown;
  readonly error?: { name: string; message: string };
  readonly cpuSeconds: number;
  readonly peakRssMB: number;
}

/**
 * One invocation of `task`'s deployed bundle in a process of its own (task-child.mjs), its Lambda context's time left
 * `remainingMs`: the bench's way to measure one step's memory and CPU apart from the runner's.
 */
export async function invokeInChild(task: TaskStateName, event: unknown, remainingMs: number) {
  const job = JSON.stringify({ bundle: handlerBundlePath(task), event, remainingMs });
  const run = promisify(execFile)(process.execPath, [...NODE_FLAGS, CHILD, job], { env: process.env, maxBuffer: 64e6 });
  return JSON.parse((await run).stdout.trim().split('\n').at(-1)!) as ChildInvocation;
}

/** The largest peak RSS (MiB) any one invocation of each task reached, and how many invocations ran. */
export type StepPeaks = Partial<Record<TaskStateName, StepPeak>>;

/** One task's invocations: how many ran, the largest peak RSS, and the errors they ended with (name: count). */
export interface StepPeak {
  invocations: number;
  peakRssMiB: number;
  errors?: Record<string, number>;
}

/**
 * Invokers (LocalRunOptions.invokers) that run each invocation of `tasks` in a process of its own, the deployed
 * bundle's handler in bare `node` (task-child.mjs), as a Lambda sandbox runs one step: the peak RSS each reports is
 * that step's alone, not the runner's and the Map's other steps'. `peaks` collects the largest per task. Tasks whose
 * default wiring needs what only the runner has (Preflight's local control plane) stay in process.
 */
export function stepProcesses(tasks: readonly TaskStateName[]) {
  const peaks: StepPeaks = {};
  const invokeIn = (task: TaskStateName) => async (event: unknown, remainingMs: number) => {
    const seen = (peaks[task] ??= { invocations: 0, peakRssMiB: 0 });
    seen.invocations += 1;
    const fail = (name: string, message: string) => {
      const errors = (seen.errors ??= {});
      errors[name] = (errors[name] ?? 0) + 1;
      return Object.assign(new Error(message), { name });
    };
    const line = await invokeInChild(task, event, remainingMs).catch((error: Error) => {
      // The process itself failed (out of memory under BENCH_STEP_HEAP_MIB, a crash): Lambda's name for it.
      throw fail('Runtime.ExitError', error.message.slice(0, 500));
    });
    seen.peakRssMiB = Math.max(seen.peakRssMiB, Math.round(line.peakRssMB));
    if (line.error) throw fail(line.error.name, line.error.message);
    return line.output;
  };
  const invokers = Object.fromEntries(tasks.map((task) => [task, invokeIn(task)])) as {
    [T in TaskStateName]?: TaskInvoker<T>;
  };
  return { invokers: invokers satisfies LocalRunOptions['invokers'], peaks };
}
