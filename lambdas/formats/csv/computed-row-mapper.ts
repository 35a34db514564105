import { createRowMapper, type MappedRow, type RowMapperOptions } from './row-mapper.js';
import { type ComputedAttributes, placeholderReject, renameComputedReject } from '../computed-attributes.js';
import { renderTemplate } from '../../request/attribute-template.js';

/**
 * The row mapper for a request with computed attributes or excluded columns. Each row is turned into the
 * fields of "virtual" columns: the stored columns (neither excluded nor overridden by a computed attribute of
 * the same name), then the computed attributes rendered from the row's own text; the plain row mapper then
 * types them (`types`, key types from the table), checks the key and the size, as it does for any file.
 * Placeholders read the text as written, before any type applies (the `{amount}` of `"1.50"` is `1.50`).
 */
export function createComputedRowMapper(
  options: RowMapperOptions,
  computed: ComputedAttributes,
): (fields: string[]) => MappedRow {
  const { columns } = options;
  const stored = columns.flatMap((name, index) =>
    computed.exclude.has(name) || computed.names.includes(name) ? [] : [index],
  );
  const mapVirtual = createRowMapper({ ...options, columns: [...stored.map((i) => columns[i]), ...computed.names] });
  // Preflight refuses a template naming an unknown column before any write; -1 could only come from edited state.
  const sources = computed.templates.map((t) => t.columns.map((column) => columns.indexOf(column)));

  return (fields) => {
    if (fields.length !== columns.length) {
      return { ok: false, reason: `expected ${columns.length} fields, got ${fields.length}` };
    }
    const virtual = new Array<string>(stored.length + computed.names.length);
    for (let i = 0; i < stored.length; i++) virtual[i] = fields[stored[i]];
    for (let t = 0; t < sources.length; t++) {
      const indexes = sources[t];
      const values = new Array<string>(indexes.length);
      for (let p = 0; p < indexes.length; p++) {
        const text = indexes[p] === -1 ? undefined : fields[indexes[p]];
        if (!text) {
          const column = computed.templates[t].columns[p];
          return placeholderReject(computed.names[t], column, text === '' ? 'is empty' : 'is missing');
        }
        values[p] = text;
      }
      virtual[stored.length + t] = renderTemplate(computed.templates[t], values);
    }
    const mapped = mapVirtual(virtual);
    return mapped.ok ? mapped : { ok: false, reason: renameComputedReject(mapped.reason, computed.names) };
  };
}
