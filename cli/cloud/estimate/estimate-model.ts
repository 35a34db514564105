import type { WriteMode } from '../../../lambdas/contract/import-request.js';
import { WRITE_MODE_TRAITS } from '../../../lambdas/contract/write-mode-traits.js';
import { MAX_CHUNKS } from '../../../lambdas/contract/limits.js';
import { indexLoads, type IndexLoad } from '../table/index-load.js';
import type { TableCapacity } from '../table/table-capacity.js';

/**
 * The cloud model of docs/limits.md ("The cloud picture, on paper"): ~2 ms of Lambda CPU per 25-item BatchWriteItem
 * request (measured: the SDK's per-request cost), so one import Lambda at 1,769 MB (one vCPU) writes at most
 * ~12,000 items/s (25 / 2 ms = 12,500, rounded down for the parsing around it).
 */
export const ITEMS_PER_SECOND_PER_LANE = 12_000;
/** The import function's memory (lib/private/pipeline-functions.ts default): 1,769 MB. */
export const IMPORT_MEMORY_MB = 1769;

/**
 * us-east-1 list prices, read 2025-06 (check yours; they change): DynamoDB on-demand $0.625 per million write
 * request units, $0.125 per million read request units (`estimate --mode sync` prices its reads), and provisioned $0.00065 per WCU-hour (https://aws.amazon.com/dynamodb/pricing/on-demand/,
 * https://aws.amazon.com/dynamodb/pricing/provisioned/); Lambda on Arm $0.0000133334 per GB-second, first
 * tier (https://aws.amazon.com/lambda/pricing/). docs/limits.md's cost lines use the same figures.
 */
export const PRICES = {
  onDemandWritePerMillion: 0.625,
  onDemandReadPerMillion: 0.125,
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
    /** The table's write units per item (1 KB rounding: index-writes.ts). */
    readonly writeUnitsPerItem: number;
    /** Each GSI's write units per item, on top of the table's (sample.ts). @default - none */
    readonly indexes?: readonly { readonly name: string; readonly writeUnitsPerItem: number }[];
    /** Per mode, the table's and its GSIs' write units per item together (sample.ts). @default - the put figures */
    readonly writeUnitsByMode?: Readonly<Record<WriteMode, number>>;
  };
  /** What the import writes with (its traits' laneShare, and sample.writeUnitsByMode). @default "put" */
  readonly mode?: WriteMode;
  readonly table: TableCapacity;
  readonly chunkMiB: number;
  /** The Map's MaxConcurrency (the stack's maxConcurrency). */
  readonly lanes: number;
  /** The request's cap in items/s; 0 for none. */
  readonly maxWriteRate: number;
}

export type Binding = 'table' | 'index' | 'lanes' | 'max-write-rate';

/**
 * Rows, write units, time and cost of an import, before spending anything. Rows = data bytes / bytes per row
 * of the sample; items = rows less the sample's rejected share; write units = items x (the table's units per
 * item + each GSI's). Preflight cuts plain objects from their sizes alone (no byte scan), so the import runs from the
 * start at the lowest of the
 * table's write units / its units per item, each GSI's / its units per item (a GSI short of write capacity
 * throttles the table's writes: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/gsi-throttling.html),
 * the lanes' CPU (chunks at once x 12,000 items/s) and maxWriteRate. What binds is that lowest rate.
 */
