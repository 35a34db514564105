import { InvalidRequestError } from '../contract/errors.js';
import { hasHeaderColumns } from '../contract/format-traits.js';
import type { ColumnType, ResolvedRequest } from '../contract/import-request.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import type { DataStart } from '../formats/record-format.js';
import { parseTemplates } from '../request/attribute-template.js';

/** The names records hold, as far as preflight can know them before any write. */
export interface KnownNames {
  readonly names: readonly string[];
  /** How the problems describe where the names come from: "the columns" or "the first record's fields". */
  readonly what: string;
}

/**
 * The names templates and `exclude` are checked against: a CSV's columns (header or format.columns); for JSON
 * formats the top-level attributes of each object's first record, all objects' together (a template that
 * names a field the first record lacks would reject that record anyway; the whole file is not read to find
 * rarer fields). Null when nothing is known (an empty object, a first line that is not a JSON object).
 */
export function knownNames(
  request: ResolvedRequest,
  columns: readonly string[],
  starts: readonly Pick<DataStart, 'fields'>[],
) {
  if (hasHeaderColumns(request.format)) return columns.length > 0 ? { names: columns, what: 'the columns' } : null;
  const read = starts.filter((start) => start.fields !== undefined);
  if (read.length === 0) return null;
  return { names: [...new Set(read.flatMap((start) => start.fields!))], what: "the first record's fields" };
}

/**
 * Checks `attributes` and `exclude` against the table and the records before any write, failing with one
 * InvalidRequestError listing every problem: a placeholder or an excluded name that no record holds (a typo
 * caught before a million rows are rejected or stored whole), a key attribute excluded and not computed
 * (no item could be written), a computed key declared with another type than the table's key.
 */
export function checkComputedAttributes(
  request: ResolvedRequest,
  known: KnownNames | null,
  keys: readonly KeyAttribute[],
): void {
  const attributes = request.attributes ?? {};
  const exclude = request.exclude ?? [];
  const problems: string[] = [];
  const isComputed = (name: string) => Object.hasOwn(attributes, name);
  for (const key of keys) {
    // A column the request gives no type has none: the index signature's type does not say so.
    const declared = request.types[key.name] as ColumnType | undefined;
    if (exclude.includes(key.name) && !isComputed(key.name)) {
      problems.push(`exclude: ${JSON.stringify(key.name)} is the table's ${key.role} key; an item needs it`);
    } else if (isComputed(key.name) && declared && declared !== key.type) {
      problems.push(`types.${key.name}: declared ${declared} but the table's key is ${key.type}`);
    }
  }
  if (known) {
    const names = new Set(known.names);
    const list = `${known.what} [${known.names.join(', ')}]`;
    for (const [name, template] of parseTemplates(attributes).templates) {
      for (const column of new Set(template.columns).values()) {
        if (!names.has(column)) problems.push(`attributes.${name}: {${column}} is not among ${list}`);
      }
    }
    for (const name of exclude.filter((n) => !names.has(n))) {
      problems.push(`exclude: ${JSON.stringify(name)} is not among ${list}`);
    }
  }
  if (problems.length > 0) throw new InvalidRequestError(problems);
}
