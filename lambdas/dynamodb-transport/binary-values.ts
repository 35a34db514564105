import type {
  AttributeValue,
  BatchExecuteStatementCommandInput,
  BatchGetItemCommandInput,
  BatchWriteItemCommandInput,
  KeysAndAttributes,
  PutItemCommandInput,
  UpdateItemCommandInput,
  WriteRequest,
} from '@aws-sdk/client-dynamodb';

/** The requests whose values may be binary: every call of the write transport. */
export type TransportInput =
  | BatchExecuteStatementCommandInput
  | BatchWriteItemCommandInput
  | BatchGetItemCommandInput
  | PutItemCommandInput
  | UpdateItemCommandInput;

/**
 * Whether any item of the request holds a binary value (B or BS, at any depth of its maps and lists): a batch's
 * items and keys, a BatchGetItem's keys, a PutItem's item, an UpdateItem's key and values, the parameters of a batch
 * of PartiQL statements.
 */
export function hasBinary(input: TransportInput): boolean {
  if ('Statements' in input) return (input.Statements ?? []).some(({ Parameters }) => someBinary(Parameters ?? []));
  if ('RequestItems' in input) {
    for (const requests of Object.values(input.RequestItems ?? {}) as (WriteRequest[] | KeysAndAttributes)[]) {
      // BatchGetItem names its keys under Keys; BatchWriteItem lists its requests.
      if (!Array.isArray(requests)) {
        if ((requests.Keys ?? []).some((key) => someBinary(Object.values(key)))) return true;
        continue;
      }
      for (const { PutRequest, DeleteRequest } of requests)
        if (someBinary(Object.values(PutRequest?.Item ?? DeleteRequest?.Key ?? {}))) return true;
    }
    return false;
  }
  const values = 'Item' in input ? [input.Item] : [input.Key, input.ExpressionAttributeValues];
  return values.some((item) => item !== undefined && someBinary(Object.values(item)));
}

function someBinary(values: AttributeValue[]): boolean {
  for (const value of values) {
    if (value.B !== undefined || value.BS !== undefined) return true;
    if (value.M !== undefined && someBinary(Object.values(value.M))) return true;
    if (value.L !== undefined && someBinary(value.L)) return true;
  }
  return false;
}

/** JSON.stringify replacer: binary attribute values (B, BS) go as base64, as the JSON protocol wants. */
export function binaryAsBase64(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  return raw instanceof Uint8Array ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64') : value;
}
