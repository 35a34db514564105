import { WRITE_MODES, type WriteMode } from '../../../lambdas/contract/import-request.js';
import { WRITE_MODE_TRAITS } from '../../../lambdas/contract/write-mode-traits.js';
import { estimateImport, type Estimate, type EstimateInputs } from './estimate-model.js';

/** The estimate of each mode, the request's mode first: what the same file would cost written each way. */
export type ModeEstimates = readonly { readonly mode: WriteMode; readonly estimate: Estimate }[];

/**
 * Runs the model once per write mode on the same inputs, `first` (the request's mode) first. The modes differ in
 * two figures only: the lanes' items/s (each mode's traits' laneShare: insert and update go as statements)
 * and the write units per item (lambdas/write/write-units.ts `writeUnitsOf`, measured per mode over the sample:
 * every mode writes the item's 1 KB-rounded size plus its GSI entries; insert as put, since a failed condition
 * still consumes write units; delete priced by the file's rows, the deleted items' own sizes being unknown).
 */
export function estimateModes(inputs: EstimateInputs, first: WriteMode): ModeEstimates {
  const order = [first, ...WRITE_MODES.filter((mode) => mode !== first)];
  return order.map((mode) => ({ mode, estimate: estimateImport({ ...inputs, mode }) }));
}

/** How each mode is priced, in words (`<mode> is priced ...`), from its traits: the report prints them under its table. */
export const PRICED_AS = Object.fromEntries(
  WRITE_MODES.map((mode) => [mode, WRITE_MODE_TRAITS[mode].pricedAs]),
) as Readonly<Record<WriteMode, string>>;
