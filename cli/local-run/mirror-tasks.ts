import type {
  MirrorGuardEvent,
  MirrorPlanEvent,
  PartEvent,
  ScanSegmentEvent,
} from '../../lambdas/contract/mirror-payloads.js';
import type { Wiring } from '../../lambdas/wiring/wiring.js';
import { nameServiceError } from '../../lambdas/wiring/service-error-names.js';
import type { TaskStateName } from '../../lib/workflow-tasks.js';
import { loadHandlerFactory } from './handler-bundles.js';
import { invokeWithTimeout } from './invoke-with-timeout.js';
import { invocationContext, type ScriptedClock } from './lambda-clock.js';
import type { LocalRunOptions, MirrorEvent, RunnerEvent } from './run-options.js';
import { runningTask } from './running-task.js';

/** How the mirror's invocations run: their clocks (lambda-clock.ts) and where progress events go. */
export interface MirrorTaskSettings {
  readonly clocks: NonNullable<LocalRunOptions['clocks']>;
  readonly emit: (event: RunnerEvent) => void;
}

/**
 * The handlers of a mirror's Task states (lib/workflow-tasks.ts TASK_STATE_FUNCTIONS): MirrorPlan and
 * MirrorScanSegment on the MirrorScan function, MirrorComparePart, MirrorGuard and MirrorDeletePart on MirrorParts,
 * each built from its bundle when first called (an import that is no mirror never loads them), each invocation with
 * a fresh context of `timeoutMs`, named as deployed. Each finished segment or part is told as a `mirror` event.
 *
 * @example
 * const handlers = { ...otherTasks, ...mirrorTaskHandlers(wiring, 900_000, { clocks: {}, emit: console.log }) };
 */
export function mirrorTaskHandlers(wiring: Wiring, timeoutMs: number, settings: MirrorTaskSettings) {
  const scan = built('MirrorScan', async () => (await loadHandlerFactory('MirrorScan'))(wiring), timeoutMs);
  const parts = built('MirrorParts', async () => (await loadHandlerFactory('MirrorParts'))(wiring), timeoutMs);
  const context = (clock?: ScriptedClock) => invocationContext(timeoutMs, clock);
  const { MirrorScan: scanClock, MirrorParts: partsClock } = settings.clocks;
  const steps = mirrorSteps(settings.emit);
  return {
    MirrorPlan: (input: MirrorPlanEvent) =>
      scan.run((handler) => handler(input, context())).then((plan) => (steps.planned(plan), plan)),
    MirrorScanSegment: (input: ScanSegmentEvent) =>
      scan
        .run((handler) => handler(input, context(scanClock)))
        .then((progress) => {
          steps.advance('scanning table', progress.next === null, progress.scanned - (input.progress?.scanned ?? 0));
          return progress;
        }),
    MirrorComparePart: (input: PartEvent & { step: 'compare' }) =>
      parts
        .run((handler) => handler(input, context()))
        .then((part) => {
          steps.advance('comparing', true, part.notInFile);
          return part;
        }),
    MirrorGuard: (input: MirrorGuardEvent & { step: 'guard' }) => parts.run((handler) => handler(input, context())),
    MirrorDeletePart: (input: PartEvent & { step: 'delete' }) =>
      parts
        .run((handler) => handler(input, context(partsClock)))
        .then((progress) => {
          steps.advance('deleting', progress.next === null, progress.deleted - (input.progress?.deleted ?? 0));
          return progress;
        }),
  };
}

/** The counts of each step of the mirror, told as events: segments or parts done of all, and the keys so far. */
function mirrorSteps(emit: (event: RunnerEvent) => void) {
  const totals = { 'scanning table': 0, comparing: 0, deleting: 0 };
  const counts = new Map<MirrorEvent['step'], { done: number; keys: number }>();
  return {
    planned(plan: { totalSegments: number; parts: number }) {
      Object.assign(totals, { 'scanning table': plan.totalSegments, comparing: plan.parts, deleting: plan.parts });
    },
    advance(step: MirrorEvent['step'], finished: boolean, keys: number) {
      const count = counts.get(step) ?? { done: 0, keys: 0 };
      counts.set(step, { done: count.done + (finished ? 1 : 0), keys: count.keys + keys });
      emit({ type: 'mirror', step, total: totals[step], ...counts.get(step)! });
    },
  };
}

/** A function's handler, made on first use, whose calls run as Lambda runs them (invoke-with-timeout.ts). */
function built<H>(task: TaskStateName, make: () => Promise<H>, timeoutMs: number) {
  let made: Promise<H> | undefined;
  return {
    run: <R>(call: (handler: H) => Promise<R>): Promise<R> =>
      runningTask
        .run(task, async () => invokeWithTimeout(timeoutMs, async () => call(await (made ??= make()))))
        .catch((error: unknown) => {
          throw nameServiceError(error);
        }),
  };
}
