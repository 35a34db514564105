import { defineCommand } from '../command-line/parse-command-line.js';
import { createCloudClients, type CloudClients } from '../cloud/aws/clients.js';
import { estimateModesMeasured } from '../cloud/estimate/estimate-sync-report.js';
import { SYNC_SAMPLE_KEYS } from '../cloud/estimate/sync-sample.js';
import { readEstimateSafety } from '../cloud/estimate/estimate-safety.js';
import { printEstimate } from '../cloud/estimate/estimate-report.js';
import { measureSample, readSample } from '../cloud/source/sample.js';
import { sourceSizes } from '../cloud/source/source-sizes.js';
import { resolveSource } from '../cloud/source/source.js';
import { LOCAL_FLAGS } from '../flags/local-flags.js';
import { buildRequest, readRequestFile } from '../flags/request-file.js';
import {
  JSON_FLAG,
  REQUEST_FILE_FLAG,
  REQUEST_FLAGS,
  requestFlagsOf,
  type RequestFlags,
} from '../flags/request-flags.js';
import { readTableCapacity, withWarmThroughput } from '../cloud/table/table-capacity.js';
import type { Output } from '../output/summary.js';
import { reportingFailures } from './cloud-failure.js';

export interface EstimateCommand {
  readonly source: string;
  readonly request: RequestFlags;
  readonly requestFile?: string;
  readonly lanes: number;
  readonly json: boolean;
}

/** `s3-ddb-import estimate <source>`: what an import will take, before spending anything. */
export const ESTIMATE = defineCommand({
  name: 'estimate',
  summary: 'what an import will take (rows, write units, time, what binds first, cost), read without importing',
  positionals: [{ name: 'source', description: 's3://bucket/key, s3://bucket/folder/, or a local file or folder' }],
  flags: {
    ...REQUEST_FLAGS,
    request: REQUEST_FILE_FLAG,
    concurrency: { ...LOCAL_FLAGS.concurrency, description: "the stack's maxConcurrency: Lambda lanes at once" },
    json: JSON_FLAG,
  },
  details: [
    "Reads sizes, the first MiB and the table's capacity, its global secondary indexes' too (no import, no " +
      "upload), and prints rows, write units (1 KB rounding, each index's on top of the table's), time, what binds " +
      'first (the table, an index, the Lambda lanes or the preflight scan), cost per write mode, and a warning for an ' +
      'index that would throttle the table.',
    `With --mode sync it also reads the table's items for up to ${SYNC_SAMPLE_KEYS.toLocaleString('en-US')} of the sample's keys (BatchGetItem, ` +
      '--consistent-read as the import would), compares them with the equality sync uses, and prints the share ' +
      'changed, added and unchanged, the read units for every item (4 KB rounding) and the write units of the changed ' +
      "and added share, against put; and advice when sync costs more. With --mirror, the Scan's read units (from " +
      "DescribeTable's size) and the deletes the sample implies (the table's item count less the file's items " +
      'already in it).',
  ],
  input: ({ values, positionals }): EstimateCommand => ({
    source: positionals[0],
    request: requestFlagsOf(values),
    ...(values.request ? { requestFile: values.request } : {}),
    lanes: values.concurrency,
    json: values.json === true,
  }),
  run: (command, output) =>
    reportingFailures('estimate', command.json, output, () =>
      runEstimateCommand(command, createCloudClients(), output),
    ),
});

/** The arguments after `estimate`, as the CLI parses them; throws UsageError naming the bad flag. */
export const parseEstimateCommand = (args: readonly string[]): EstimateCommand => ESTIMATE.parse(args);

/** `s3-ddb-import estimate`: sizes, a sample and the table's capacity in; the estimate out. */
export async function runEstimateCommand(
  command: EstimateCommand,
  clients: CloudClients,
  output: Output,
): Promise<number> {
  const source = await resolveSource(command.source);
  const objects = await sourceSizes(clients.s3, source);
  const first = objects[0];
  const where =
    source.kind === 'local' ? { bucket: 'local', key: first.name } : { bucket: source.bucket, key: first.name };
  const file = command.requestFile ? await readRequestFile(command.requestFile) : {};
  const request = buildRequest(command.request, file, where).resolved;
  // An import with warmThroughput meets the table pre-warmed (lambdas/preflight/warm-throughput.ts).
  const table = withWarmThroughput(await readTableCapacity(clients.dynamodb, request.table), request.warmThroughput);
  const sampleBytes = await readSample(
    source.kind === 'local' ? { path: first.name } : { s3: clients.s3, bucket: source.bucket, key: first.name },
  );
  const whole = sampleBytes.length >= first.size;
  const sample = await measureSample(sampleBytes, whole, request, table.keys, table.indexes);
  const inputs = {
    objectBytes: objects.map((o) => o.size),
    headerBytes: sample.headerBytes,
    sample,
    table,
    chunkMiB: request.chunkMiB,
    lanes: command.lanes,
    maxWriteRate: request.maxWriteRate,
  };
  const sampled = { sample: sampleBytes, whole, request, keys: table.keys, indexes: table.indexes };
  const { modes, sync } = await estimateModesMeasured(inputs, sampled, clients.dynamodb);
  printEstimate(
    {
      source: command.source,
      objects,
      sampleBytes: sampleBytes.length,
      sample,
      table,
      estimate: modes[0].estimate,
      chunkMiB: request.chunkMiB,
      modes,
      safety: await readEstimateSafety(clients.dynamodb, request),
      sync,
    },
    command.json,
    output,
  );
  return 0;
}
