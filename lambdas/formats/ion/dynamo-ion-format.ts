import { IonTypes, makeReader, type Reader } from 'ion-js';
import { ionStruct } from './ion-value.js';
import { createItemTransform, type ItemTransform } from '../json/computed-item.js';
import { finishItem } from '../json/item-keys.js';
import { TypedValueError } from '../json/dynamo-json-value.js';
import { LINE_DIALECT, lineText, readLinesStart, type LineItem } from '../json/json-lines.js';
import type { MappedRecord, RawRecord, RecordFormat } from '../record-format.js';
import type { KeyAttribute } from '../../contract/workflow-payloads.js';

/** The one field of a line's struct, as the export writes it: `{Item:{...}}`. */
const ITEM_FIELD = 'Item';

/**
 * DynamoDB Ion, as a table export in ION writes it
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html#S3DataExport.Output_Data_ION):
 * "Items in an Ion export are delimited by newlines. Each line begins with an Ion version marker, followed by
 * an item in Ion format", `$ion_1_0 {Item:{pk:"a",n:103.,...}}`. DynamoDB's import from S3 reads the same lines.
 * So records end at LF as in DynamoDB JSON (the scanner needs no Ion knowledge), and each line is read on its
 * own by ion-js, Amazon's Ion library, into an item with DynamoDB's mapping (ion-value.ts).
 */
export function dynamoIonFormat(): RecordFormat {
  return {
    dialect: LINE_DIALECT,
    readStart: (read, size, keys) => readLinesStart(read, size, keys, ionLineItem),
    // Computed attributes, exclude and TTL types: the same steps as DynamoDB JSON's items (computed-item.ts).
    createMapper(schema) {
      const transform = createItemTransform(schema) ?? undefined;
      return (records) => records.map((record) => mapIonLine(record, schema.keys, transform));
    },
  };
}

/** One line to an item, or the reason it is rejected (naming the attribute when a value is wrong). */
export function mapIonLine(record: RawRecord, keys: readonly KeyAttribute[], transform?: ItemTransform): MappedRecord {
  const line = ionLineItem(record);
  const ready = transform && 'item' in line ? transform(line.item) : line;
  return 'item' in ready ? finishItem(ready.item, keys) : ready;
}

/** The line's item before the key and size checks: exactly one `{Item:{...}}` struct, after the version marker. */
function ionLineItem(record: RawRecord): LineItem {
  const line = lineText(record);
  if (!('text' in line)) return line;
  try {
    const reader = makeReader(line.text);
    const problem = enterItem(reader);
    if (problem) return { ok: false, reason: problem };
    const item = ionStruct(reader, 0);
    if (reader.next() !== null) return { ok: false, reason: `the struct holds more than its ${ITEM_FIELD} field` };
    reader.stepOut();
    if (reader.next() !== null) return { ok: false, reason: 'the line holds more than one Ion value' };
    return { item };
  } catch (error) {
    if (error instanceof TypedValueError) return { ok: false, reason: error.reason };
    // ion-js throws plain Errors for text that is not Ion: the line is the record's location, the message the rest.
    return { ok: false, reason: `invalid Ion: ${(error as Error).message}` };
  }
}

/** Steps into the line's top-level struct up to its `Item` field; returns why it cannot, or undefined. */
function enterItem(reader: Reader): string | undefined {
  const expected = `expected one {${ITEM_FIELD}:{...}} struct, as a DynamoDB export writes a line`;
  const top = reader.next();
  if (top === null) return `no Ion value on the line; ${expected}`;
  if (top !== IonTypes.STRUCT || reader.isNull() || reader.annotations().length > 0) {
    return `the line holds an Ion ${reader.isNull() ? 'null' : top.name}; ${expected}`;
  }
  reader.stepIn();
  const field = reader.next();
  if (field === null || reader.fieldName() !== ITEM_FIELD) return `the struct has no ${ITEM_FIELD} field; ${expected}`;
  if (field !== IonTypes.STRUCT || reader.isNull() || reader.annotations().length > 0) {
    return `${ITEM_FIELD} holds an Ion ${reader.isNull() ? 'null' : field.name}, not a struct of attributes`;
  }
  return undefined;
}
