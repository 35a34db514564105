import type { ResolvedRequest } from '../../lambdas/contract/import-request.js';

/**
 * The one line `local` prints on Ctrl-C: what may have landed, and whether running it again is safe. Every chunk
 * writes in file order from its checkpoint, so the rows before the interruption may be in the table, the rest
 * not; a put replaces the item of its key, so running the import again gives the same table.
 *
 * @example
 * interruptedLine(request); // 'interrupted: rows read before Ctrl-C may have landed in "people" ...'
 */
export function interruptedLine(request: Pick<ResolvedRequest, 'table' | 'mode' | 'dryRun'>): string {
  const head = `interrupted: its lanes are released`;
  if (request.dryRun) return `${head}; a dry run wrote nothing to "${request.table}"`;
  const again =
    request.mode === 'put'
      ? 'running it again is safe (a put replaces the item of its key)'
      : `running it again repeats the ${request.mode} of the rows already done`;
  return `${head}; rows read before Ctrl-C may have landed in "${request.table}"; ${again}`;
}