export function estimateImport(inputs: EstimateInputs) {
  const { sample, table } = inputs;
  const dataBytes = inputs.objectBytes.map((bytes) => Math.max(0, bytes - inputs.headerBytes));
  const totalDataBytes = dataBytes.reduce((a, b) => a + b, 0);
  const rows = sample.rows > 0 ? Math.round((totalDataBytes * sample.rows) / sample.rowBytes) : 0;
  const items = sample.rows > 0 ? Math.round((rows * (sample.rows - sample.rejected)) / sample.rows) : 0;
  const chunks = dataBytes.reduce((sum, bytes) => sum + chunkCount(bytes, inputs.chunkMiB), 0);
  const lanes = Math.max(1, Math.min(inputs.lanes, chunks));
  const rates = {
    table: table.writeUnitsPerSecond / sample.writeUnitsPerItem,
    lanes: lanes * ITEMS_PER_SECOND_PER_LANE * WRITE_MODE_TRAITS[inputs.mode ?? 'put'].laneShare,
    'max-write-rate': inputs.maxWriteRate > 0 ? inputs.maxWriteRate : Infinity,
  };
  const indexes = indexLoads(table.indexes, sample.indexes ?? [], items, Math.min(...Object.values(rates)));
  const slowest = slowestOf(rates, indexes);
  const importSeconds = slowest.itemsPerSecond > 0 ? items / slowest.itemsPerSecond : Infinity;
  const binding: Binding = slowest.binding;
  const tableWriteUnits = Math.round(items * sample.writeUnitsPerItem);
  const perItem = sample.writeUnitsByMode?.[inputs.mode ?? 'put'];
  const writeUnits =
    perItem === undefined
      ? tableWriteUnits + indexes.reduce((sum, index) => sum + index.writeUnits, 0)
      : Math.round(items * perItem);
  const lambdaGbSeconds = lanes * importSeconds * (IMPORT_MEMORY_MB / 1024);
  // Provisioned GSIs hold (and bill) their own WCU beside the table's.
  const provisionedWcu = table.writeUnitsPerSecond + indexes.reduce((sum, index) => sum + index.writeUnitsPerSecond, 0);
  const dynamodbDollars =
    table.billingMode === 'PAY_PER_REQUEST'
      ? (writeUnits / 1e6) * PRICES.onDemandWritePerMillion
      : provisionedWcu * (importSeconds / 3600) * PRICES.provisionedWcuHour;
  const lambdaDollars = lambdaGbSeconds * PRICES.lambdaArmGbSecond;
  return {
    dataBytes: totalDataBytes,
    rows,
    items,
    writeUnits,
    tableWriteUnits,
    chunks,
    lanes,
    rates,
    indexes,
    itemsPerSecond: slowest.itemsPerSecond,
    binding,
    bindingIndex: binding === 'index' ? slowest.index : null,
    // Kept in --json as 0: preflight no longer scans bytes before the import (it reads objects' starts only).
    scanSeconds: 0,
    importSeconds,
    seconds: importSeconds,
    lambdaGbSeconds,
    cost: { dynamodb: dynamodbDollars, lambda: lambdaDollars, total: dynamodbDollars + lambdaDollars },
  };
}

/** The lowest of the rates: what binds the import, and which GSI when one does. */
function slowestOf(rates: Record<Exclude<Binding, 'index'>, number>, indexes: IndexLoad[]) {
  const candidates: { binding: Binding; itemsPerSecond: number; index: string | null }[] = [
    ...(Object.entries(rates) as [Binding, number][]).map(([binding, itemsPerSecond]) => ({
      binding,
      itemsPerSecond,
      index: null,
    })),
    ...indexes.map((index) => ({ binding: 'index' as const, itemsPerSecond: index.itemsPerSecond, index: index.name })),
  ];
  return candidates.reduce((low, candidate) => (candidate.itemsPerSecond < low.itemsPerSecond ? candidate : low));
}

export type Estimate = ReturnType<typeof estimateImport>;

/** Preflight's chunking: chunkMiB, grown so an object has at most MAX_CHUNKS chunks. */
export function chunkCount(dataBytes: number, chunkMiB: number): number {
  if (dataBytes <= 0) return 0;
  const chunkBytes = Math.max(1, Math.round(chunkMiB * 1024 * 1024), Math.ceil(dataBytes / MAX_CHUNKS));
  return Math.ceil(dataBytes / chunkBytes);
}
