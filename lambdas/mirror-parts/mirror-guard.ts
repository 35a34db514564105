import { MirrorDeleteLimitError, MirrorRejectedRowsError } from '../contract/mirror-errors.js';
import type { MirrorGuardEvent, MirrorGuardResult } from '../contract/mirror-payloads.js';
import { chunkResultOf } from '../contract/workflow-payloads.js';

/**
 * MirrorGuard: decides, before the first delete, whether the mirror may delete. It stops (throws, and nothing is
 * deleted) when rows were rejected (their keys are unknown, so their items would look dropped) or when the keys to
 * delete are more than `maxDeletePercent` of the items in scope. A dry run is never stopped: it reports why a real
 * run would be, in `refusal`.
 *
 * @example
 * runMirrorGuard({ request, mirror, chunkResults });
 * // { inScope: 1000, notInFile: 50, percent: 5, refusal: null }
 * // MirrorDeleteLimitError: mirror would delete 150 of the 1000 items in scope (15%), over maxDeletePercent 10 ...
 */
export function runMirrorGuard(event: MirrorGuardEvent): MirrorGuardResult {
  const { request, mirror } = event;
  const inScope = (mirror.scanned ?? []).reduce((sum, [, count]) => sum + count, 0);
  const notInFile = (mirror.compared ?? []).reduce((sum, part) => sum + part.notInFile, 0);
  const rejected = event.chunkResults.reduce((sum, result) => sum + (chunkResultOf(result)?.rejected ?? 0), 0);
  const percent = inScope === 0 ? 0 : (notInFile * 100) / inScope;
  const refusal = refusalOf({ inScope, notInFile, percent, rejected, max: request.maxDeletePercent ?? 0 });
  if (refusal && !request.dryRun) {
    throw refusal.kind === 'limit'
      ? new MirrorDeleteLimitError(refusal.text)
      : new MirrorRejectedRowsError(refusal.text);
  }
  return { inScope, notInFile, percent, refusal: refusal?.text ?? null };
}

interface GuardFacts {
  readonly inScope: number;
  readonly notInFile: number;
  readonly percent: number;
  readonly rejected: number;
  readonly max: number;
}

function refusalOf(facts: GuardFacts): { kind: 'limit' | 'rejects'; text: string } | null {
  const { inScope, notInFile, percent, rejected, max } = facts;
  if (notInFile > 0 && rejected > 0) {
    const text =
      `mirror would delete ${notInFile} items, but ${rejected} rows of the file were rejected and their keys are ` +
      'unknown (their items would be deleted too): nothing deleted; fix the rows (see the rejects) and run again';
    return { kind: 'rejects', text };
  }
  if (percent <= max) return null;
  const shown = Math.round(percent * 100) / 100;
  const text =
    `mirror would delete ${notInFile} of the ${inScope} items in scope (${shown}%), over maxDeletePercent ${max}: ` +
    'nothing deleted; check the file, or raise maxDeletePercent (CLI: --max-delete-percent)';
  return { kind: 'limit', text };
}
