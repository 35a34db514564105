import { InvalidRequestError } from '../contract/errors.js';
import { checkColumnNames } from '../request/resolve-request.js';
import { type ResolvedRequest } from '../contract/import-request.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

/**
 * The column names rows are read with: the header's, or format.columns (which rename the header's).
 * Checks them against the table's key and the declared types before any write happens.
 */
export function resolveColumns(
  request: ResolvedRequest,
  header: string[] | null,
  keys: KeyAttribute[],
  hasContent: boolean,
): string[] {
  if (request.format.type !== 'csv') return []; // JSON records name their attributes; each item's key is checked as it is read
  const problems: string[] = [];
  const given = request.format.columns;
  if (header && given && given.length !== header.length) {
    problems.push(`format.columns: has ${given.length} names but the header has ${header.length} columns`);
  }
  if (header && !given) checkColumnNames(header, 'header', problems);
  if (problems.length > 0)
    throw new InvalidRequestError(
      problems.map((p) => (p.startsWith('header') ? `${p} (rename with format.columns)` : p)),
    );
  const columns = given ?? header ?? [];
  if (!hasContent) return columns;
  const computed = request.attributes ?? {};
  for (const key of keys) {
    if (Object.hasOwn(computed, key.name)) continue; // not a column: checked with the templates (attribute-check.ts)
    const declared = request.types[key.name];
    if (!columns.includes(key.name)) {
      problems.push(
        `columns: key attribute ${JSON.stringify(key.name)} (${key.role}, ${key.type}) is not among the columns [${columns.join(', ')}]`,
      );
    } else if (declared && declared !== key.type) {
      problems.push(`types.${key.name}: declared ${declared} but the table's key is ${key.type}`);
    }
  }
  for (const name of Object.keys(request.types)) {
    if (!columns.includes(name) && !Object.hasOwn(computed, name))
      problems.push(`types.${name}: no column named ${JSON.stringify(name)}`);
  }
  if (problems.length > 0) throw new InvalidRequestError(problems);
  return columns;
}
