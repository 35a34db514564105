import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { IonTypes, type IonType, type Reader } from 'ion-js';
import { ionNumber } from './ion-scalars.js';
import { annotatedValue } from './ion-set.js';
import { MAX_CONTAINER_DEPTH, setMember } from '../json/attribute-rules.js';
import { TypedValueError } from '../json/dynamo-json-value.js';

const tooDeep = () => new TypedValueError(`nested deeper than DynamoDB's ${MAX_CONTAINER_DEPTH} levels`);

/**
 * The value the reader stands on (its type `type`, as `next()` returned it), as DynamoDB's Ion export maps
 * it: string S, decimal N (every digit), blob B, bool BOOL, list L, struct M, an annotated list SS/NS/BS,
 * and null (of any Ion type) NULL. An int is N too, a float N by its shortest text. Symbols, timestamps,
 * clobs and s-expressions have no DynamoDB type and are refused, as is any other annotation: a value never
 * silently becomes another. `depth` is the value's nesting level (1 for an attribute). Throws TypedValueError.
 */
export function ionValue(reader: Reader, type: IonType, depth: number): AttributeValue {
  const annotations = reader.annotations();
  if (annotations.length > 0) return annotatedValue(reader, type, annotations);
  if (reader.isNull()) return { NULL: true };
  switch (type) {
    case IonTypes.STRING:
      return { S: reader.stringValue()! };
    case IonTypes.DECIMAL:
    case IonTypes.INT:
    case IonTypes.FLOAT:
      return { N: ionNumber(reader, type) };
    case IonTypes.BLOB:
      return { B: Buffer.from(reader.uInt8ArrayValue()!) };
    case IonTypes.BOOL:
      return { BOOL: reader.booleanValue()! };
    case IonTypes.LIST:
      return { L: ionList(reader, depth) };
    case IonTypes.STRUCT:
      return { M: ionStruct(reader, depth) };
    default:
      throw new TypedValueError(
        `an Ion ${type.name} has no DynamoDB type (an export writes string, decimal, blob, bool, null, list, struct)`,
      );
  }
}

/**
 * The fields of the struct the reader stands on, each a value one level deeper (the item is depth 0). Ion lets a
 * struct repeat a field name; an item cannot hold two attributes of one name, so a repeat is refused rather than
 * one of them dropped.
 */
export function ionStruct(reader: Reader, depth: number): Record<string, AttributeValue> {
  if (depth > MAX_CONTAINER_DEPTH) throw tooDeep();
  const map: Record<string, AttributeValue> = {};
  reader.stepIn();
  for (let type = reader.next(); type !== null; type = reader.next()) {
    const name = reader.fieldName() ?? '';
    try {
      if (name === '') throw new TypedValueError('an attribute name is empty; DynamoDB refuses empty attribute names');
      if (Object.hasOwn(map, name)) throw new TypedValueError('the name appears twice in one struct');
      setMember(map, name, ionValue(reader, type, depth + 1));
    } catch (error) {
      if (error instanceof TypedValueError) error.path.unshift(name);
      throw error;
    }
  }
  reader.stepOut();
  return map;
}

function ionList(reader: Reader, depth: number): AttributeValue[] {
  if (depth > MAX_CONTAINER_DEPTH) throw tooDeep();
  const list: AttributeValue[] = [];
  reader.stepIn();
  for (let type = reader.next(); type !== null; type = reader.next()) {
    try {
      list.push(ionValue(reader, type, depth + 1));
    } catch (error) {
      if (error instanceof TypedValueError) error.path.unshift(list.length);
      throw error;
    }
  }
  reader.stepOut();
  return list;
}
