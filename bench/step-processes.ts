import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { handlerBundlePath } from '../cli/local-run/handler-bundles.js';
import type { LocalRunOptions, TaskInvoker } from '../cli/local-run/run-options.js';
import type { TaskStateName } from '../lib/workflow-tasks.js';

const CHILD = fileURLToPath(new URL('./task-child.mjs', import.meta.url));

/** The largest peak RSS (MiB) any one invocation of each task reached, and how many invocations ran. */
export type StepPeaks = Partial<Record<TaskStateName, { invocations: number; peakRssMiB: number }>>;

/**
 * Invokers (LocalRunOptions.invokers) that run each invocation of `tasks` in a process of its own, the deployed
 * bundle's handler in bare `node` (task-child.mjs), as a Lambda sandbox runs one step: the peak RSS each reports is
 * that step's alone, not the runner's and the Map's other steps'. `peaks` collects the largest per task. Tasks whose
 * default wiring needs what only the runner has (Preflight's local control plane) stay in process.
 */
export function stepProcesses(tasks: readonly TaskStateName[]) {
  const peaks: StepPeaks = {};
  const invokeIn = (task: TaskStateName) => async (event: unknown, remainingMs: number) => {
    const job = JSON.stringify({ bundle: handlerBundlePath(task), event, remainingMs });
    const run = promisify(execFile)(process.execPath, [CHILD, job], { env: process.env, maxBuffer: 64e6 });
    const line = JSON.parse((await run).stdout.trim().split('\n').at(-1)!) as {
      output?: unknown;
      error?: { name: string; message: string };
      peakRssMB: number;
    };
    const seen = (peaks[task] ??= { invocations: 0, peakRssMiB: 0 });
    seen.invocations += 1;
    seen.peakRssMiB = Math.max(seen.peakRssMiB, Math.round(line.peakRssMB));
    if (line.error) throw Object.assign(new Error(line.error.message), { name: line.error.name });
    return line.output;
  };
  const invokers = Object.fromEntries(tasks.map((task) => [task, invokeIn(task)])) as {
    [T in TaskStateName]?: TaskInvoker<T>;
  };
  return { invokers: invokers satisfies LocalRunOptions['invokers'], peaks };
}
