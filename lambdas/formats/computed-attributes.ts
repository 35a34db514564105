import type { MappedRecord, RecordSchema } from './record-format.js';
import { type AttributeTemplate, parseTemplates } from '../request/attribute-template.js';

/** What a request computes and drops, parsed once per mapper (not per record). */
export interface ComputedAttributes {
  /** The computed attributes' names, in the request's order; `templates[i]` computes `names[i]`. */
  readonly names: readonly string[];
  readonly templates: readonly AttributeTemplate[];
  /** Columns not stored (they still feed the templates). */
  readonly exclude: ReadonlySet<string>;
}

/**
 * The request's computed attributes and excluded columns, or null when it has neither: the mappers then take
 * their plain path, with no per-record work added. Templates were checked by the request's validation, so
 * one that does not parse here means the state was edited: it fails loudly rather than being skipped.
 */
export function computedAttributes(schema: RecordSchema): ComputedAttributes | null {
  const attributes = schema.attributes ?? {};
  const exclude = schema.exclude ?? [];
  if (Object.keys(attributes).length === 0 && exclude.length === 0) return null;
  const { templates, problems } = parseTemplates(attributes);
  if (problems.length > 0) throw new Error(`attributes that do not parse reached a mapper: ${problems.join('; ')}`);
  return { names: [...templates.keys()], templates: [...templates.values()], exclude: new Set(exclude) };
}

/** Why a placeholder's column gives no text for a record: the reason names the attribute and the column. */
export function placeholderReject(attribute: string, column: string, problem: string): MappedRecord {
  return { ok: false, reason: `attribute ${JSON.stringify(attribute)}: column ${JSON.stringify(column)} ${problem}` };
}

/**
 * The row mapper words a bad value as `column "X": ...`; for a computed attribute X it is `attribute "X": ...`
 * (there is no column X in the file to look for).
 */
export function renameComputedReject(reason: string, names: readonly string[]): string {
  for (const name of names) {
    const prefix = `column ${JSON.stringify(name)}:`;
    if (reason.startsWith(prefix)) return `attribute ${JSON.stringify(name)}:${reason.slice(prefix.length)}`;
  }
  return reason;
}
