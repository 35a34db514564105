import { putObject, sendBatchWrite, sendGetObject } from '../shared/aws-io.js';
import { importChunk } from '../shared/chunk-importer.js';
import { dynamoDbClient, s3Client } from '../shared/clients.js';
import { readLambdaConfig } from '../shared/config.js';
import { deadlineCheck, type LambdaContextLike } from '../shared/lambda-context.js';
import { createLogger } from '../shared/logger.js';
import { createImportSink } from '../shared/import-sink.js';
import { formatRejects } from '../shared/rejects.js';
import { readRange } from '../shared/s3-range-reader.js';
import { executionOutputPrefix, type ChunkProgress, type ImportChunkEvent } from '../shared/workflow.js';

const config = readLambdaConfig();

/** ImportChunk task: import one chunk from its checkpoint; counts add up over checkpoint loops. */
export async function handler(event: ImportChunkEvent, context: LambdaContextLike): Promise<ChunkProgress> {
  const { job, chunk, chunkIndex, progress } = event;
  const { bucket, key, table } = job.request;
  const from = progress?.next ?? { offset: chunk.start, line: chunk.line };
  const source = { bucket, key, etag: job.etag };
  const getObject = sendGetObject(s3Client());
  const { sink, writer } = createImportSink(job, chunk, sendBatchWrite(dynamoDbClient()));
  const result = await importChunk({
    job,
    chunk,
    from,
    read: (start, end) => readRange(getObject, source, start, end),
    sink,
    shouldStop: deadlineCheck(context),
  });
  if (result.rejects.length > 0) {
    const rejectsKey = `${executionOutputPrefix(config.rejectsPrefix, job.executionName)}/${from.offset}.csv`;
    await putObject(s3Client(), bucket, rejectsKey, formatRejects(result.rejects), 'text/csv');
  }
  createLogger({ bucket, key, table, execution: job.executionName, chunk: chunkIndex }).info('chunk progress', {
    from: from.offset, next: result.next?.offset ?? null, rows: result.rows, written: writer.written, rejected: result.rejected,
  });
  return {
    next: result.next,
    rows: (progress?.rows ?? 0) + result.rows,
    written: (progress?.written ?? 0) + writer.written,
    rejected: (progress?.rejected ?? 0) + result.rejected,
  };
}
