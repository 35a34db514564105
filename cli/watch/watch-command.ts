import { readFile } from 'node:fs/promises';
import { readLambdaConfig } from '../../lambdas/environment/config.js';
import { createWiring } from '../../lambdas/wiring/wiring.js';
import { readWatches } from '../../lib/app-context.js';
import { checkWatchPrefix, checkWatchRequest, type WatchedPrefix } from '../../lib/watch-input.js';
import { UsageError } from '../command-line/usage-error.js';
import type { TableKeys } from '../flags/local-flags.js';
import { ensureBucket, ensureTable } from '../local-run/local-stack.js';
import { registerRunning } from '../local-run/running-registry.js';
import { EXIT_FAILED, EXIT_OK, type Output } from '../local-run/local-command.js';
import { startLocalServices } from '../services/index.js';
import { startLocalWatch } from './start-local-watch.js';
import { createWatchPrinter } from './watch-printer.js';
import { printFailure } from '../output/failure.js';

/** `s3-ddb-import local watch` as its command line gives it (cli/commands/local-watch.ts). */
export interface WatchCommand {
  /** The watch the flags describe; without --prefix, the command reads `cdkJson`'s context.watches. */
  readonly watch?: WatchedPrefix;
  readonly cdkJson: string;
  readonly bucket: string;
  /** Create each watched table that does not exist yet, with this key (on demand). */
  readonly createTable?: TableKeys;
  readonly concurrency: number;
  readonly timeoutSeconds: number;
  readonly json: boolean;
}

/** The watches to run: the flags' one, else cdk.json's context.watches; each checked as the construct checks it. */
async function loadWatches(command: WatchCommand): Promise<WatchedPrefix[]> {
  let watches = command.watch ? [command.watch] : undefined;
  if (!watches) {
    const text = await readFile(command.cdkJson, 'utf8').catch(() => undefined);
    if (text === undefined)
      throw new UsageError(
        `no watch: give --prefix P --table T, or run where ${command.cdkJson} exists (or --cdk-json FILE)`,
      );
    watches = readWatches((JSON.parse(text) as { context?: { watches?: unknown } }).context?.watches);
    if (!watches?.length)
      throw new UsageError(`no watch: ${command.cdkJson} has no context.watches; give --prefix P --table T`);
  }
  const { rejectsPrefix } = readLambdaConfig();
  for (const watch of watches) {
    checkWatchPrefix(watch, rejectsPrefix);
    checkWatchRequest(watch);
  }
  return watches;
}

/**
 * `s3-ddb-import local watch`: loads the watches, then runs until Ctrl-C; the exit code. A watch that cannot be
 * loaded is said in one line (a missing one is a UsageError, which the CLI prints with the usage).
 */
export async function runLocalWatchCommand(command: WatchCommand, output: Output): Promise<number> {
  let watches: WatchedPrefix[];
  try {
    watches = await loadWatches(command);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    output.err(`local watch: ${(error as Error).message}`);
    return EXIT_FAILED;
  }
  return runLocalWatch(command, watches, output);
}

/**
 * Keeps the local services up and imports each upload under a watched prefix until SIGINT. Ctrl-C stops
 * watching at once; imports still running are abandoned (their servers stop with the command when it started
 * them), reported, and the exit code is 1; a second Ctrl-C exits immediately.
 */
async function runLocalWatch(command: WatchCommand, watches: WatchedPrefix[], output: Output): Promise<number> {
  const services = await startLocalServices({ log: output.err }).catch((error: Error) => error);
  if (services instanceof Error) return watchFailed(services, output);
  // Handler logs are for CloudWatch; the watch prints its own lines. Powertools reads POWERTOOLS_LOG_LEVEL before
  // LOG_LEVEL, so a LOG_LEVEL left in the shell does not flood stdout; set POWERTOOLS_LOG_LEVEL=INFO to see them.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  let stopping = false;
  let stop = async () => undefined as void;
  const onSigint = () => {
    if (stopping) process.exit(130);
    stopping = true;
    void stop();
  };
  process.on('SIGINT', onSigint);
  let unregister = () => undefined as void;
  try {
    const wiring = createWiring(services);
    // So that `rate`/`pause`/`resume --local`, in another terminal, find the ledger of the imports it runs.
    const ledgerTable = wiring.ledger.tableName;
    unregister = (await registerRunning({ dynamodbEndpoint: services.dynamodbEndpoint, ledgerTable })).remove;
    await ensureBucket(wiring.s3, command.bucket);
    if (command.createTable) {
      for (const table of new Set(watches.map((w) => w.table))) {
        await ensureTable(wiring.dynamodb, table, command.createTable.partitionKey, command.createTable.sortKey);
      }
    }
    const watch = await startLocalWatch({
      watches,
      bucket: command.bucket,
      region: services.region,
      wiring,
      maxConcurrency: command.concurrency,
      timeoutMs: command.timeoutSeconds * 1000,
      onEvent: createWatchPrinter(output, command.json),
    });
    stop = watch.stop;
    if (stopping) await stop();
    for (const w of watches) output.err(`watching s3://${command.bucket}/${w.prefix} -> ${w.table}`);
    output.err(
      `upload with: AWS_ACCESS_KEY_ID=${services.credentials.accessKeyId} AWS_SECRET_ACCESS_KEY=${services.credentials.secretAccessKey} ` +
        `aws --endpoint-url ${services.s3Endpoint} s3 cp FILE s3://${command.bucket}/${watches[0].prefix}   (Ctrl-C to stop)`,
    );
    await watch.closed;
    const abandoned = watch.inFlight();
    if (abandoned.length === 0) return EXIT_OK;
    output.err(
      `stopped with ${abandoned.length} imports unfinished: ${abandoned.join(', ')} (upload them again to import them)`,
    );
    await services.stop();
    process.exit(EXIT_FAILED); // their retries would keep the process alive for minutes against stopped servers
  } catch (error) {
    return watchFailed(error as Error, output);
  } finally {
    process.off('SIGINT', onSigint);
    unregister();
    await services.stop();
  }
}

/** What `local watch` prints when it cannot go on (the engine did not start, the bucket cannot be listed): exit 1. */
function watchFailed(error: Error, output: Output): number {
  return printFailure(error, { what: 'local watch', json: false }, output);
}
