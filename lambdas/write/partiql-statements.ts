import type { AttributeValue, BatchStatementRequest } from '@aws-sdk/client-dynamodb';
import { MAX_SET_PER_UPDATE } from './item-requests.js';
import type { Item } from './item-sink.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

/**
 * Longest statement text BatchExecuteStatement takes: "Length Constraints: Minimum length of 1. Maximum length of
 * 8192" (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchStatementRequest.html). Values
 * travel as parameters, so only the table's and the attributes' names count; an item whose names do not fit goes as
 * a single-item request instead (write/statement-writer.ts). Counted in UTF-8 bytes, which is never less than the
 * characters the limit may count.
 */
export const MAX_STATEMENT_BYTES = 8192;

/** A PartiQL name as a quoted identifier: any attribute name (a reserved word, a dot, a space) taken as written. */
function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A name as a string literal, as the tuple of an INSERT's VALUE names its attributes. */
function literal(name: string): string {
  return `'${name.replaceAll("'", "''")}'`;
}

function fits(statement: string): boolean {
  return statement.length * 3 <= MAX_STATEMENT_BYTES || Buffer.byteLength(statement) <= MAX_STATEMENT_BYTES;
}

/**
 * `INSERT INTO "table" VALUE {'a': ?, ...}`: writes the item only when no item has its key; otherwise the statement
 * fails alone with `DuplicateItem` (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-reference.insert.html),
 * the PartiQL form of insert's `attribute_not_exists` PutItem. Undefined when the names make it too long.
 */
export function insertStatement(table: string, item: Item): BatchStatementRequest | undefined {
  const names = Object.keys(item);
  const Parameters: AttributeValue[] = names.map((name) => item[name]);
  const Statement = `INSERT INTO ${identifier(table)} VALUE {${names.map((name) => `${literal(name)}: ?`).join(', ')}}`;
  return fits(Statement) ? { Statement, Parameters } : undefined;
}

/**
 * `UPDATE "table" SET "a" = ?, ... WHERE "pk" = ? AND "sk" = ?`: sets the item's non-key attributes on the item its
 * key names and leaves its other attributes as they are. Unlike UpdateItem it does not create a missing item: the
 * statement then fails alone with `ConditionalCheckFailed`, and the writer sends the item's INSERT instead.
 * Undefined for an item of key attributes only (nothing to SET: its INSERT alone does the merge), when it takes
 * more assignments than one UpdateItem does (MAX_SET_PER_UPDATE) or more than MAX_STATEMENT_BYTES, or when a name
 * holds `#` or `:`: the UPDATE becomes an update expression, where those start placeholders even inside a quoted
 * name (a DynamoDB server was seen to answer `SET "#x" = ?` with "An expression attribute name used in the document
 * path is not defined"); such an item goes as an UpdateItem, whose placeholders take any name, however a server reads it.
 */
export function updateStatement(
  table: string,
  item: Item,
  keys: readonly KeyAttribute[],
): BatchStatementRequest | undefined {
  const keyNames = new Set(keys.map((key) => key.name));
  const names = Object.keys(item).filter((name) => !keyNames.has(name));
  if (names.length === 0 || names.length > MAX_SET_PER_UPDATE) return undefined;
  if (names.some((name) => name.includes('#') || name.includes(':'))) return undefined;
  const Parameters: AttributeValue[] = names.map((name) => item[name]);
  for (const key of keys) Parameters.push(item[key.name]);
  const set = names.map((name) => `${identifier(name)} = ?`).join(', ');
  const where = keys.map((key) => `${identifier(key.name)} = ?`).join(' AND ');
  const Statement = `UPDATE ${identifier(table)} SET ${set} WHERE ${where}`;
  return fits(Statement) ? { Statement, Parameters } : undefined;
}
