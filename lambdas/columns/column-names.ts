import { InvalidRequestError } from '../contract/errors.js';
import { hasHeaderColumns } from '../contract/format-traits.js';
import { checkColumnNames } from '../request/column-checks.js';
import { type ColumnType, type ResolvedRequest } from '../contract/import-request.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import { knownNames } from './attribute-check.js';
import type { ObjectStart } from './object-headers.js';

/**
 * The names records are read with, from every object's start: the columns (the objects' headers must agree), the
 * line their data starts on, and what `attributes` and `exclude` are checked against (attribute-check.ts).
 */
export function headerNames(
  request: ResolvedRequest,
  keys: readonly KeyAttribute[],
  objects: readonly { readonly key: string; readonly start: ObjectStart }[],
) {
  const header = checkHeadersAgree(objects.map(({ key, start }) => ({ key, header: start.header })));
  // Some object holds a header or data: an import of only empty objects has no columns to check.
  const anyContent = objects.some(({ start }) => start.hasData || start.header !== null);
  const columns = resolveColumns(request, header, keys, anyContent);
  const starts = objects.map(({ start }) => start);
  // The headers agree, so every object's data starts on the same line (Summarize numbers lanes' lines from it).
  const dataLine = starts.find((start) => start.hasData)?.dataLine ?? 1;
  return { columns, dataLine, known: knownNames(request, columns, starts) };
}

/**
 * The column names rows are read with: the header's, or format.columns (which rename the header's).
 * Checks them against the table's key and the declared types before any write happens.
 */
export function resolveColumns(
  request: ResolvedRequest,
  header: string[] | null,
  keys: readonly KeyAttribute[],
  hasContent: boolean,
): string[] {
  if (!hasHeaderColumns(request.format)) return []; // JSON records name their attributes; each item's key is checked as it is read
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
    // A column the request gives no type has none: the index signature's type does not say so.
    const declared = request.types[key.name] as ColumnType | undefined;
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

/** One object's header, named by its key, for the comparison below. */
export interface NamedHeader {
  readonly key: string;
  readonly header: string[] | null;
}

/**
 * Each file of a folder may carry its own header (part files usually do); they must agree, or the columns
 * would mean different things in different files. Objects without a header (empty ones) are left out.
 * Fails naming the files of each differing header.
 */
export function checkHeadersAgree(headers: readonly NamedHeader[]): string[] | null {
  const groups = new Map<string, string[]>();
  for (const { key, header } of headers) {
    if (header === null) continue;
    const id = JSON.stringify(header);
    groups.set(id, [...(groups.get(id) ?? []), key]);
  }
  if (groups.size > 1) {
    const described = [...groups].slice(0, 4).map(([id, keys]) => {
      const names = keys.slice(0, 3).join(', ') + (keys.length > 3 ? ` and ${keys.length - 3} more` : '');
      return `${names} ${keys.length === 1 ? 'has' : 'have'} [${(JSON.parse(id) as string[]).join(', ')}]`;
    });
    throw new InvalidRequestError([`header: the objects' headers disagree: ${described.join('; ')}`]);
  }
  if (groups.size === 0) return null;
  const [first] = groups.keys();
  return JSON.parse(first) as string[];
}
