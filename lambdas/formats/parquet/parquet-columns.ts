import type { SchemaElement, SchemaTree } from 'hyparquet';
import { isDecimal, isList, isMap } from './parquet-values.js';

/** The DynamoDB type a top-level column's values take (parquet-values.ts), for checks before any write. */
export type ColumnKind = 'S' | 'N' | 'B' | 'BOOL' | 'L' | 'M';

/** Annotations whose values the mapping writes as text. */
const TEXT_TYPES = new Set([
  'STRING',
  'UTF8',
  'ENUM',
  'JSON',
  'UUID',
  'DATE',
  'TIMESTAMP',
  'TIMESTAMP_MILLIS',
  'TIMESTAMP_MICROS',
]);

function leafKind(element: SchemaElement): ColumnKind {
  if (isDecimal(element)) return 'N';
  const annotation = element.logical_type?.type ?? element.converted_type;
  if (annotation && TEXT_TYPES.has(annotation)) return 'S';
  switch (element.type) {
    case 'BOOLEAN':
      return 'BOOL';
    case 'INT96':
      return 'S'; // a legacy timestamp (Spark, Impala): ISO 8601 text like TIMESTAMP
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      return 'B';
    default:
      return 'N';
  }
}

/** What a column's non-null values become: L for lists and repeated fields, M for maps and structs. */
export function columnKind(node: SchemaTree): ColumnKind {
  const { element } = node;
  if (isList(element) || element.repetition_type === 'REPEATED') return 'L';
  if (isMap(element) || node.children.length > 0) return 'M';
  return leafKind(element);
}

/** A column's name and type as the file's schema gives them (field ids aside), to compare the files of a folder. */
export function columnSignature(node: SchemaTree): string {
  const { name, type, type_length, repetition_type, converted_type, logical_type, scale, precision } = node.element;
  const own = JSON.stringify([
    name,
    type,
    type_length,
    repetition_type,
    converted_type,
    logical_type,
    scale,
    precision,
  ]);
  return node.children.length === 0 ? own : `${own}{${node.children.map(columnSignature).join(',')}}`;
}
