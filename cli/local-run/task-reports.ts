import { mirrorReports } from './mirror-reports.js';
import type { RunnerEvent, TaskReports } from './run-options.js';

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
