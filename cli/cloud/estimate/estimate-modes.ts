import { WRITE_MODES, type WriteMode } from '../../../lambdas/contract/import-request.js';
import { estimateImport, type Estimate, type EstimateInputs } from './estimate-model.js';

/** The estimate of each mode, the request's mode first: what the same file would cost written each way. */
export type ModeEstimates = readonly { readonly mode: WriteMode; readonly estimate: Estimate }[];

/**
 * Runs the model once per write mode on the same inputs, `first` (the request's mode) first. The modes differ in
 * two figures only: the lanes' items/s (estimate-model.ts LANE_SHARE: insert and update go one item per request)
 * and the write units per item (lambdas/write/write-units.ts `writeUnitsOf`, measured per mode over the sample:
 * every mode writes the item's 1 KB-rounded size plus its GSI entries; insert as put, since a failed condition
 * still consumes write units; delete priced by the file's rows, the deleted items' own sizes being unknown).
 */
export function estimateModes(inputs: EstimateInputs, first: WriteMode): ModeEstimates {
  const order = [first, ...WRITE_MODES.filter((mode) => mode !== first)];
  return order.map((mode) => ({ mode, estimate: estimateImport({ ...inputs, mode }) }));
}

/** How each mode is priced, in words (`<mode> is priced ...`): the report prints them under its table of modes. */
export const PRICED_AS: Record<WriteMode, string> = {
  put: 'by each item, 1 KB rounding, plus each GSI it lands in (replacing a bigger item costs that one: unknown here)',
  insert:
    'as put (an item skipped because its key exists still consumes write units), sent one item per request: half the items/s of a lane',
  update:
    'as put (the larger of the item before and after; the file gives the after), sent one item per request: half the items/s of a lane',
  delete:
    "by the file's item sizes, the deleted items' own being unknown until deleted (exact for a file of the items, 1 for keys only); 0.9 of a lane's items/s",
};
