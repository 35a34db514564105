import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { pathToFileURL } from 'node:url';
import { parseJsonAttribute } from '../lambdas/formats/json/exact-json.js';
import type { RawRecord } from '../lambdas/formats/record-format.js';
import { createRecordFormat } from '../lambdas/formats/record-formats.js';
import type { KeyAttribute } from '../lambdas/contract/workflow-payloads.js';
import { ionItemLine } from '../test/fixtures/ion-lines.js';
import { generateNgrams } from '../test/fixtures/ngrams.js';

const KEYS: KeyAttribute[] = [
  { name: 'ngram', type: 'S', role: 'HASH' },
  { name: 'year', type: 'N', role: 'RANGE' },
];
/** The importer maps records in blocks of ~256 KiB (import/chunk-importer.ts). */
const BLOCK_BYTES = 256 * 1024;
const round = (n: number, digits = 0) => Number(n.toFixed(digits));

/** What JSON.parse gives, as an attribute (numbers through a double: the rounding the exact parser avoids). */
function fromJsonParse(value: unknown): AttributeValue {
  if (value === null) return { NULL: true };
  if (typeof value === 'boolean') return { BOOL: value };
  if (typeof value === 'number') return { N: String(value) };
  if (typeof value === 'string') return { S: value };
  if (Array.isArray(value)) return { L: value.map(fromJsonParse) };
  return { M: Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, fromJsonParse(v)])) };
}

/**
 * Lines/s and MB/s of each parse over `lines`, best of `rounds`; the parsers take turns round by round, so
 * load from other processes on a shared machine falls on all of them alike.
 */
function measure(
  lines: readonly string[],
  bytes: number,
  parsers: Record<string, (line: string) => unknown>,
  rounds = 5,
) {
  const best: Record<string, number> = Object.fromEntries(Object.keys(parsers).map((name) => [name, Infinity]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, parse] of Object.entries(parsers)) {
      const started = performance.now();
      for (const line of lines) parse(line);
      best[name] = Math.min(best[name], performance.now() - started);
    }
  }
  return Object.fromEntries(
    Object.entries(best).map(([name, ms]) => [
      name,
      { linesPerSecond: round(lines.length / (ms / 1000)), mbPerSecond: round(bytes / 1e6 / (ms / 1000), 1) },
    ]),
  );
}

/** Records laid end to end as the scanner hands them over, in importer-sized blocks. */
function blocksOf(lines: readonly string[]): RawRecord[][] {
  const blocks: RawRecord[][] = [[]];
  let offset = 0;
  let blockBytes = 0;
  lines.forEach((line, i) => {
    const raw = Buffer.from(`${line}\n`);
    blocks.at(-1)!.push({ raw, offset, line: i + 1 });
    offset += raw.length;
    blockBytes += raw.length;
    if (blockBytes >= BLOCK_BYTES) {
      blocks.push([]);
      blockBytes = 0;
    }
  });
  return blocks;
}

type Mapped = {
  readonly type: 'csv' | 'jsonl' | 'dynamodb-json' | 'dynamodb-ion';
  readonly blocks: RawRecord[][];
  readonly columns?: string[];
};

/**
 * Items/s of each format's whole mapper (UTF-8 check, parse, key checks, item size) over importer-sized
 * blocks, best of `rounds`, the formats taking turns round by round.
 */
function mapperItemsPerSecond(inputs: Record<string, Mapped>, rounds = 5) {
  const runs = Object.entries(inputs).map(([name, { type, blocks, columns = [] }]) => {
    const format = type === 'csv' ? { type, delimiter: '\t', quote: '"', header: false, columns } : { type };
    const map = createRecordFormat(format).createMapper({
      columns,
      types: { match_count: 'N', volume_count: 'N' },
      keys: KEYS,
    });
    return { name, blocks, map, records: blocks.reduce((sum, block) => sum + block.length, 0), best: Infinity };
  });
  for (let round = 0; round < rounds; round++) {
    for (const run of runs) {
      const started = performance.now();
      let ok = 0;
      for (const block of run.blocks) for (const result of run.map(block)) ok += result.ok ? 1 : 0;
      if (ok !== run.records) throw new Error(`${run.name}: ${run.records - ok} of ${run.records} records rejected`);
      run.best = Math.min(run.best, performance.now() - started);
    }
  }
  return Object.fromEntries(runs.map((run) => [run.name, round(run.records / (run.best / 1000))]));
}

/**
 * The cost of reading JSON exactly, in memory, on `rows` 1-gram records as JSON Lines
 * (`{"ngram":"the_0","year":1810,"match_count":..,"volume_count":..}`, ~70 bytes): JSON.parse alone, JSON.parse
 * plus the conversion to attributes a JSON.parse-based reader needs, and the exact parser (which does both);
 * then each format's whole mapper, items/s.
 */
export function formatFigures(rows: number) {
  const ngrams = generateNgrams(rows, { seed: 7 }).rows;
  const jsonl = ngrams.map((r) => JSON.stringify(r));
  const dynamoJson = ngrams.map((r) =>
    JSON.stringify({
      Item: {
        ngram: { S: r.ngram },
        year: { N: String(r.year) },
        match_count: { N: String(r.match_count) },
        volume_count: { N: String(r.volume_count) },
      },
    }),
  );
  // The same items as an Ion export writes them (ion-js's writer): `$ion_1_0 {Item:{ngram:"the_0",year:1810.,...}}`.
  const dynamoIon = ngrams.map((r) =>
    ionItemLine({
      ngram: { S: r.ngram },
      year: { N: String(r.year) },
      match_count: { N: String(r.match_count) },
      volume_count: { N: String(r.volume_count) },
    }),
  );
  const tsv = ngrams.map((r) => `${r.ngram}\t${r.year}\t${r.match_count}\t${r.volume_count}`);
  const bytes = jsonl.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  const parser = measure(jsonl, bytes, {
    jsonParse: (line) => JSON.parse(line),
    jsonParseToAttributes: (line) => fromJsonParse(JSON.parse(line)),
    exact: (line) => parseJsonAttribute(line, 0),
  });
  const ratio = (a: string, b: string) => round(parser[a].linesPerSecond / parser[b].linesPerSecond, 2);
  return {
    rows,
    jsonlMB: round(bytes / 1e6, 1),
    parser: {
      ...parser,
      exactToJsonParse: ratio('exact', 'jsonParse'),
      exactToJsonParseToAttributes: ratio('exact', 'jsonParseToAttributes'),
    },
    mapperItemsPerSecond: mapperItemsPerSecond({
      jsonl: { type: 'jsonl', blocks: blocksOf(jsonl) },
      dynamodbJson: { type: 'dynamodb-json', blocks: blocksOf(dynamoJson) },
      dynamodbIon: { type: 'dynamodb-ion', blocks: blocksOf(dynamoIon) },
      tsv: { type: 'csv', blocks: blocksOf(tsv), columns: ['ngram', 'year', 'match_count', 'volume_count'] },
    }),
  };
}

// `npx tsx bench/format-figures.ts [rows]`: these figures alone, without the local services `npm run bench` starts.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(`${JSON.stringify(formatFigures(Number(process.argv[2] ?? 200_000)))}\n`);
}
