import type { S3Client } from '@aws-sdk/client-s3';
import { join, resolve } from 'node:path';
import type { ImportRequest } from '../lambdas/request/import-request.js';
import type { ImportSummary } from '../lambdas/request/workflow-payloads.js';
import type { LocalCommand } from './cli-args.js';
import { LOCAL_BUCKET, downloadPrefix, ensureBucket, ensureTable, uploadSource } from './local-stack.js';
import { createProgressPrinter } from './progress.js';
import { runLocalImport } from './runner.js';
import { createWiring } from '../lambdas/runtime/wiring.js';
import { startLocalServices } from './services/index.js';

/** Exit codes are public contract: 0 every row landed, 2 some rows were rejected, 1 the import failed. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_REJECTS = 2;

export interface Output {
  out(line: string): void;
  err(line: string): void;
  readonly interactive: boolean;
}

/**
 * `s3-ddb-import local`: start local services, upload the file (or folder, or DynamoDB export), run the workflow,
 * print the summary.
 */
export async function runLocalCommand(command: LocalCommand, output: Output): Promise<number> {
  const started = Date.now();
  const services = await startLocalServices({ log: output.err });
  try {
    process.env.LOG_LEVEL ??= 'warn'; // handler logs are for CloudWatch; the CLI shows its own progress
    const wiring = createWiring(services); // the handlers talk to exactly the servers started here
    const { s3, dynamodb } = wiring;
    await ensureBucket(s3, LOCAL_BUCKET);
    const source = await uploadSource(s3, LOCAL_BUCKET, command.file);
    if (command.createTable && command.partitionKey) {
      await ensureTable(dynamodb, command.table, command.partitionKey, command.sortKey);
    }
    const request: ImportRequest = {
      bucket: LOCAL_BUCKET,
      ...source,
      table: command.table,
      format: command.format,
      types: command.types,
      ...(command.chunkMiB !== undefined ? { chunkMiB: command.chunkMiB } : {}),
      ...(command.maxWriteRate > 0 ? { maxWriteRate: command.maxWriteRate } : {}),
      ...(command.spread ? { spread: true } : {}),
    };
    const progress = createProgressPrinter(output);
    const summary = await runLocalImport(request, {
      timeoutMs: command.timeoutSeconds * 1000,
      maxConcurrency: command.concurrency,
      onEvent: progress.onEvent,
      wiring,
    });
    progress.done();
    const rejectsDir = summary.rejectsKey ? await keepRejects(s3, summary, output) : null;
    printSummary(command, summary, Date.now() - started, rejectsDir, output);
    return summary.rejected > 0 ? EXIT_REJECTS : EXIT_OK;
  } catch (error) {
    const e = error as Error;
    output.err(`import failed: ${e.name}: ${e.message}`);
    if (command.json) output.out(JSON.stringify({ status: 'FAILED', error: e.name, message: e.message, durationMs: Date.now() - started }));
    return EXIT_FAILED;
  } finally {
    await services.stop();
  }
}

/** Local S3 stops with the command, so rejected rows are copied to ./s3-ddb-import-rejects/<execution>/. */
async function keepRejects(s3: S3Client, summary: ImportSummary, output: Output): Promise<string> {
  const dir = resolve(join('s3-ddb-import-rejects', summary.rejectsKey!.split('/').filter(Boolean).pop() ?? 'rejects'));
  const files = await downloadPrefix(s3, summary.bucket, summary.rejectsKey!, dir);
  output.err(`${summary.rejected} rejected rows: ${files.length} files in ${dir}`);
  return dir;
}

function printSummary(command: LocalCommand, summary: ImportSummary, durationMs: number, rejectsDir: string | null, output: Output): void {
  if (command.json) {
    const { status, rows, written, rejected, chunks, rejectsKey } = summary;
    output.out(JSON.stringify({ status, rows, written, rejected, chunks, durationMs, rejectsKey, rejectsDir, table: summary.table }));
    return;
  }
  const rate = summary.written / Math.max(durationMs / 1000, 0.001);
  output.out(`${summary.status}: ${summary.rows} rows, ${summary.written} written, ${summary.rejected} rejected, ` +
    `${summary.chunks} chunks into ${summary.table} in ${(durationMs / 1000).toFixed(1)} s (${Math.round(rate)} items/s)`);
  if (rejectsDir) output.out(`rejected rows (line, byte offset, reason, record): ${rejectsDir}`);
}
