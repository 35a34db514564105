import { duration } from '../../progress/renderer.js';
import { WRITE_MODES, type WriteMode } from '../../../lambdas/contract/write-mode-traits.js';
import type { Estimate } from './estimate-model.js';
import { PRICED_AS, type ModeEstimates } from './estimate-modes.js';
import type { EstimateSafety } from './estimate-safety.js';

const n = (value: number) => Math.round(value).toLocaleString('en-US');

/** The `--json` fields of the modes and the table's point-in-time recovery. */
export function modesJson(
  modes: ModeEstimates,
  safety: EstimateSafety,
  measured: Partial<Record<WriteMode, string>> = {},
) {
  const pricedAs = { ...PRICED_AS, ...measured };
  const figures = (e: Estimate) => ({
    writeUnits: e.writeUnits,
    itemsPerSecond: Number.isFinite(e.itemsPerSecond) ? e.itemsPerSecond : null,
    seconds: Number.isFinite(e.seconds) ? e.seconds : null,
    binding: e.binding,
    costUsd: e.cost,
  });
  return {
    mode: modes[0].mode,
    modes: Object.fromEntries(
      modes.map(({ mode, estimate }) => [mode, { ...figures(estimate), pricedAs: pricedAs[mode] }]),
    ),
    safety: { pointInTimeRecovery: safety.pointInTimeRecovery, warnings: safety.warnings },
  };
}

/**
 * A line per mode, the request's first, then how they are priced (`measured`: a mode the sample priced itself, as
 * `estimate --mode sync` does); then the point-in-time recovery lines.
 */
export function modeLines(
  modes: ModeEstimates,
  safety: EstimateSafety,
  measured: Partial<Record<WriteMode, string>> = {},
): string[] {
  const pricedAs = { ...PRICED_AS, ...measured };
  const width = Math.max(...modes.map(({ mode }) => mode.length)) + 1;
  const lines = modes.map(
    ({ mode, estimate: e }) =>
      `  ${`${mode}:`.padEnd(width)} ~${n(e.writeUnits)} write units, ~${duration(e.seconds)} at ` +
      `~${n(e.itemsPerSecond)} items/s, ~$${e.cost.total.toFixed(2)}`,
  );
  // put, the table's first mode, is how the sample line prices items: every other mode says how it differs.
  const priced = WRITE_MODES.slice(1).map((mode) => `  ${mode} is priced ${pricedAs[mode]}`);
  return ["per write mode, on the same rows (the request's first):", ...lines, ...priced, ...safetyLines(safety)];
}

function safetyLines(safety: EstimateSafety): string[] {
  const status = {
    ENABLED: 'on',
    DISABLED: 'off',
    UNSUPPORTED: 'none (this DynamoDB does not know DescribeContinuousBackups)',
  };
  const said =
    safety.pointInTimeRecovery === null ? `unknown (${safety.unknownBecause})` : status[safety.pointInTimeRecovery];
  return [`point-in-time recovery: ${said}`, ...safety.warnings.map((warning) => `warning: ${warning}`)];
}
