import type { MirrorSummary } from '../contract/mirror-payloads.js';
import type { SummarizeEvent } from '../contract/workflow-payloads.js';

/**
 * A mirror's facts for the summary, from its state (contract MirrorState): what was in scope, what the file no longer
 * holds, what was deleted (0 in a dry run, whose delete lists are its diff). Null when the import is no mirror.
 *
 * @example
 * mirrorSummary(event, 's3-ddb-import/rejects/exec-1');
 * // { inScope: 1000, notInFile: 50, deleted: 50, maxDeletePercent: 10, scope: null, deletesKey: '...', refusal: null }
 */
export function mirrorSummary(event: SummarizeEvent, outputPrefix: string): MirrorSummary | null {
  const { request, mirror } = event;
  if (!request.mirror || !mirror?.guard) return null;
  const deleted = (mirror.deletedParts ?? []).reduce((sum, [, count]) => sum + count, 0);
  return {
    inScope: mirror.guard.inScope,
    notInFile: mirror.guard.notInFile,
    deleted,
    maxDeletePercent: request.maxDeletePercent ?? 0,
    scope: request.scope ?? null,
    deletesKey: `${outputPrefix}/diff/`,
    refusal: mirror.guard.refusal,
  };
}
