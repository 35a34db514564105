import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { IonTypes, type IonType, type Reader } from 'ion-js';
import { ionNumber, numberIdentity } from './ion-scalars.js';
import { TypedValueError } from '../json/dynamo-json-value.js';

/**
 * The annotations a DynamoDB Ion export puts on a list to say it is a set
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html#S3DataExport.Output_Data_ION:
 * "Set (SS, NS, BS): list (with type annotation $dynamodb_SS, $dynamodb_NS, or $dynamodb_BS)").
 */
const SET_ANNOTATIONS: Readonly<Record<string, 'SS' | 'NS' | 'BS'>> = {
  $dynamodb_SS: 'SS',
  $dynamodb_NS: 'NS',
  $dynamodb_BS: 'BS',
};

/** A set: a non-null list with one of the set annotations. Anything else annotated is refused. */
export function annotatedValue(reader: Reader, type: IonType, annotations: string[]): AttributeValue {
  const set = annotations.length === 1 ? SET_ANNOTATIONS[annotations[0]] : undefined;
  if (set === undefined || type !== IonTypes.LIST || reader.isNull()) {
    throw new TypedValueError(
      `the annotation ${annotations.join('::')}:: on an Ion ${reader.isNull() ? 'null' : type.name} is not one ` +
        'DynamoDB writes (only $dynamodb_SS, $dynamodb_NS or $dynamodb_BS, on a list)',
    );
  }
  return ionSet(reader, set);
}

/**
 * SS, NS, BS: non-empty, each member once (numbers by value, binaries by bytes), as DynamoDB requires
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html).
 */
function ionSet(reader: Reader, set: 'SS' | 'NS' | 'BS'): AttributeValue {
  const seen = new Set<string>();
  const members: Array<string | Buffer> = [];
  reader.stepIn();
  for (let type = reader.next(); type !== null; type = reader.next()) {
    const [identity, member] = ionSetEntry(reader, type, set);
    if (seen.has(identity)) {
      const shown = typeof member === 'string' ? member : identity;
      throw new TypedValueError(`${set} holds ${JSON.stringify(shown)} twice; a set holds each value once`);
    }
    seen.add(identity);
    members.push(member);
  }
  reader.stepOut();
  if (members.length === 0) throw new TypedValueError(`${set} is empty; DynamoDB does not store empty sets`);
  if (set === 'SS') return { SS: members as string[] };
  if (set === 'NS') return { NS: members as string[] };
  return { BS: members as Buffer[] };
}

/** One set member's identity and value; its Ion type must be the set's (string; decimal, int or float; blob). */
function ionSetEntry(reader: Reader, type: IonType, set: 'SS' | 'NS' | 'BS'): [string, string | Buffer] {
  const plain = !reader.isNull() && reader.annotations().length === 0;
  if (set === 'SS' && plain && type === IonTypes.STRING) {
    const member = reader.stringValue()!;
    return [member, member];
  }
  if (set === 'NS' && plain && (type === IonTypes.DECIMAL || type === IonTypes.INT || type === IonTypes.FLOAT)) {
    const number = ionNumber(reader, type);
    return [numberIdentity(number), number];
  }
  if (set === 'BS' && plain && type === IonTypes.BLOB) {
    const bytes = Buffer.from(reader.uInt8ArrayValue()!);
    return [bytes.toString('base64'), bytes];
  }
  const expected = { SS: 'strings', NS: 'decimals', BS: 'blobs' }[set];
  throw new TypedValueError(
    `${set} members must be ${expected}; an Ion ${reader.isNull() ? 'null' : type.name} is not`,
  );
}
