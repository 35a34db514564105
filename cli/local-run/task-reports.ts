import type { TaskPayloads } from '../../lambdas/contract/task-payloads.js';
import type { TaskStateName } from '../../lib/workflow-tasks.js';
import { mirrorReports } from './mirror-reports.js';
import type { RunnerEvent } from './run-options.js';

/** What the runner reports around one task's invocations: before it runs, and once it returned. */
export interface TaskReport<T extends TaskStateName> {
  before?(input: TaskPayloads[T]['event']): void;
  after?(input: TaskPayloads[T]['event'], output: TaskPayloads[T]['result']): void;
}

/** The reports of the tasks the progress printer follows; a task without one reports nothing. */
export type TaskReports = { readonly [T in TaskStateName]?: TaskReport<T> };

/**
 * The run's progress events (run-options.ts RunnerEvent), told to `emit`: preflight's plan once it returns, each
 * chunk's start and its progress after each invocation.
 * @example
 * taskReports((event) => printer.show(event)).Preflight?.after?.(input, state);
 */
export function taskReports(emit: (event: RunnerEvent) => void): TaskReports {
  return {
    ...mirrorReports(emit),
    Preflight: {
      after: (_, state) =>
        emit({
          type: 'preflight',
          chunks: state.chunks.length,
          chunkList: state.chunks,
          scanComplete: state.scanComplete,
          offset: state.checkpoint.offset,
          size: state.object.size,
          queue: state.queue,
          lanes: state.lanes,
        }),
    },
    ImportChunk: {
      before: ({ chunkIndex, chunk, progress: previous }) =>
        emit({
          type: 'chunk-start',
          chunkIndex,
          from: previous?.next ?? { offset: chunk.start, line: chunk.line ?? 1 },
        }),
      after: ({ chunkIndex }, progress) =>
        emit({ type: 'chunk-progress', chunkIndex, done: progress.next === null, ...progress }),
    },
  };
}
