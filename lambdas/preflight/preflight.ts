import { beginPlanning, resolveStep, type BeginIo, type BeginOptions, type PlanningStep } from './begin-planning.js';
import { admitLanes, type AdmissionOptions } from './lanes.js';
import type { PlanIo } from './object-planner.js';
import { planChunks, type PlanChunksOptions } from './plan-chunks.js';
import type { PlanningState, PreflightEvent } from '../contract/workflow-payloads.js';

/** The I/O preflight needs, passed in so tests drive it against real servers without patching (preflight-io.ts). */
export interface PreflightIo extends BeginIo, PlanIo {}

/** Preflight's settings, every one resolved (environment/config.ts resolveLambdaConfig), and its deadline. */
export interface PreflightOptions extends BeginOptions, PlanChunksOptions, AdmissionOptions {}

/**
 * One Preflight invocation. The first resolves the request and finds its objects (begin-planning.ts); each plans
 * the objects into chunks from the checkpoint until they end or the deadline nears (plan-chunks.ts); once every
 * object is planned, the ledger grants the import its lanes, or says to wait (lanes.ts). The workflow's
 * ScanComplete? and WaitingForLanes? Choices loop back to Preflight with this output as `input`.
 *
 * @example
 * const io = preflightIo(s3, dynamodb);
 * const options = { ...resolveLambdaConfig(readLambdaConfig()), shouldStop: deadlineCheck(context), control, ledger };
 * let state = await runPreflight({ input: request, executionName, execution, maxConcurrency: 40 }, io, options);
 * while (!state.scanComplete || state.queue.waiting) {
 *   state = await runPreflight({ input: state, executionName, execution, maxConcurrency: 40 }, io, options);
 * }
 * // state.chunks: the Map's items; state.lanes.granted: its MaxConcurrency
 */
export async function runPreflight(
  event: PreflightEvent,
  io: PreflightIo,
  options: PreflightOptions,
): Promise<PlanningState> {
  const step = isPlanningState(event.input) ? resumed(event.input, options) : await beginPlanning(event, io, options);
  const planned = step.state.scanComplete ? step.state : await planChunks(step, io, options);
  return planned.scanComplete ? admitLanes(planned, event, options) : planned;
}

/** Whether the Preflight task's input is its own earlier output (a later invocation), not the request. */
export function isPlanningState(input: unknown): input is PlanningState {
  return typeof input === 'object' && input !== null && 'checkpoint' in input && 'request' in input;
}

/** A later invocation plans from the state it returned: its objects as the first invocation marked them. */
function resumed(state: PlanningState, options: Pick<PreflightOptions, 'formats' | 'layouts'>): PlanningStep {
  const staging = state.sources.staging ?? '';
  return { state, ...resolveStep(state.request, state.sources, staging, options), starts: null };
}
