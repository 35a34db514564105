import type { PlanningState, PreflightEvent } from '../contract/workflow-payloads.js';
import { preflightIo } from './preflight-io.js';
import { resolveLambdaConfig } from '../environment/config.js';
import { deadlineCheck, type LambdaContextLike } from '../environment/lambda-context.js';
import { createContainerLogger } from '../observability/logger.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { logPreflight } from './preflight-log.js';
import { runPreflight } from './preflight.js';

/** Preflight task: validate and plan into chunks, returning a checkpoint before the deadline. */
export function createPreflightHandler({ s3, dynamodb, config, control, ledger, ...wiring }: Wiring) {
  const settings = resolveLambdaConfig(config);
  const io = preflightIo(s3, dynamodb, settings.bucketKmsKeyArn, settings.bucketName);
  const containerLogger = createContainerLogger();
  const tables = { writeModes: wiring.writeModes, formats: wiring.sourceFormats, layouts: wiring.chunkLayouts };
  return async (event: PreflightEvent, context: LambdaContextLike): Promise<PlanningState> => {
    const state = await runPreflight(event, io, {
      ...settings,
      shouldStop: deadlineCheck(context),
      control,
      ledger,
      ...tables,
    });
    logPreflight(containerLogger, context, event, state);
    return state;
  };
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createPreflightHandler);
