import { resolveImportRequest } from '../../lambdas/request/resolve-request.js';
import { parseConcurrency, parseRequestFlags, parseSourceCommandArgs, type RequestFlags } from '../flags/cli-args.js';
import type { CloudClients } from '../cloud/clients.js';
import { estimateModes } from '../cloud/estimate-modes.js';
import { readEstimateSafety } from '../cloud/estimate-safety.js';
import { printEstimate } from '../cloud/estimate-report.js';
import { measureSample, readSample } from '../cloud/sample.js';
import { sourceSizes } from '../cloud/source-sizes.js';
import { resolveSource } from '../cloud/source.js';
import { buildRequest, readRequestFile } from '../flags/request-file.js';
import { readTableCapacity, withWarmThroughput } from '../cloud/table-capacity.js';
import type { Output } from '../output/summary.js';

export const ESTIMATE_USAGE = `usage: s3-ddb-import estimate <source> --table T [--format csv|jsonl|dynamodb-json|dynamodb-ion|parquet] [--delimiter C|tab] [--no-header] [--columns a,b,c]
         [--types col=N,col2=BOOL] [--chunk-mib N] [--max-write-rate N] [--warm-throughput N] [--mode M] [--request req.json]
         [--attr NAME=TEMPLATE ...] [--exclude a,b]
         [--concurrency N] [--json]
  Reads sizes, the first MiB and the table's capacity, its global secondary indexes' too (no import, no upload),
  and prints rows, write units (1 KB rounding, each index's on top of the table's), time, what binds first (the
  table, an index, the Lambda lanes or the preflight scan), cost, and a warning for an index that would throttle
  the table. --concurrency is the stack's maxConcurrency (default 40).`;

export interface EstimateCommand {
  readonly source: string;
  readonly flags: RequestFlags;
  readonly requestFile?: string;
  readonly lanes: number;
}

/** Parses the arguments after `estimate`; throws UsageError naming the bad flag. */
export function parseEstimateCommand(args: string[]): EstimateCommand {
  const { values, source } = parseSourceCommandArgs(
    args,
    { concurrency: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    'source',
  );
  return {
    source,
    flags: parseRequestFlags(values),
    ...(values.request ? { requestFile: values.request } : {}),
    lanes: parseConcurrency(values.concurrency),
  };
}

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
  const asked = buildRequest(command.flags, file, where);
  const request = resolveImportRequest(asked);
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
  const modes = estimateModes(inputs, request.mode);
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
    },
    command.flags.json,
    output,
  );
  return 0;
}
