import type { ImportSummary } from '../../lambdas/contract/workflow-payloads.js';

/**
 * What a mirror did, appended to the summary line: `; mirror: 5 of 105 items in scope not in the file, 5 deleted`;
 * a dry run says what it would delete and where its diff lies. Empty for an import that is no mirror.
 *
 * @example
 * mirrorLine({ ...summary, mirror: { inScope: 105, notInFile: 5, deleted: 5, ... } });
 * // '; mirror: 5 of 105 items in scope not in the file, 5 deleted'
 */
export function mirrorLine(summary: ImportSummary): string {
  const { mirror } = summary;
  if (!mirror) return '';
  const scope = mirror.scope ? ` (partition key begins with ${JSON.stringify(mirror.scope.partitionKeyPrefix)})` : '';
  const found = `${mirror.notInFile} of ${mirror.inScope} items in scope${scope} not in the file`;
  if (!summary.dryRun) return `; mirror: ${found}, ${mirror.deleted} deleted`;
  const refusal = mirror.refusal ? `; a real run would stop: ${mirror.refusal}` : '';
  return `; mirror: ${found}, would be deleted (diff: ${mirror.deletesKey})${refusal}`;
}
