import { duration } from '../../progress/renderer.js';
import type { Output } from '../../output/summary.js';
import type { IndexLoad } from '../table/index-load.js';
import type { ModeEstimates } from './estimate-modes.js';
import { kmsEstimate, kmsLine } from './estimate-kms.js';
import { modeLines, modesJson } from './estimate-modes-report.js';
import type { SyncEstimate } from './estimate-sync.js';
import { SYNC_MEASURED_PRICED_AS, syncLines } from './estimate-sync-report.js';
import type { EstimateSafety } from './estimate-safety.js';
import { ITEMS_PER_SECOND_PER_LANE, PRICES, type Binding, type Estimate } from './estimate-model.js';
import type { SampleFigures } from '../source/sample.js';
import type { SizedObject } from '../source/source-sizes.js';
import type { TableCapacity } from '../table/table-capacity.js';

export interface EstimateReport {
  readonly source: string;
  readonly objects: readonly SizedObject[];
  readonly sampleBytes: number;
  readonly sample: SampleFigures;
  readonly table: TableCapacity;
  /** The request's mode's estimate (the figures above the table of modes). */
  readonly estimate: Estimate;
  readonly chunkMiB: number;
  /** Every mode's estimate, the request's first. */
  readonly modes: ModeEstimates;
  readonly safety: EstimateSafety;
  /** `--mode sync`: what the sample found in the table, and its reads and writes against put's; else null. */
  readonly sync: SyncEstimate | null;
}

const WHY: Record<Binding, string> = {
  table: 'the table binds first',
  index: 'a global secondary index binds first (its write capacity throttles the table)',
  lanes: 'the Lambda lanes bind first (raise maxConcurrency or make smaller chunks)',
  'max-write-rate': 'your maxWriteRate binds first',
};

/** Prints the estimate: a few readable lines, or with --json one object as the last stdout line. */
export function printEstimate(report: EstimateReport, json: boolean, output: Output): void {
  if (json) output.out(JSON.stringify(estimateJson(report)));
  else for (const line of estimateLines(report)) output.out(line);
}

/** The `--json` object: every figure of the estimate, with the prices it used. */
function estimateJson(report: EstimateReport) {
  const { sample, table, estimate: e } = report;
  const totalBytes = report.objects.reduce((sum, o) => sum + o.size, 0);
  return {
    source: report.source,
    objects: report.objects.length,
    bytes: totalBytes,
    kms: kmsEstimate(totalBytes, e.chunks, e.seconds),
    sample: {
      bytes: report.sampleBytes,
      ...sample,
      bytesPerRow: sample.rows > 0 ? sample.rowBytes / sample.rows : null,
    },
    table: {
      name: table.name,
      billingMode: table.billingMode,
      writeUnitsPerSecond: table.writeUnitsPerSecond,
      from: table.from,
    },
    rows: e.rows,
    items: e.items,
    writeUnits: e.writeUnits,
    tableWriteUnits: e.tableWriteUnits,
    indexes: e.indexes.map((index) => ({ ...index, itemsPerSecond: finite(index.itemsPerSecond) })),
    chunks: e.chunks,
    lanes: e.lanes,
    itemsPerSecond: {
      table: e.rates.table,
      lanes: e.rates.lanes,
      maxWriteRate: finite(e.rates['max-write-rate']),
      indexes: Object.fromEntries(e.indexes.map((index) => [index.name, finite(index.itemsPerSecond)])),
    },
    binding: e.binding,
    bindingIndex: e.bindingIndex,
    warnings: e.indexes.filter((index) => index.throttles).map(throttleWarning),
    scanSeconds: e.scanSeconds,
    importSeconds: e.importSeconds,
    seconds: e.seconds,
    lambdaGbSeconds: e.lambdaGbSeconds,
    costUsd: e.cost,
    prices: PRICES,
    ...modesJson(report.modes, report.safety, report.sync ? { sync: SYNC_MEASURED_PRICED_AS } : {}),
    sync: report.sync,
  };
}

