import { resolveImportRequest } from '../../lambdas/request/resolve-request.js';
import { parseConcurrency, parseRequestFlags, parseSourceCommandArgs, type RequestFlags } from '../flags/cli-args.js';
import type { CloudClients } from '../cloud/clients.js';
import { estimateImport } from '../cloud/estimate-model.js';
import { printEstimate } from '../cloud/estimate-report.js';
import { measureSample, readSample } from '../cloud/sample.js';
import { sourceSizes } from '../cloud/source-sizes.js';
import { resolveSource } from '../cloud/source.js';
import { buildRequest, readRequestFile } from '../flags/request-file.js';
import { readTableCapacity } from '../cloud/table-capacity.js';
import type { Output } from '../output/summary.js';

export const ESTIMATE_USAGE = `usage: s3-ddb-import estimate <source> --table T [--format csv|jsonl|dynamodb-json] [--delimiter C|tab] [--no-header] [--columns a,b,c]
         [--types col=N,col2=BOOL] [--chunk-mib N] [--max-write-rate N] [--request req.json]
         [--concurrency N] [--json]
  Reads sizes, the first MiB and the table's capacity (no import, no upload) and prints rows, write units,
  time, what binds first (the table, the Lambda lanes or the preflight scan) and cost. --concurrency is the
  stack's maxConcurrency (default 40).`;

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
  const table = await readTableCapacity(clients.dynamodb, request.table);
  const sampleBytes = await readSample(
    source.kind === 'local' ? { path: first.name } : { s3: clients.s3, bucket: source.bucket, key: first.name },
  );
  const sample = await measureSample(sampleBytes, sampleBytes.length >= first.size, request, table.keys);
  const estimate = estimateImport({
    objectBytes: objects.map((o) => o.size),
    headerBytes: sample.headerBytes,
    sample,
    table,
    chunkMiB: request.chunkMiB,
    lanes: command.lanes,
    maxWriteRate: request.maxWriteRate,
  });
  printEstimate(
    {
      source: command.source,
      objects,
      sampleBytes: sampleBytes.length,
      sample,
      table,
      estimate,
      chunkMiB: request.chunkMiB,
    },
    command.flags.json,
    output,
  );
  return 0;
}
