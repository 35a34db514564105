import { randomUUID } from 'node:crypto';
import { LOCAL_BUCKET, ensureBucket, ensureTable } from './local-stack.js';
import { planUpload, uploadPlanned, type UploadPlan } from './local-upload.js';
import { createProgressPrinter } from './progress-printer.js';
import { readAndBuildRequest, type BuiltRequest } from '../flags/request-file.js';
import type { TableKeys } from '../flags/local-flags.js';
import type { RequestFlags } from '../flags/request-flags.js';
import { runLocalImport } from './runner.js';
import { createWiring, type Wiring } from '../../lambdas/wiring/wiring.js';
import { startLocalServices } from '../services/index.js';
import { exitCodeOf, printSummary, type Output } from '../output/summary.js';
import { printFailure } from '../output/failure.js';
import { keepOutputs } from '../output/diff-copy.js';
import { keepRejectsOfFailure } from '../output/rejects-copy.js';
import { executionOutputPrefix } from '../../lambdas/contract/workflow-payloads.js';
import { registerRunning } from './running-registry.js';
import { noticeBeforeStart } from '../output/backup-notice.js';
import { interruptedLine } from '../output/interrupted.js';
import { onInterrupt } from '../services/interrupt.js';

export { EXIT_FAILED, EXIT_OK, EXIT_REJECTS, type Output } from '../output/summary.js';

/** `local` can make the table: the hint names the flags. */
const MISSING_TABLE_HINT =
  'give --create-table --pk NAME[:S|N|B] (and --sk NAME[:S|N|B] for a composite key) to create it, on demand';

/** `s3-ddb-import local` as its command line gives it (cli/commands/local.ts). */
export interface LocalCommand {
  /** The file, folder or DynamoDB export to import. */
  readonly file: string;
  /** `--request`: a StartExecution payload to run as it is, bucket and key replaced by the uploaded file's. */
  readonly requestFile?: string;
  /** The request fields the flags give (none with `requestFile`, whose payload says them). */
  readonly request: RequestFlags;
  /** `--create-table`: the table's key. */
  readonly createTable: TableKeys | null;
  readonly concurrency: number;
  readonly timeoutSeconds: number;
  readonly json: boolean;
}

/**
 * `s3-ddb-import local`: resolve the request, start local services, upload the file (or folder, or DynamoDB
 * export), run the workflow, print the summary.
 */
export async function runLocalCommand(command: LocalCommand, output: Output): Promise<number> {
  const started = Date.now();
  const failed = (error: Error) =>
    printFailure(error, { what: 'import', json: command.json, durationMs: Date.now() - started }, output);
  const checked = await checkBeforeServers(command).catch((error: Error) => error);
  if (checked instanceof Error) return failed(checked);
  // No Python, a port taken, an engine that died at start: the message says what to do and names the engine's log.
  const services = await startLocalServices({ log: output.err }).catch((error: Error) => error);
  if (services instanceof Error) return failed(services);
  // The first run installs the engine (about 10 s): the import's time and rate leave the servers' start out.
  const servicesReadyMs = Date.now() - started;
  let unregister = () => undefined as void;
  try {
    // Handler logs are for CloudWatch; the CLI shows its own progress and prints the table's safety warning
    // itself, before the upload: at WARN, preflight's log line would say it a second time, as raw JSON.
    // POWERTOOLS_LOG_LEVEL=WARN shows the handlers' warnings (docs/guides/troubleshooting.md).
    process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
    const wiring = createWiring(services); // the handlers talk to exactly the servers started here
    // So that `rate`/`pause`/`resume --local`, in another terminal, find this import's ledger.
    const ledgerTable = wiring.ledger.tableName;
    unregister = (await registerRunning({ dynamodbEndpoint: services.dynamodbEndpoint, ledgerTable })).remove;
    return await importOnServices(command, checked, { wiring, servicesReadyMs }, output);
  } catch (error) {
    return failed(error as Error);
  } finally {
    unregister();
    await services.stop();
  }
}

/**
 * The source must exist, and the request (a --request payload and the flags) is read and resolved, before any
 * server starts, with the key or prefix the upload will have, so a bad request costs nothing.
 */
