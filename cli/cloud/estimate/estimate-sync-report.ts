import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SampleFigures } from '../source/sample.js';
import type { EstimateInputs } from './estimate-model.js';
import { estimateModes, type ModeEstimates } from './estimate-modes.js';
import { estimateSync, type SyncEstimate } from './estimate-sync.js';
import { measureSyncSample, readTableSize, type SyncSampleInputs } from './sync-sample.js';

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** How `sync` is priced once the sample measured it (replaces its traits' words in the table of modes). */
export const SYNC_MEASURED_PRICED_AS =
  'by the sample: only its changed and added share written (measured: the sync lines below, which price its reads)';

/**
 * `estimate --mode sync [--mirror]`: measures the sample against the table (sync-sample.ts), reads the table's size
 * for a mirror, and scales both to the file's `items`.
 */
async function estimateSyncOf(
  inputs: SyncSampleInputs,
  items: number,
  dynamodb: DynamoDBClient,
): Promise<SyncEstimate> {
  const { request } = inputs;
  const sample = await measureSyncSample(inputs, dynamodb);
  const mirror = request.mirror
    ? {
        ...(await readTableSize(dynamodb, request.table)),
        maxDeletePercent: request.maxDeletePercent ?? 0,
        scoped: request.scope !== undefined,
      }
    : null;
  return estimateSync({ sample, items, consistentRead: request.consistentRead === true, mirror });
}

/**
 * Every mode's estimate, the request's first; for `--mode sync` the table is read for the sample's keys first
 * (estimateSyncOf) and the table of modes prices sync's writes by the changed and added share found.
 */
export async function estimateModesMeasured(
  inputs: EstimateInputs & { readonly sample: SampleFigures },
  sampled: SyncSampleInputs,
  dynamodb: DynamoDBClient,
): Promise<{ modes: ModeEstimates; sync: SyncEstimate | null }> {
  const { mode } = sampled.request;
  if (mode !== 'sync') return { modes: estimateModes(inputs, mode), sync: null };
  const sync = await estimateSyncOf(sampled, estimateModes(inputs, mode)[0].estimate.items, dynamodb);
  return { modes: estimateModes({ ...inputs, sample: withSyncWrites(inputs.sample, sync) }, mode), sync };
}

/** The sample's figures with sync's write units per item as measured: its changed and added share's, per item. */
function withSyncWrites(sample: SampleFigures, sync: SyncEstimate): SampleFigures {
  return { ...sample, writeUnitsByMode: { ...sample.writeUnitsByMode, sync: sync.writeUnitsPerItem } };
}

/** The readable lines of a sync's estimate: what the sample found, its reads and writes against put, the advice. */
export function syncLines(sync: SyncEstimate): string[] {
  const reads = sync.consistentRead ? 'strongly consistent' : 'eventually consistent';
  const lines = [
    `sync: the table's items for ${n(sync.sampledKeys)} of the sample's keys, read and compared: ` +
      `${percent(sync.changedFraction)} changed, ${percent(sync.addedFraction)} added, ${percent(sync.unchangedFraction)} unchanged`,
    `sync: ~${n(sync.readUnits)} read units (${reads}, 4 KB rounding) + ~${n(sync.writeUnits)} write units ` +
      `(the changed and added items): ~$${sync.costUsd.total.toFixed(2)} on demand, against ~$${sync.putCostUsd.toFixed(2)} ` +
      `for put (~${n(sync.putWriteUnits)} write units)`,
  ];
  if (sync.advice) lines.push(`advice: ${sync.advice}`);
  const m = sync.mirror;
  if (m)
    lines.push(
      `mirror: a Scan of the table's ${n(m.tableBytes)} bytes: ~${n(m.scanReadUnits)} read units; ~${n(m.deletes)} ` +
        `deletes (${m.basis}; DescribeTable's counts, updated about every 6 hours), ~${n(m.deleteWriteUnits)} write units, ` +
        `~$${m.costUsd.toFixed(2)}; ${m.deletePercent.toFixed(1)}% of the items in scope: ` +
        (m.guardWouldRefuse
          ? `over maxDeletePercent ${m.maxDeletePercent}, the mirror would refuse and delete nothing`
          : `within maxDeletePercent ${m.maxDeletePercent}`),
    );
  return lines;
}
