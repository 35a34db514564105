import type { FormatTraits } from '../../../lambdas/contract/format-traits.js';
import type { MappedRecord, RawRecord, RecordFormat, RecordSchema } from '../../../lambdas/formats/record-format.js';
import type { SourceFormat } from '../../../lambdas/formats/record-formats.js';
import type { Item } from '../../../lambdas/write/item-sink.js';

/** A toy text format: one record a line, `name=value` pairs joined by `;`, no header, no quoting. */
const TOY_TRAITS: FormatTraits = {
  title: 'toy key=value lines',
  layout: 'records',
  typedRecords: false,
  textColumns: false,
  compressedInside: false,
  headerColumns: false,
};

/** Records end at LF only: no quote can hide one. */
const LF_ONLY = { delimiter: 0x3b, quote: undefined };

/** One line to an item: each pair an attribute, `N` where the request's types or the table's key say so, else `S`. */
function mapToyLine(record: RawRecord, schema: RecordSchema): MappedRecord {
  const item: Item = {};
  const text = record.raw.toString('utf8').replace(/\r?\n$/, '');
  for (const pair of text.split(';')) {
    const at = pair.indexOf('=');
    if (at < 1) return { ok: false, reason: `not a name=value pair: ${JSON.stringify(pair)}` };
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    const type = schema.keys.find((k) => k.name === name)?.type ?? schema.types[name] ?? 'S';
    if (type === 'N' && !/^-?\d+(\.\d+)?$/.test(value)) return { ok: false, reason: `${name}: not a number` };
    item[name] = type === 'N' ? { N: value } : { S: value };
  }
  const missing = schema.keys.find((k) => item[k.name] === undefined);
  if (missing) return { ok: false, reason: `key attribute "${missing.name}" is missing` };
  return { ok: true, item, key: schema.keys.map((k) => JSON.stringify(item[k.name])).join('|') };
}

/** The toy format's reader and mapper: the data starts at byte 0, line 1. */
function toyKvRecords(): RecordFormat {
  return {
    dialect: LF_ONLY,
    readStart: async () => ({ header: null, dataStart: 0, dataLine: 1 }),
    createMapper: (schema) => (records) => records.map((record) => mapToyLine(record, schema)),
  };
}

/** The toy format's entry in a table of source formats (SOURCE_FORMATS). */
export const TOY_KV_FORMAT: SourceFormat = { traits: TOY_TRAITS, records: toyKvRecords };
