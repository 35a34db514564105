import type {
  MirrorPlanEvent,
  PartEvent,
  ScanSegmentEvent,
  MirrorGuardEvent,
} from '../../lambdas/contract/mirror-payloads.js';
import type { Wiring } from '../../lambdas/wiring/wiring.js';
import { nameServiceError } from '../../lambdas/wiring/service-error-names.js';
import type { TaskStateName } from '../../lib/workflow-tasks.js';
import { loadHandlerFactory } from './handler-bundles.js';
import { invokeWithTimeout } from './invoke-with-timeout.js';
import { invocationContext, type ScriptedClock } from './lambda-clock.js';
import type { LocalRunOptions } from './run-options.js';
import { runningTask } from './running-task.js';

/**
 * The handlers of a mirror's Task states (lib/workflow-tasks.ts TASK_STATE_FUNCTIONS): MirrorPlan and
 * MirrorScanSegment on the MirrorScan function, MirrorComparePart, MirrorGuard and MirrorDeletePart on MirrorParts,
 * each built from its bundle when first called (an import that is no mirror never loads them), each invocation with
 * a fresh context of `timeoutMs`, named as deployed.
 *
 * @example
 * const handlers = { ...otherTasks, ...mirrorTaskHandlers(wiring, 900_000) };
 */
export function mirrorTaskHandlers(wiring: Wiring, timeoutMs: number, clocks: LocalRunOptions['clocks'] = {}) {
  const scan = built('MirrorScan', async () => (await loadHandlerFactory('MirrorScan'))(wiring));
  const parts = built('MirrorParts', async () => (await loadHandlerFactory('MirrorParts'))(wiring));
  const context = (clock?: ScriptedClock) => invocationContext(timeoutMs, clock);
  const [scanClock, partsClock] = [clocks?.MirrorScan, clocks?.MirrorParts];
  return {
    MirrorPlan: (input: MirrorPlanEvent) => scan.run((handler) => handler(input, context())),
    MirrorScanSegment: (input: ScanSegmentEvent) => scan.run((handler) => handler(input, context(scanClock))),
    MirrorComparePart: (input: PartEvent & { step: 'compare' }) => parts.run((handler) => handler(input, context())),
    MirrorGuard: (input: MirrorGuardEvent & { step: 'guard' }) => parts.run((handler) => handler(input, context())),
    MirrorDeletePart: (input: PartEvent & { step: 'delete' }) =>
      parts.run((handler) => handler(input, context(partsClock))),
  };

  /** A function's handler, made on first use, whose calls run as Lambda runs them (invoke-with-timeout.ts). */
  function built<H>(task: TaskStateName, make: () => Promise<H>) {
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
}
