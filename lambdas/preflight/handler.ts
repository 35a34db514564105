import { dynamoDbClient, s3Client } from '../runtime/clients.js';
import { preflightIo } from '../runtime/aws-io.js';
import { readLambdaConfig } from '../runtime/config.js';
import { deadlineCheck, type LambdaContextLike } from '../runtime/lambda-context.js';
import { createLogger } from '../runtime/logger.js';
import { runPreflight } from './preflight.js';
import type { PreflightEvent, ScanState } from '../request/workflow-payloads.js';

const config = readLambdaConfig();

/** Preflight task: validate and scan into chunks, returning a checkpoint before the deadline. */
export async function handler(event: PreflightEvent, context: LambdaContextLike): Promise<ScanState> {
  const io = preflightIo(s3Client(), dynamoDbClient());
  const state = await runPreflight(event, io, { allowedTables: config.allowedTables, shouldStop: deadlineCheck(context) });
  const { bucket, key, table } = state.request;
  createLogger({ bucket, key, table, execution: state.executionName }).info('preflight', {
    chunks: state.chunks.length,
    checkpoint: state.checkpoint.offset,
    size: state.object.size,
    scanComplete: state.scanComplete,
  });
  return state;
}
