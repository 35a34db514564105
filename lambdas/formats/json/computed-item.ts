import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { setMember } from './attribute-rules.js';
import { typeOf } from './item-keys.js';
import type { LineItem } from './json-lines.js';
import {
  type ComputedAttributes,
  computedAttributes,
  placeholderReject,
  renameComputedReject,
} from '../computed-attributes.js';
import { createRowMapper } from '../csv/row-mapper.js';
import type { RecordSchema } from '../record-format.js';
import { readTtl } from '../ttl.js';
import { renderTemplate } from '../../request/attribute-template.js';
import type { Item } from '../../write/item-sink.js';

/** The steps between a JSON record's own item and the key check: computed attributes, exclude, TTL types. */
export type ItemTransform = (item: Item) => LineItem;

/**
 * What JSON Lines and DynamoDB JSON do to a record's item before the key and size checks, or null when the
 * request asks nothing of them (the plain path). In order: the computed `attributes` (rendered from the item's
 * top-level S and N attributes, N as its exact text; then typed like CSV text by `types`, key attributes by the
 * table's key types), replacing a same-named attribute; then `exclude`; then `TTL` types of the record's own
 * attributes (an S date-time or an N of epoch seconds becomes N epoch seconds; any other type rejects).
 */
export function createItemTransform(schema: RecordSchema): ItemTransform | null {
  const computed = computedAttributes(schema);
  const ttl = Object.keys(schema.types).filter(
    (name) => schema.types[name] === 'TTL' && !computed?.names.includes(name),
  );
  if (!computed && ttl.length === 0) return null;
  const setComputed = computed && createSetComputed(schema, computed.names);
  const exclude = computed?.exclude ?? new Set<string>();
  return (record) => {
    let item = record;
    if (computed) {
      const texts = renderAll(record, computed);
      if (!Array.isArray(texts)) return texts;
      // A copy without the excluded attributes: `delete` would turn the item into a slow dictionary-mode object.
      if (exclude.size > 0) item = without(record, exclude);
      const rejected = setComputed!(item, texts);
      if (rejected) return rejected;
    }
    for (const name of ttl) {
      if (!Object.hasOwn(item, name)) continue; // an item without it never expires: allowed
      const converted = ttlOf(item[name]);
      if (typeof converted === 'string')
        return { ok: false, reason: `attribute ${JSON.stringify(name)}: ${converted}` };
      item[name] = converted;
    }
    return { item };
  };
}

/**
 * Sets the computed attributes on the item from their rendered texts, typed as CSV text is typed (`types`, key
 * attributes by the table's key types), or returns the reject. Text attributes (most: keys of S tables, constants)
 * are set as they are; only the others go through the row mapper's conversions, which cost a few hundred ns.
 */
function createSetComputed(schema: RecordSchema, names: readonly string[]) {
  const keyTypes = new Map<string, string>(schema.keys.map((k) => [k.name, k.type]));
  const isText = names.map(
    (name) => (keyTypes.get(name) ?? (Object.hasOwn(schema.types, name) ? schema.types[name] : 'S')) === 'S',
  );
  const typedNames = names.filter((_, i) => !isText[i]);
  const typed = createRowMapper({
    columns: typedNames,
    types: schema.types,
    keys: schema.keys.filter((key) => typedNames.includes(key.name)),
  });
  return (item: Item, texts: readonly string[]): Extract<LineItem, { ok: false }> | undefined => {
    const typedTexts: string[] = [];
    for (let i = 0; i < names.length; i++) {
      if (isText[i]) item[names[i]] = { S: texts[i] };
      else typedTexts.push(texts[i]);
    }
    if (typedTexts.length === 0) return undefined;
    const mapped = typed(typedTexts);
    if (!mapped.ok) return { ok: false, reason: renameComputedReject(mapped.reason, names) };
    for (const name of typedNames) item[name] = mapped.item[name];
    return undefined;
  };
}

/** The item's attributes but the excluded ones. */
function without(item: Item, exclude: ReadonlySet<string>): Item {
  const out: Item = {};
  for (const name of Object.keys(item)) if (!exclude.has(name)) setMember(out, name, item[name]); // __proto__ too
  return out;
}

/** Each computed attribute's text, or the reject of the first placeholder with no text. */
function renderAll(item: Item, computed: ComputedAttributes): string[] | Extract<LineItem, { ok: false }> {
  const texts = new Array<string>(computed.names.length);
  for (let t = 0; t < computed.templates.length; t++) {
    const template = computed.templates[t];
    const values = new Array<string>(template.columns.length);
    for (let p = 0; p < values.length; p++) {
      const column = template.columns[p];
      const value = Object.hasOwn(item, column) ? item[column] : undefined;
      const text = value === undefined ? undefined : (value.S ?? value.N);
      if (!text) {
        const problem = !value
          ? 'is missing'
          : text === ''
            ? 'is empty'
            : `holds ${typeOf(value)}; a template reads S and N only`;
        return placeholderReject(computed.names[t], column, problem) as Extract<LineItem, { ok: false }>;
      }
      values[p] = text;
    }
    texts[t] = renderTemplate(template, values);
  }
  return texts;
}

/** An S date-time or an N of whole epoch seconds as N epoch seconds, or why not. */
function ttlOf(value: AttributeValue): AttributeValue | string {
  const text = value.S ?? value.N;
  if (text === undefined) return `a TTL is a date-time string or a number of epoch seconds, got ${typeOf(value)}`;
  const read = readTtl(text);
  return read.ok ? { N: read.epochSeconds } : read.reason;
}
