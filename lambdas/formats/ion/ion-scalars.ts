import { IonTypes, type Decimal, type IonType, type Reader } from 'ion-js';
import { checkDynamoNumber } from '../../attribute-values/dynamo-number.js';
import { TypedValueError } from '../json/dynamo-json-value.js';

/**
 * Digits after the point written out before E notation is used instead: `0.000123` reads better than
 * `123E-6`, and a 1d-130 needs no 130 zeros. DynamoDB reads both spellings as the same number.
 */
const PLAIN_FRACTION_ZEROS = 6;

/**
 * An Ion decimal as the text of a DynamoDB number, every digit kept: Ion's decimal is a coefficient and a
 * base-10 exponent (https://amazon-ion.github.io/ion-docs/docs/decimal.html), so `1.50` (150, -2) becomes
 * "1.50", `103.` (103, 0) "103", `6d2` (6, 2) "6E2", `-0.` "0" (DynamoDB has no negative zero).
 */
export function decimalText(decimal: Decimal): string {
  const coefficient = decimal.getCoefficient();
  const digits = (coefficient < 0n ? -coefficient : coefficient).toString();
  const sign = decimal.isNegative() && digits !== '0' ? '-' : '';
  const exponent = decimal.getExponent();
  if (exponent === 0) return sign + digits;
  if (exponent > 0 || -exponent > digits.length + PLAIN_FRACTION_ZEROS) return `${sign}${digits}E${exponent}`;
  const padded = digits.padStart(-exponent + 1, '0');
  return `${sign}${padded.slice(0, exponent)}.${padded.slice(exponent)}`;
}

/**
 * An Ion float as N: the shortest text that reads back as the same double (what JavaScript prints), as the
 * Parquet mapping does for FLOAT and DOUBLE. NaN and the infinities are no number DynamoDB stores.
 */
export function floatText(value: number): string {
  if (!Number.isFinite(value)) throw new TypedValueError(`Ion float ${value} is not a number DynamoDB stores`);
  return Object.is(value, -0) ? '0' : String(value);
}

/** Checks the text against DynamoDB's number rules (38 digits, 1E-130 to 9.99E+125) and returns it. */
export function dynamoNumber(text: string): string {
  const check = checkDynamoNumber(text);
  if (!check.ok) throw new TypedValueError(`N ${check.reason}`);
  return text;
}

/** The identity of a number in a set: two spellings of one value (`1.0`, `1.`) are one member. */
export function numberIdentity(text: string): string {
  const check = checkDynamoNumber(text);
  return check.ok ? check.canonical : text;
}

/** The number the reader stands on (an Ion decimal, int or float) as DynamoDB N text, checked. */
export function ionNumber(reader: Reader, type: IonType): string {
  if (type === IonTypes.DECIMAL) return dynamoNumber(decimalText(reader.decimalValue()!));
  if (type === IonTypes.INT) return dynamoNumber(reader.bigIntValue()!.toString());
  return dynamoNumber(floatText(reader.numberValue()!));
}
