/**
 * `npx tsx bench/ion-figures.ts [rows]`: a DynamoDB export of `rows` 1-gram items (default 200,000) written as
 * DYNAMODB_JSON and as ION (8 gzip'd data files each, the test fixture's layout) and imported through the whole
 * local workflow in turn, ROUNDS times: items/s and this process's CPU (the handlers run here) per 100,000 items,
 * best round each, and Ion as a ratio to DynamoDB JSON. Starts its own local engine (ministack) unless
 * AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL_S3 name running servers.
 */
import { DeleteTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureTable } from '../cli/local-run/local-stack.js';
import { runLocalImport } from '../cli/local-run/runner.js';
import { applyServiceEnv, startLocalServices } from '../cli/services/index.js';
import { DEFAULT_MAX_CONCURRENCY } from '../lambdas/contract/limits.js';
import { writeExport, type Item } from '../test/fixtures/dynamodb-export.js';
import { generateNgrams } from '../test/fixtures/ngrams.js';

const ROWS = Number(process.argv[2] ?? 200_000);
/** Rounds of the two imports, in turn: wall-clock figures on a shared 2-core machine drift by tens of percent. */
const ROUNDS = 2;
const FILES = 8;
const round = (n: number, digits = 0) => Number(n.toFixed(digits));
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const services = await startLocalServices({ log });
applyServiceEnv(services);
process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
const s3 = new S3Client({ forcePathStyle: true });
const dynamodb = new DynamoDBClient({});
try {
  const bucket = `bench-ion-${Date.now()}`;
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const items: Item[] = generateNgrams(ROWS, { seed: 11 }).rows.map((r) => ({
    ngram: { S: r.ngram },
    year: { N: String(r.year) },
    match_count: { N: String(r.match_count) },
    volume_count: { N: String(r.volume_count) },
  }));
  const exports = { dynamodbJson: 'DYNAMODB_JSON', ion: 'ION' } as const;
  for (const [name, outputFormat] of Object.entries(exports)) {
    await writeExport(s3, bucket, items, {
      folder: `${name}/AWSDynamoDB/01767225600000-bench000/`,
      files: FILES,
      outputFormat,
    });
  }
  const best: Record<string, { itemsPerSecond: number; cpuSecondsPer100k: number }> = {};
  let table: string | undefined;
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of Object.keys(exports)) {
      if (table) await dynamodb.send(new DeleteTableCommand({ TableName: table }));
      table = `bench-ion-${Date.now()}`;
      await ensureTable(dynamodb, table, { name: 'ngram', type: 'S' }, { name: 'year', type: 'N' });
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const summary = await runLocalImport(
        { bucket, prefix: `${name}/`, table },
        { maxConcurrency: DEFAULT_MAX_CONCURRENCY },
      );
      const seconds = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      if (summary.written !== ROWS) throw new Error(`${name}: wrote ${summary.written} of ${ROWS}`);
      const figure = {
        itemsPerSecond: round(ROWS / seconds),
        cpuSecondsPer100k: round(((cpu.user + cpu.system) / 1e6 / ROWS) * 100_000, 2),
      };
      log(`${name} round ${i + 1}: ${JSON.stringify(figure)}`);
      const was = best[name];
      best[name] = {
        itemsPerSecond: Math.max(was?.itemsPerSecond ?? 0, figure.itemsPerSecond),
        cpuSecondsPer100k: Math.min(was?.cpuSecondsPer100k ?? Infinity, figure.cpuSecondsPer100k),
      };
    }
  }
  const ratio = (key: 'itemsPerSecond' | 'cpuSecondsPer100k') => round(best.ion[key] / best.dynamodbJson[key], 2);
  process.stdout.write(
    `${JSON.stringify({ rows: ROWS, files: FILES, rounds: ROUNDS, ...best, ionToJson: { itemsPerSecond: ratio('itemsPerSecond'), cpuPerItem: ratio('cpuSecondsPer100k') } })}\n`,
  );
} finally {
  await services.stop();
}
