import { randomUUID } from 'node:crypto';
import type { LocalCommand } from '../flags/cli-args.js';
import { LOCAL_BUCKET, checkLocalSource, ensureBucket, ensureTable, uploadKey, uploadSource } from './local-stack.js';
import { createProgressPrinter } from './progress-printer.js';
import { buildRequest, readRequestFile } from '../flags/request-file.js';
import { runLocalImport } from './runner.js';
import { createWiring } from '../../lambdas/wiring/wiring.js';
import { startLocalServices } from '../services/index.js';
import { exitCodeOf, printFailure, printSummary, type Output } from '../output/summary.js';
import { keepRejects } from '../output/rejects-copy.js';
import { registerRunning } from './running-registry.js';
import { noticeBeforeStart } from '../output/backup-notice.js';
import { resolveImportRequest } from '../../lambdas/request/resolve-request.js';

export { EXIT_FAILED, EXIT_OK, EXIT_REJECTS, type Output } from '../output/summary.js';

/**
 * `s3-ddb-import local`: start local services, upload the file (or folder, or DynamoDB export), run the workflow,
 * print the summary.
 */
export async function runLocalCommand(command: LocalCommand, output: Output): Promise<number> {
  const started = Date.now();
  let checked: Awaited<ReturnType<typeof checkBeforeServers>>;
  try {
    checked = await checkBeforeServers(command);
  } catch (error) {
    return printFailure(error as Error, { json: command.json, durationMs: Date.now() - started }, output);
  }
  const { flags, file, table } = checked;
  // No Python, a port taken, an engine that died at start: the message says what to do and names the engine's log.
  const services = await startLocalServices({ log: output.err }).catch((error: Error) => error);
  if (services instanceof Error)
    return printFailure(services, { json: command.json, durationMs: Date.now() - started }, output);
  // The first run installs the engine (about 10 s): the import's time and rate leave the servers' start out.
  const servicesReadyMs = Date.now() - started;
  const importStarted = Date.now();
  let unregister = () => undefined as void;
  try {
    // Handler logs are for CloudWatch; the CLI shows its own progress (see cli/watch/watch-command.ts).
    process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
    const wiring = createWiring(services); // the handlers talk to exactly the servers started here
    // So that `rate`/`pause`/`resume --local`, in another terminal, find this import's ledger.
    const ledgerTable = wiring.ledger.tableName;
    unregister = (await registerRunning({ dynamodbEndpoint: services.dynamodbEndpoint, ledgerTable })).remove;
    const { s3, dynamodb } = wiring;
    await ensureBucket(s3, LOCAL_BUCKET);
    const source = await uploadSource(s3, LOCAL_BUCKET, command.file);
    if (command.createTable && command.partitionKey) {
      await ensureTable(dynamodb, table, command.partitionKey, command.sortKey);
    }
    const request = buildRequest(flags, file, { bucket: LOCAL_BUCKET, ...source });
    // A table without point-in-time recovery (a new one) refuses a delete here without --allow-without-backup.
    await noticeBeforeStart(dynamodb, resolveImportRequest(request), output);
    const progress = createProgressPrinter(output);
    // Named up front, as Step Functions names an execution: `rate`, `pause` and `resume --local` take the name.
    const executionName = randomUUID();
    output.err(
      `execution ${executionName} (change it while it runs: s3-ddb-import rate|pause|resume ${executionName} --local)`,
    );
    const summary = await runLocalImport(request, {
      timeoutMs: command.timeoutSeconds * 1000,
      maxConcurrency: command.concurrency,
      onEvent: progress.onEvent,
      wiring,
      executionName,
    });
    progress.done();
    const rejectsDir = summary.rejectsKey ? await keepRejects(s3, summary, output) : null;
    const durationMs = Date.now() - importStarted;
    printSummary(summary, { json: command.json, durationMs, servicesReadyMs, rejectsDir }, output);
    return exitCodeOf(summary);
  } catch (error) {
    return printFailure(error as Error, { json: command.json, durationMs: Date.now() - started }, output);
  } finally {
    unregister();
    await services.stop();
  }
}

/**
 * The source must exist, and a --request payload is read and checked, before any server starts, as if the file were
 * uploaded as one key (the upload's real key or folder prefix replaces that later), so a bad payload costs nothing.
 */
async function checkBeforeServers(command: LocalCommand) {
  const flags = { ...command, table: command.table || undefined };
  let file: Record<string, unknown> = {};
  let table = command.table;
  if (command.requestFile) {
    file = await readRequestFile(command.requestFile);
    ({ table } = buildRequest(flags, file, { bucket: LOCAL_BUCKET, key: uploadKey(command.file) }));
  }
  await checkLocalSource(command.file);
  return { flags, file, table };
}