/** The readable estimate, a line per figure. */
function estimateLines(report: EstimateReport): string[] {
  const { sample, table, estimate: e } = report;
  const totalBytes = report.objects.reduce((sum, o) => sum + o.size, 0);
  const lines: string[] = [];
  const perRow = sample.rows > 0 ? (sample.rowBytes / sample.rows).toFixed(1) : '?';
  const mode = table.billingMode === 'PAY_PER_REQUEST' ? 'on-demand' : 'provisioned';
  lines.push(`source: ${report.source}: ${report.objects.length} object(s), ${n(totalBytes)} bytes`);
  lines.push(
    `sample: first ${n(report.sampleBytes)} bytes: ${n(sample.rows)} rows of ${perRow} bytes, items of ${n(sample.averageItemBytes)} bytes ` +
      `(${sample.writeUnitsPerItem.toFixed(2)} write units each), ${n(sample.rejected)} would be rejected`,
  );
  const split =
    e.indexes.length > 0 ? ` (table ~${n(e.tableWriteUnits)}, indexes ~${n(e.writeUnits - e.tableWriteUnits)})` : '';
  lines.push(`rows: ~${n(e.rows)}; items: ~${n(e.items)}; write units: ~${n(e.writeUnits)}${split}`);
  lines.push(
    `table ${table.name}: ${mode}, ${n(table.writeUnitsPerSecond)} write units/s (${table.from}): ~${n(e.rates.table)} items/s`,
  );
  for (const index of e.indexes) lines.push(indexLine(index, sample.indexes));
  lines.push(
    `lanes: ${n(e.chunks)} chunks of ${report.chunkMiB} MiB, ${n(e.lanes)} at once: ~${n(e.rates.lanes)} items/s of Lambda CPU (${n(ITEMS_PER_SECOND_PER_LANE)} each)`,
  );
  const why = e.binding === 'index' ? `the index ${e.bindingIndex} binds first` : WHY[e.binding];
  lines.push(`time: ~${duration(e.seconds)}; ${why} (~${n(e.itemsPerSecond)} items/s)`);
  lines.push(kmsLine(kmsEstimate(totalBytes, e.chunks, e.seconds)));
  lines.push(
    `cost: ~$${e.cost.dynamodb.toFixed(2)} DynamoDB ${mode === 'on-demand' ? `writes ($${PRICES.onDemandWritePerMillion} per million write units)` : `capacity for the duration ($${PRICES.provisionedWcuHour} per WCU-hour)`}` +
      ` + ~$${e.cost.lambda.toFixed(2)} Lambda (${n(e.lambdaGbSeconds)} GB-s at $${PRICES.lambdaArmGbSecond}); us-east-1 list prices, check yours`,
  );
  // The modes and the point-in-time recovery before the index warnings, which stay the last lines.
  lines.push(...modeLines(report.modes, report.safety, report.sync ? { sync: SYNC_MEASURED_PRICED_AS } : {}));
  if (report.sync) lines.push(...syncLines(report.sync));
  for (const index of e.indexes.filter((i) => i.throttles)) lines.push(`warning: ${throttleWarning(index)}`);
  return lines;
}

const n = (value: number) => Math.round(value).toLocaleString('en-US');

/** One GSI: its capacity, the share of items it holds and their write units, the items/s it takes. */
function indexLine(index: IndexLoad, sampled: SampleFigures['indexes']): string {
  const held = sampled.find((figures) => figures.name === index.name)?.itemsInIndex ?? 0;
  const rate = Number.isFinite(index.itemsPerSecond) ? `~${n(index.itemsPerSecond)} items/s` : 'no items';
  return (
    `index ${index.name}: ${n(index.writeUnitsPerSecond)} write units/s (${index.from}), ` +
    `${index.writeUnitsPerItem.toFixed(2)} write units per item (${n(held)} of the sample's items have its key): ${rate}`
  );
}

/**
 * A GSI that cannot keep up throttles the base table's writes ("GSI back-pressure":
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/gsi-throttling.html).
 */
function throttleWarning(index: IndexLoad): string {
  const raise = index.from === 'provisioned' ? 'its WriteCapacityUnits' : 'its MaxWriteRequestUnits';
  return (
    `index ${index.name} takes at most ${n(index.limit ?? 0)} write units/s (${index.from === 'provisioned' ? 'provisioned' : 'on-demand maximum'}) ` +
    `but the import would need ~${n(index.neededWriteUnitsPerSecond)}: it will throttle the table's writes; raise ${raise}`
  );
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}
