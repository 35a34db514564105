import type { ChunkProgress, ImportChunkEvent } from '../contract/workflow-payloads.js';
import type { LambdaContextLike } from '../environment/lambda-context.js';
import { resolveLambdaConfig } from '../environment/config.js';
import { createContainerLogger } from '../observability/logger.js';
import { createImportMetrics } from '../observability/metrics.js';
import { withDefaultWiring, type Wiring } from '../wiring/wiring.js';
import { importChunkIo } from './import-chunk-io.js';
import { runImportChunk } from './import-chunk.js';

/** ImportChunk task: import one chunk from its checkpoint; counts add up over checkpoint loops. */
export function createImportHandler({ s3, writeTransport, ledger, ...wiring }: Wiring) {
  const config = resolveLambdaConfig(wiring.config);
  const io = importChunkIo(s3, writeTransport, {
    kmsKeyArn: config.bucketKmsKeyArn,
    partBytes: config.rejectsPartBytes,
  });
  const logger = createContainerLogger();
  const metrics = createImportMetrics();
  const tables = { formats: wiring.sourceFormats, layouts: wiring.chunkLayouts, modes: wiring.writeModes };
  return (event: ImportChunkEvent, context: LambdaContextLike): Promise<ChunkProgress> =>
    runImportChunk(event, io, { config, ledger, context, logger, metrics, ...tables });
}

/** The deployed handler: one wiring per container, from the function's environment. */
export const handler = withDefaultWiring(createImportHandler);
