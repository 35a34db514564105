import type { PutItemCommandInput, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import type { Item } from './item-sink.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

/**
 * Attributes SET by one UpdateItem. DynamoDB caps an expression string at 4 KB and an expression at 300 operators
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html#limits-expression-parameters):
 * `#a99 = :a99, ` is 13 bytes, so 100 assignments take ~1.3 KB and 100 `=` operators; a row with more attributes
 * goes as several UpdateItems of the same key, in order (each only SETs, so together they are the one merge).
 */
export const MAX_SET_PER_UPDATE = 100;

/** The item's key attributes, as a DeleteRequest, an UpdateItem or a condition names them. */
export function keyOf(item: Item, keys: readonly KeyAttribute[]): Item {
  const key: Item = {};
  for (const { name } of keys) key[name] = item[name];
  return key;
}

/**
 * `insert`: a PutItem that writes only when no item has the key. `attribute_not_exists` of the partition key is
 * true exactly when no item with this item's full key exists (the condition is checked against the item the key
 * names: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ConditionExpressions.html#Expressions.ConditionExpressions.PreventingOverwrites).
 */
export function insertRequest(table: string, item: Item, keys: readonly KeyAttribute[]): PutItemCommandInput {
  return {
    TableName: table,
    Item: item,
    ConditionExpression: 'attribute_not_exists(#k)',
    ExpressionAttributeNames: { '#k': keys[0].name },
  };
}

/**
 * `update`: the UpdateItems that merge the item's attributes into the one its key names (SET each non-key
 * attribute; UpdateItem creates the item when it is missing). Names and values go through placeholders, so any
 * attribute name (a reserved word, a dot, a space) is taken as written. An item of key attributes only is one
 * UpdateItem without an expression: it creates the item if missing and changes nothing otherwise.
 */
export function updateRequests(table: string, item: Item, keys: readonly KeyAttribute[]): UpdateItemCommandInput[] {
  const Key = keyOf(item, keys);
  const names = Object.keys(item).filter((name) => !Object.hasOwn(Key, name));
  if (names.length === 0) return [{ TableName: table, Key }];
  const requests: UpdateItemCommandInput[] = [];
  for (let start = 0; start < names.length; start += MAX_SET_PER_UPDATE) {
    const part = names.slice(start, start + MAX_SET_PER_UPDATE);
    const ExpressionAttributeNames: Record<string, string> = {};
    const ExpressionAttributeValues: Item = {};
    const assignments = part.map((name, i) => {
      ExpressionAttributeNames[`#a${i}`] = name;
      ExpressionAttributeValues[`:a${i}`] = item[name];
      return `#a${i} = :a${i}`;
    });
    requests.push({
      TableName: table,
      Key,
      UpdateExpression: `SET ${assignments.join(', ')}`,
      ExpressionAttributeNames,
      ExpressionAttributeValues,
    });
  }
  return requests;
}
