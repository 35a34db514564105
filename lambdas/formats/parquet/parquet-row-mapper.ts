import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { SchemaTree } from 'hyparquet';
import { finishItem } from '../json/item-keys.js';
import { createItemTransform } from '../json/computed-item.js';
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
  /**
   * `S` turns a scalar column into its text; `TTL` turns a date-time or epoch seconds into N epoch seconds (the
   * JSON formats' step, formats/json/computed-item.ts); other types only type computed attributes.
   */
  readonly types: Readonly<Record<string, ColumnType>>;
  readonly keys: readonly KeyAttribute[];
  /** The request's computed attributes (name to template), rendered from the row's S and N attributes. */
  readonly attributes?: Readonly<Record<string, string>>;
  /** Columns not stored (they may still feed `attributes`). */
  readonly exclude?: readonly string[];
}

/** A scalar's text: what `types: { col: "S" }` stores (B as base64, the form the CLI and JSON show bytes in). */
function scalarText(value: AttributeValue): string | undefined {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return value.N;
  if (value.BOOL !== undefined) return String(value.BOOL);
  if (value.B !== undefined) return Buffer.from(value.B).toString('base64');
  return undefined;
}

/** `types: { col: "S" }` on a scalar column: its text. */
function asText(name: string, mapped: AttributeValue): MappedValue {
  const text = scalarText(mapped);
  if (text === undefined) return { ok: false, reason: `column ${name}: a nested value cannot be typed S` };
  return { ok: true, value: { S: text } };
}

/**
 * Builds the mapper of one file's rows: each top-level column through the schema's type mapping
 * (parquet-values.ts), a null column omitted (as an empty CSV field is), `S` overrides; then the steps the JSON
 * formats share (computed `attributes`, `exclude`, `TTL`: formats/json/computed-item.ts), then the key and 400 KB
 * checks every format shares (finishItem). Preflight has checked `types` against the schema.
 */
export function createParquetRowMapper(options: ParquetMapperOptions): ParquetRowMapper {
  const { schema, types, keys } = options;
  const transform = createItemTransform({ ...options, columns: [] });
  const columns = schema.children.map((node) => ({
    name: node.element.name,
    node,
    text: Object.hasOwn(types, node.element.name) && types[node.element.name] === 'S',
  }));
  return (row) => {
    const item: Item = {};
    for (const { name, node, text } of columns) {
      const value = row[name];
      if (value === null || value === undefined) continue;
      const mapped = columnValue(value, node);
      const typed = mapped.ok && text ? asText(name, mapped.value) : mapped;
      if (!typed.ok)
        return {
          ok: false,
          reason: typed.reason.startsWith('column ') ? typed.reason : `column ${name}: ${typed.reason}`,
        };
      item[name] = typed.value;
    }
    if (!transform) return finishItem(item, keys);
    const transformed = transform(item);
    return 'item' in transformed ? finishItem(transformed.item, keys) : transformed;
  };
}
