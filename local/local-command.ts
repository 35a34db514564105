import type { ImportRequest } from '../lambdas/request/import-request.js';
import type { LocalCommand } from './cli-args.js';
import { LOCAL_BUCKET, ensureBucket, ensureTable, uploadKey, uploadSource } from './local-stack.js';
import { createProgressPrinter } from './progress.js';
import { loadRequestFile } from './request-file.js';
import { runLocalImport } from './runner.js';
import { createWiring } from '../lambdas/runtime/wiring.js';
import { startLocalServices } from './services/index.js';
import { exitCodeOf, keepRejects, printFailure, printSummary, type Output } from './summary.js';

export { EXIT_FAILED, EXIT_OK, EXIT_REJECTS, type Output } from './summary.js';

/**
 * `s3-ddb-import local`: start local services, upload the file (or folder, or DynamoDB export), run the workflow,
 * print the summary.
 */
export async function runLocalCommand(command: LocalCommand, output: Output): Promise<number> {
  const started = Date.now();
  let payload: ImportRequest | undefined; // --request: checked before any server starts
  try {
    payload = command.requestFile
      ? await loadRequestFile(command.requestFile, LOCAL_BUCKET, uploadKey(command.file))
      : undefined;
  } catch (error) {
    return printFailure(error as Error, { json: command.json, durationMs: Date.now() - started }, output);
  }
  const services = await startLocalServices({ log: output.err });
  try {
    process.env.LOG_LEVEL ??= 'warn'; // handler logs are for CloudWatch; the CLI shows its own progress
    const wiring = createWiring(services); // the handlers talk to exactly the servers started here
    const { s3, dynamodb } = wiring;
    await ensureBucket(s3, LOCAL_BUCKET);
    const source = await uploadSource(s3, LOCAL_BUCKET, command.file);
    const request = payload ? withSource(payload, source) : requestFromFlags(command, source);
    if (command.createTable && command.partitionKey) {
      await ensureTable(dynamodb, request.table, command.partitionKey, command.sortKey);
    }
    const progress = createProgressPrinter(output);
    const summary = await runLocalImport(request, {
      timeoutMs: command.timeoutSeconds * 1000,
      maxConcurrency: command.concurrency,
      onEvent: progress.onEvent,
      wiring,
    });
    progress.done();
    const rejectsDir = summary.rejectsKey ? await keepRejects(s3, summary, output) : null;
    printSummary(summary, { json: command.json, durationMs: Date.now() - started, rejectsDir }, output);
    return exitCodeOf(summary);
  } catch (error) {
    return printFailure(error as Error, { json: command.json, durationMs: Date.now() - started }, output);
  } finally {
    await services.stop();
  }
}

/** A --request payload for what was uploaded: its key, or the prefix a folder or an export went to. */
function withSource(payload: ImportRequest, source: { key: string } | { prefix: string }): ImportRequest {
  const { key: _key, prefix: _prefix, ...rest } = payload;
  return { ...rest, bucket: LOCAL_BUCKET, ...source };
}

function requestFromFlags(command: LocalCommand, source: { key: string } | { prefix: string }): ImportRequest {
  return {
    bucket: LOCAL_BUCKET,
    ...source,
    table: command.table,
    format: command.format,
    types: command.types,
    ...(command.chunkMiB !== undefined ? { chunkMiB: command.chunkMiB } : {}),
    ...(command.maxWriteRate > 0 ? { maxWriteRate: command.maxWriteRate } : {}),
    ...(command.spread ? { spread: true } : {}),
  };
}
