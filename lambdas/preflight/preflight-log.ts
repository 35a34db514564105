import type { PlanningState, PreflightEvent } from '../contract/workflow-payloads.js';
import { invocationLogger, type createContainerLogger } from '../observability/logger.js';
import { isPlanningState } from './preflight.js';

/**
 * The log lines of one Preflight invocation, keyed by what identifies the import: the table's safety warning once,
 * on the call that checked the table (later calls carry the same state on), and what this call planned.
 */
export function logPreflight(
  container: ReturnType<typeof createContainerLogger>,
  context: object,
  event: PreflightEvent,
  state: PlanningState,
): void {
  const { bucket, key, prefix, table } = state.request;
  const logger = invocationLogger(container, context, {
    bucket,
    key: key ?? prefix,
    table,
    execution: state.executionName,
  });
  if (!isPlanningState(event.input) && state.safety?.warning)
    logger.warn(state.safety.warning, { safety: state.safety });
  logger.info('preflight', {
    objects: state.sources.objects.length,
    chunks: state.chunks.length,
    checkpoint: state.checkpoint,
    size: state.object.size,
    scanComplete: state.scanComplete,
    queue: state.queue,
    lanes: state.lanes,
  });
}
