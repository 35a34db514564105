import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { SchemaTree } from 'hyparquet';
import { finishItem } from '../json/item-keys.js';
import { readTtl } from '../ttl.js';
import { columnValue, type MappedValue } from './parquet-values.js';
import type { MappedRecord } from '../record-format.js';
import type { ColumnType } from '../../contract/import-request.js';
import type { KeyAttribute } from '../../contract/workflow-payloads.js';
import type { Item } from '../../write/item-sink.js';

/** A row as the reader gives it: top-level column name to value (null or undefined when null). */
export type ParquetRow = Record<string, unknown>;

/**
 * The one boundary a Parquet row crosses to become an item, `(row) => MappedRecord`, as a CSV or JSON record
 * does: computed attributes, `exclude` and write modes can wrap it like the other formats' mappers.
 */
export type ParquetRowMapper = (row: ParquetRow) => MappedRecord;

export interface ParquetMapperOptions {
  /** The file's schema root (hyparquet's parquetSchema of the footer as written). */
  readonly schema: SchemaTree;
  /** `S` turns a scalar column into its text; `TTL` turns a date-time or epoch seconds into N epoch seconds. */
  readonly types: Readonly<Record<string, ColumnType>>;
  readonly keys: readonly KeyAttribute[];
}

/** A scalar's text: what `types: { col: "S" }` stores (B as base64, the form the CLI and JSON show bytes in). */
function scalarText(value: AttributeValue): string | undefined {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return value.N;
  if (value.BOOL !== undefined) return String(value.BOOL);
  if (value.B !== undefined) return Buffer.from(value.B).toString('base64');
  return undefined;
}

function override(name: string, mapped: AttributeValue, type: ColumnType | undefined): MappedValue {
  if (type === undefined) return { ok: true, value: mapped };
  const text = scalarText(mapped);
  if (text === undefined) return { ok: false, reason: `column ${name}: a nested value cannot be typed ${type}` };
  if (type === 'S') return { ok: true, value: { S: text } };
  const ttl = readTtl(text);
  return ttl.ok ? { ok: true, value: { N: ttl.epochSeconds } } : { ok: false, reason: `column ${name}: ${ttl.reason}` };
}

/**
 * Builds the mapper of one file's rows: each top-level column through the schema's type mapping
 * (parquet-values.ts), a null column omitted (as an empty CSV field is), then the key and 400 KB checks every
 * format shares (finishItem). Preflight has checked `types` against the schema; `types` on key columns is ignored
 * here as it is for CSV (the table's key types rule).
 */
export function createParquetRowMapper({ schema, types, keys }: ParquetMapperOptions): ParquetRowMapper {
  const columns = schema.children.map((node) => ({
    name: node.element.name,
    node,
    type: Object.hasOwn(types, node.element.name) ? types[node.element.name] : undefined,
  }));
  return (row) => {
    const item: Item = {};
    for (const { name, node, type } of columns) {
      const value = row[name];
      if (value === null || value === undefined) continue;
      const mapped = columnValue(value, node);
      const typed = mapped.ok ? override(name, mapped.value, type) : mapped;
      if (!typed.ok)
        return {
          ok: false,
          reason: typed.reason.startsWith('column ') ? typed.reason : `column ${name}: ${typed.reason}`,
        };
      item[name] = typed.value;
    }
    return finishItem(item, keys);
  };
}
