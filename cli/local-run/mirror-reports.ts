import type { MirrorPlan } from '../../lambdas/contract/mirror-payloads.js';
import type { MirrorEvent, RunnerEvent, TaskReports } from './run-options.js';

/** A segment or part is done when it has no next step, and is not paused (a paused first step holds `next: null`). */
const finished = (output: { readonly next: unknown; readonly pausedWaitSeconds?: number }) =>
  output.next === null && output.pausedWaitSeconds === undefined;

/**
 * The reports of a mirror's two functions (task-reports.ts): each finished Scan segment, compared part and deleted
 * part told as a `mirror` event, with the step's count done of all and the keys so far (scanned in scope, dropped by
 * the file, deleted).
 *
 * @example
 * const reports = { ...taskReports(emit), ...mirrorReports(emit) };
 */
export function mirrorReports(emit: (event: RunnerEvent) => void): Pick<TaskReports, 'MirrorScan' | 'MirrorParts'> {
  const totals = { 'scanning table': 0, comparing: 0, deleting: 0 };
  const counts = new Map<MirrorEvent['step'], { done: number; keys: number }>();
  const advance = (step: MirrorEvent['step'], finished: boolean, keys: number) => {
    const count = counts.get(step) ?? { done: 0, keys: 0 };
    const now = { done: count.done + (finished ? 1 : 0), keys: count.keys + keys };
    counts.set(step, now);
    emit({ type: 'mirror', step, total: totals[step], ...now });
  };
  return {
    MirrorScan: {
      after(input, output) {
        if (!('segment' in input)) {
          const plan = output as MirrorPlan;
          Object.assign(totals, { 'scanning table': plan.totalSegments, comparing: plan.parts, deleting: plan.parts });
        } else if ('scanned' in output) {
          advance('scanning table', finished(output), output.scanned - (input.progress?.scanned ?? 0));
        }
      },
    },
    MirrorParts: {
      after(input, output) {
        if (input.step === 'compare' && 'notInFile' in output && !('inScope' in output)) {
          advance('comparing', true, output.notInFile);
        } else if (input.step === 'delete' && 'deleted' in output) {
          advance('deleting', finished(output), output.deleted - (input.progress?.deleted ?? 0));
        }
      },
    },
  };
}
