import { typedMap, TypedValueError } from './dynamo-json-value.js';
import { createItemTransform, type ItemTransform } from './computed-item.js';
import { finishItem } from './item-keys.js';
import { LINE_DIALECT, describeJson, lineText, readLinesStart, type LineItem } from './json-lines.js';
import type { MappedRecord, RawRecord, RecordFormat } from '../record-format.js';
import type { KeyAttribute } from '../../contract/workflow-payloads.js';

/** A `\uD800`-`\uDFFF` escape: the only way a line of valid UTF-8 can spell a lone surrogate. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/**
 * DynamoDB JSON, as a table export writes it: JSON Lines of `{"Item": {"pk": {"S": "..."}, ...}}`
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html#S3DataExport.Output_Data_DDB-JSON),
 * which DynamoDB's own import reads too. A bare item (`{"pk": {"S": "..."}}`, one line of
 * `aws dynamodb scan ... | jq -c '.Items[]'`) is read as well: a line is the export's wrapper when its
 * only member is `Item` holding an object. Numbers are strings in this format, so JSON.parse reads them
 * exactly; a bare JSON number where a typed value belongs is rejected, never rounded.
 */
export function dynamoJsonFormat(): RecordFormat {
  return {
    dialect: LINE_DIALECT,
    readStart: (read, size, keys) => readLinesStart(read, size, keys, dynamoJsonLineItem),
    createMapper(schema) {
      const transform = createItemTransform(schema) ?? undefined;
      return (records) => records.map((record) => mapDynamoJsonLine(record, schema.keys, transform));
    },
  };
}

/** One line to an item, or the reason it is rejected (naming the attribute when a typed value is wrong). */
export function mapDynamoJsonLine(
  record: RawRecord,
  keys: readonly KeyAttribute[],
  transform?: ItemTransform,
): MappedRecord {
  const line = dynamoJsonLineItem(record);
  const ready = transform && 'item' in line ? transform(line.item) : line;
  return 'item' in ready ? finishItem(ready.item, keys) : ready;
}

/** The line's item, typed values checked and converted, before the key and size checks. */
function dynamoJsonLineItem(record: RawRecord): LineItem {
  const line = lineText(record);
  if (!('text' in line)) return line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.text);
  } catch (error) {
    return { ok: false, reason: `invalid JSON: ${(error as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, reason: `not a JSON object: the line holds ${describeJson(parsed)}` };
  }
  const wrapped = parsed as Record<string, unknown>;
  const members = Object.keys(wrapped);
  const inner = wrapped.Item;
  const isWrapper =
    members.length === 1 &&
    members[0] === 'Item' &&
    typeof inner === 'object' &&
    inner !== null &&
    !Array.isArray(inner);
  try {
    const item = typedMap((isWrapper ? inner : wrapped) as Record<string, unknown>, 0);
    if (SURROGATE_ESCAPE.test(line.text) && SURROGATE_ESCAPE.test(JSON.stringify(parsed))) {
      // JSON.stringify escapes exactly the lone surrogates; a proper pair comes back as the character.
      return { ok: false, reason: 'a string holds a lone UTF-16 surrogate escape, which is not Unicode text' };
    }
    return { item };
  } catch (error) {
    if (error instanceof TypedValueError) return { ok: false, reason: `${error.reason}${plainJsonHint(error)}` };
    throw error;
  }
}

/** A file of plain JSON Lines named *.json is read as DynamoDB JSON: say how to read it as it is. */
function plainJsonHint(error: TypedValueError): string {
  return error.message.includes('expected one typed value') ? ' (plain JSON Lines? set format.type to "jsonl")' : '';
}
