import { MAX_CHUNKS } from '../../lambdas/preflight/preflight.js';
import type { TableCapacity } from './table-capacity.js';

/**
 * The cloud model of docs/limits.md ("The cloud picture, on paper"): ~2 ms of Lambda CPU per 25-item BatchWriteItem
 * request (measured: the SDK's per-request cost), so one import Lambda at 1,769 MB (one vCPU) writes at most
 * ~12,000 items/s (25 / 2 ms = 12,500, rounded down for the parsing around it).
 */
export const ITEMS_PER_SECOND_PER_LANE = 12_000;
/** Preflight's scan: 100 MB/s, under the measured 119 (quote-dense CSV) to 189 MB/s (TSV) over MinIO (docs/performance.md). */
export const SCAN_BYTES_PER_SECOND = 100e6;
/** The stack's function memory (lib/private/pipeline-functions.ts defaults): import 1,769 MB, preflight 1,024 MB. */
export const IMPORT_MEMORY_MB = 1769;
export const PREFLIGHT_MEMORY_MB = 1024;

/**
 * us-east-1 list prices, read 2025-06 (check yours; they change): DynamoDB on-demand $0.625 per million write
 * request units and provisioned $0.00065 per WCU-hour (https://aws.amazon.com/dynamodb/pricing/on-demand/,
 * https://aws.amazon.com/dynamodb/pricing/provisioned/); Lambda on Arm $0.0000133334 per GB-second, first
 * tier (https://aws.amazon.com/lambda/pricing/). docs/limits.md's cost lines use the same figures.
 */
export const PRICES = {
  onDemandWritePerMillion: 0.625,
  provisionedWcuHour: 0.00065,
  lambdaArmGbSecond: 0.0000133334,
} as const;

export interface EstimateInputs {
  /** Bytes of each object (one for a single object). */
  readonly objectBytes: readonly number[];
  /** Header bytes of one object (every object of a folder is taken to have one like the first). */
  readonly headerBytes: number;
  readonly sample: {
    readonly rows: number;
    readonly rowBytes: number;
    readonly rejected: number;
    readonly writeUnitsPerItem: number;
  };
  readonly table: TableCapacity;
  readonly chunkMiB: number;
  /** The Map's MaxConcurrency (the stack's maxConcurrency). */
  readonly lanes: number;
  /** The request's cap in items/s; 0 for none. */
  readonly maxWriteRate: number;
}

export type Binding = 'table' | 'lanes' | 'max-write-rate' | 'preflight';

/**
 * Rows, write units, time and cost of an import, before spending anything. Rows = data bytes / bytes per row
 * of the sample; items = rows less the sample's rejected share; write units = items x the sample's units per
 * item. The scan runs first (data bytes / scan rate); the import then runs at the lowest of the table's write
 * units (/ units per item), the lanes' CPU (chunks at once x 12,000 items/s) and maxWriteRate. What binds is
 * that lowest rate, or preflight when the scan takes longer than the import.
 */
export function estimateImport(inputs: EstimateInputs) {
  const { sample, table } = inputs;
  const dataBytes = inputs.objectBytes.map((bytes) => Math.max(0, bytes - inputs.headerBytes));
  const totalDataBytes = dataBytes.reduce((a, b) => a + b, 0);
  const rows = sample.rows > 0 ? Math.round((totalDataBytes * sample.rows) / sample.rowBytes) : 0;
  const items = sample.rows > 0 ? Math.round((rows * (sample.rows - sample.rejected)) / sample.rows) : 0;
  const writeUnits = Math.round(items * sample.writeUnitsPerItem);
  const chunks = dataBytes.reduce((sum, bytes) => sum + chunkCount(bytes, inputs.chunkMiB), 0);
  const lanes = Math.max(1, Math.min(inputs.lanes, chunks));
  const rates = {
    table: table.writeUnitsPerSecond / sample.writeUnitsPerItem,
    lanes: lanes * ITEMS_PER_SECOND_PER_LANE,
    'max-write-rate': inputs.maxWriteRate > 0 ? inputs.maxWriteRate : Infinity,
  };
  const [importBinding, itemsPerSecond] = (Object.entries(rates) as [Binding, number][]).reduce((low, e) =>
    e[1] < low[1] ? e : low,
  );
  const scanSeconds = inputs.objectBytes.reduce((a, b) => a + b, 0) / SCAN_BYTES_PER_SECOND;
  const importSeconds = itemsPerSecond > 0 ? items / itemsPerSecond : Infinity;
  const binding: Binding = scanSeconds > importSeconds ? 'preflight' : importBinding;
  const lambdaGbSeconds =
    lanes * importSeconds * (IMPORT_MEMORY_MB / 1024) + scanSeconds * (PREFLIGHT_MEMORY_MB / 1024);
  const dynamodbDollars =
    table.billingMode === 'PAY_PER_REQUEST'
      ? (writeUnits / 1e6) * PRICES.onDemandWritePerMillion
      : table.writeUnitsPerSecond * ((scanSeconds + importSeconds) / 3600) * PRICES.provisionedWcuHour;
  const lambdaDollars = lambdaGbSeconds * PRICES.lambdaArmGbSecond;
  return {
    dataBytes: totalDataBytes,
    rows,
    items,
    writeUnits,
    chunks,
    lanes,
    rates,
    itemsPerSecond,
    binding,
    scanSeconds,
    importSeconds,
    seconds: scanSeconds + importSeconds,
    lambdaGbSeconds,
    cost: { dynamodb: dynamodbDollars, lambda: lambdaDollars, total: dynamodbDollars + lambdaDollars },
  };
}

export type Estimate = ReturnType<typeof estimateImport>;

/** Preflight's chunking: chunkMiB, grown so an object has at most MAX_CHUNKS chunks. */
export function chunkCount(dataBytes: number, chunkMiB: number): number {
  if (dataBytes <= 0) return 0;
  const chunkBytes = Math.max(1, Math.round(chunkMiB * 1024 * 1024), Math.ceil(dataBytes / MAX_CHUNKS));
  return Math.ceil(dataBytes / chunkBytes);
}
