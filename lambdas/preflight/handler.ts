import type { PreflightEvent, ScanState } from '../contract/workflow-payloads.js';
import { preflightIo } from './preflight-io.js';
import { deadlineCheck, type LambdaContextLike } from '../environment/lambda-context.js';
import { createContainerLogger, invocationLogger } from '../observability/logger.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { runPreflight } from './preflight.js';

/** Preflight task: validate and scan into chunks, returning a checkpoint before the deadline. */
export function createPreflightHandler({ s3, dynamodb, config, control, ledger, writeModes }: Wiring) {
  const io = preflightIo(s3, dynamodb, config.bucketKmsKeyArn);
  const containerLogger = createContainerLogger();
  return async (event: PreflightEvent, context: LambdaContextLike): Promise<ScanState> => {
    const state = await runPreflight(event, io, {
      allowedTables: config.allowedTables,
      bucketName: config.bucketName,
      shouldStop: deadlineCheck(context),
      control,
      ledger,
      queueFirstWaitSeconds: config.queueFirstWaitSeconds,
      rejectsPrefix: config.rejectsPrefix,
      stagingPrefix: config.stagingPrefix,
      importMemoryMb: config.importMemoryMb,
      warmThroughputAllowed: config.warmThroughputAllowed,
      writeModes,
    });
    const { bucket, key, prefix, table } = state.request;
    const keys = { bucket, key: key ?? prefix, table, execution: state.executionName };
    const logger = invocationLogger(containerLogger, context, keys);
    // Once, on the call that checked the table (later calls carry the same state on).
    const firstCall = !('checkpoint' in (event.input as object));
    if (firstCall && state.safety?.warning) logger.warn(state.safety.warning, { safety: state.safety });
    logger.info('preflight', {
      objects: state.sources.objects.length,
      chunks: state.chunks.length,
      checkpoint: state.checkpoint,
      size: state.object.size,
      scanComplete: state.scanComplete,
      queue: state.queue,
      lanes: state.lanes,
    });
    return state;
  };
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createPreflightHandler);