async function checkBeforeServers(command: LocalCommand): Promise<{ plan: UploadPlan; request: BuiltRequest }> {
  const { placed: plan, request } = await readAndBuildRequest(command.request, command.requestFile, async () => {
    const placed = await planUpload(command.file);
    return { placed, location: { bucket: LOCAL_BUCKET, ...placed.location } };
  });
  return { plan, request };
}

/** Upload, table, the safety notice, the workflow, the summary: the import on the started servers. */
async function importOnServices(
  command: LocalCommand,
  { plan, request }: { plan: UploadPlan; request: BuiltRequest },
  { wiring, servicesReadyMs }: { wiring: Wiring; servicesReadyMs: number },
  output: Output,
): Promise<number> {
  const importStarted = Date.now();
  const { s3, dynamodb } = wiring;
  const keys = command.createTable;
  const bucketReady = ensureBucket(s3, LOCAL_BUCKET);
  bucketReady.catch(() => undefined); // awaited below, unless the table's check fails first
  // The table's safety check comes before the upload, which can take a while for a big file: a table without
  // point-in-time recovery (a new one) refuses a delete here without --allow-without-backup, and nothing is uploaded.
  if (keys) await ensureTable(dynamodb, request.resolved.table, keys.partitionKey, keys.sortKey);
  await noticeBeforeStart(dynamodb, request.resolved, output, MISSING_TABLE_HINT);
  await bucketReady;
  await uploadPlanned(s3, LOCAL_BUCKET, plan);
  const progress = createProgressPrinter(output);
  // Named up front, as Step Functions names an execution: `rate`, `pause` and `resume --local` take the name.
  const executionName = randomUUID();
  output.err(
    `execution ${executionName} (change it while it runs: s3-ddb-import rate|pause|resume ${executionName} --local)`,
  );
  // Ctrl-C: the lanes go back to the ledger at once (servers that outlive this command would keep them for a
  // 15-minute lease, holding up the next import into the table), one line says what may have landed, exit 130.
  const disarm = onInterrupt(async () => {
    progress.done();
    output.err(interruptedLine(request.resolved));
    await wiring.ledger.release(executionName);
  });
  const stopLive = followLiveRows(wiring, executionName, progress.onLiveRows);
  const summary = await runLocalImport(request.input, {
    timeoutMs: command.timeoutSeconds * 1000,
    maxConcurrency: command.concurrency,
    onEvent: progress.onEvent,
    wiring,
    executionName,
  })
    .catch(async (error: Error) => {
      progress.done();
      throw await withRejectsKept(error, wiring, executionName, output);
    })
    .finally(() => (disarm(), stopLive()));
  progress.done();
  const kept = await keepOutputs(s3, summary, output);
  const durationMs = Date.now() - importStarted;
  printSummary(summary, { json: command.json, durationMs, servicesReadyMs, ...kept }, output);
  return exitCodeOf(summary);
}

/**
 * A failed import's rejects copied home before the engine goes (keepRejectsOfFailure), and the failure's hint
 * extended with where they are; the error itself is unchanged otherwise. A copy that fails leaves the error as it was.
 */
async function withRejectsKept(error: Error, wiring: Wiring, executionName: string, output: Output): Promise<Error> {
  const folder = executionOutputPrefix(wiring.config.rejectsPrefix, executionName);
  const where = await keepRejectsOfFailure(wiring.s3, LOCAL_BUCKET, folder, output).catch(() => null);
  if (!where) return error;
  const hint = [(error as { hint?: string }).hint, where].filter(Boolean).join('\n');
  return Object.assign(error, { hint });
}

/** Between the lanes' reports (every 5 s) a look every 2 s shows a new count within 2 s of its arrival. */
const LIVE_LOOK_MS = 2_000;

/** Reads the import's live row count from the ledger every 2 s, as `status` does for a deployed one. */
function followLiveRows(wiring: Wiring, executionName: string, onRows: (rows: number) => void): () => void {
  const timer = setInterval(() => {
    wiring.ledger.read(executionName).then(
      (live) => live?.rows !== undefined && onRows(live.rows),
      () => undefined, // a look that fails is tried again at the next tick
    );
  }, LIVE_LOOK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
