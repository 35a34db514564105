import { PRICES } from './estimate-model.js';
import { READ_UNIT_BYTES, type SyncSample } from './sync-compare-sample.js';
import { WRITE_UNIT_BYTES } from '../table/index-writes.js';

/** What DescribeTable tells of the table a mirror scans, and the request's guard. */
export interface MirrorInputs {
  /** DescribeTable's ItemCount and TableSizeBytes: DynamoDB updates both about every six hours. */
  readonly tableItems: number;
  readonly tableBytes: number;
  readonly maxDeletePercent: number;
  /** A `scope` was asked: the table's count then bounds the items in scope from above. */
  readonly scoped: boolean;
}

export interface SyncEstimateInputs {
  readonly sample: SyncSample;
  /** The file's items (estimate-model.ts `items`): the sample's figures are scaled to them. */
  readonly items: number;
  readonly consistentRead: boolean;
  /** With `--mirror`; null without. */
  readonly mirror: MirrorInputs | null;
}

const dollars = (readUnits: number, writeUnits: number) =>
  (readUnits / 1e6) * PRICES.onDemandReadPerMillion + (writeUnits / 1e6) * PRICES.onDemandWritePerMillion;

/**
 * A sync of the whole file, from what the sample found: reads for every item (the sample's read units per key),
 * writes for the changed and added share only, against put writing every item. Priced at on-demand request-unit
 * prices; a provisioned table's RCU-hour and WCU-hour prices stand in the same ratio (1 read unit costs a fifth of a
 * write unit in both), so the advice holds for either billing mode. The advice is given when sync costs more.
 *
 * @example
 * // 1,000 small items sampled, 950 changed, eventually consistent: reads 0.5 units each, writes 0.95 units each:
 * // 0.5 x $0.125 + 0.95 x $0.625 = $0.656 per million items against put's $0.625: the advice says put.
 * estimateSync({ sample, items: 1e6, consistentRead: false, mirror: null }).advice; // 'sync costs more than put ...'
 */
export function estimateSync(inputs: SyncEstimateInputs) {
  const figures = syncFigures(inputs);
  const mirror = inputs.mirror && estimateMirror(inputs.mirror, inputs.items, figures.addedFraction);
  return { ...figures, advice: advice(figures), mirror };
}

export type SyncEstimate = ReturnType<typeof estimateSync>;

/** The sample's figures scaled to the file's items, and their cost against put's. */
function syncFigures(inputs: SyncEstimateInputs) {
  const { sample, items } = inputs;
  const n = sample.sampledKeys;
  const fraction = (count: number) => (n > 0 ? count / n : 0);
  const scale = n > 0 ? items / n : 0;
  const readUnits = sample.readUnits * scale;
  const writeUnits = sample.writeUnits * scale;
  const putWriteUnits = sample.putWriteUnits * scale;
  const costUsd = {
    reads: dollars(readUnits, 0),
    writes: dollars(0, writeUnits),
    total: dollars(readUnits, writeUnits),
  };
  const putCostUsd = dollars(0, putWriteUnits);
  return {
    sampledKeys: n,
    changedFraction: fraction(sample.changed),
    addedFraction: fraction(sample.added),
    unchangedFraction: fraction(sample.unchanged),
    consistentRead: inputs.consistentRead,
    readUnits,
    writeUnits,
    /** Averaged over every item, unchanged ones counting 0: what the table of modes prices sync's writes with. */
    writeUnitsPerItem: n > 0 ? sample.writeUnits / n : 0,
    putWriteUnits,
    itemsOver4KBFraction: fraction(sample.itemsOver4KB),
    costUsd,
    putCostUsd,
  };
}

/** Why sync costs more than put here, or null when it does not. */
function advice(figures: ReturnType<typeof syncFigures>): string | null {
  if (figures.costUsd.total <= figures.putCostUsd) return null;
  const percent = (share: number) => `${Math.round(share * 100)}%`;
  const reasons = [
    ...(figures.itemsOver4KBFraction > 0
      ? [`${percent(figures.itemsOver4KBFraction)} of the items read are over 4 KB (a read per 4 KB begun)`]
      : []),
    `${percent(figures.changedFraction + figures.addedFraction)} of the sampled rows are changed or new`,
    ...(figures.consistentRead ? ['strongly consistent reads cost twice'] : []),
  ];
  return (
    `sync costs more than put here (~$${figures.costUsd.total.toFixed(2)} against ~$${figures.putCostUsd.toFixed(2)}): ` +
    `${reasons.join('; ')}. Use --mode put, unless unchanged items must not be rewritten (streams, TTL, a mirror)`
  );
}

/**
 * The mirror's part: its Scan reads the whole table (a scope filters what the Scan returns, not what it reads), each
 * page rounded to 4 KB and eventually consistent, so about TableSizeBytes / 4 KB / 2 read units
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html). Which table items the
 * file dropped a sample cannot know: the estimate takes the table's items less the file's items already in it
 * (items x (1 - the added share)), at least 0. Each delete consumes the deleted item's write units, taken at the
 * table's average item size (its GSI entries not counted). The guard compares the deletes with the items in scope
 * once the sync's puts landed (lambdas/mirror/), as the import does.
 */
function estimateMirror(mirror: MirrorInputs, items: number, addedFraction: number) {
  const scanReadUnits = Math.ceil(mirror.tableBytes / READ_UNIT_BYTES) / 2;
  const deletes = Math.max(0, Math.round(mirror.tableItems - items * (1 - addedFraction)));
  const inScope = mirror.tableItems + Math.round(items * addedFraction);
  const averageItemBytes = mirror.tableItems > 0 ? mirror.tableBytes / mirror.tableItems : 0;
  const deleteWriteUnits = deletes * Math.max(1, Math.ceil(averageItemBytes / WRITE_UNIT_BYTES));
  const deletePercent = inScope > 0 ? (deletes / inScope) * 100 : 0;
  return {
    tableItems: mirror.tableItems,
    tableBytes: mirror.tableBytes,
    scanReadUnits,
    deletes,
    deleteWriteUnits,
    deletePercent,
    maxDeletePercent: mirror.maxDeletePercent,
    guardWouldRefuse: deletePercent > mirror.maxDeletePercent,
    costUsd: dollars(scanReadUnits, deleteWriteUnits),
    basis: mirror.scoped
      ? "the table's whole item count less the file's items already in it: with a scope, an upper bound"
      : "the table's item count less the file's items already in it",
  };
}
