import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { MAX_CONTAINER_DEPTH, jsonNumberProblem, setMember } from './attribute-rules.js';

/** The text is not JSON (RFC 8259, as JSON.parse reads it); the message says what and at which column. */
export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/** The text is JSON, but DynamoDB cannot store it as it is: a number out of range, nesting too deep, ... */
export class JsonValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonValueError';
  }
}

/**
 * Parses JSON text straight into a DynamoDB attribute: objects become M, arrays L, strings S, booleans BOOL,
 * null NULL, and numbers N holding the number's own text, so a 38-digit number lands exactly (JSON.parse
 * would round it through a double; Node 20 has no access to a number's source text). `depth` is the
 * nesting level of the value: 1 for an attribute; a container deeper than DynamoDB's 31 levels is refused.
 * Throws JsonSyntaxError, or JsonValueError when the JSON is valid but not storable (a syntax error later
 * in the text wins, so "invalid JSON" is said whenever it is true).
 */
export function parseJsonAttribute(text: string, depth = 1): AttributeValue {
  const reader = new JsonReader(text);
  reader.skipSpace();
  const value = reader.value(depth);
  reader.skipSpace();
  if (reader.pos < text.length) reader.fail('unexpected text after the JSON value');
  if (reader.problem) throw new JsonValueError(reader.problem);
  return value;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ESCAPES: Readonly<Partial<Record<string, string>>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** A number with no exponent and at most 38 characters has at most 38 digits within 10^38: always storable. */
const ALWAYS_STORABLE_LENGTH = 38;

class JsonReader {
  pos = 0;
  /** The first storability problem met; reported only if the whole text turns out to be valid JSON. */
  problem: string | undefined;

  constructor(private readonly text: string) {}

  value(depth: number): AttributeValue {
    const c = this.text.charCodeAt(this.pos);
    if (c === QUOTE) return { S: this.string() };
    if (c === 0x7b) return { M: this.object(depth) };
    if (c === 0x5b) return { L: this.array(depth) };
    if (c === 0x2d || isDigit(c)) return { N: this.number() };
    if (this.text.startsWith('true', this.pos)) return this.literal(4, { BOOL: true });
    if (this.text.startsWith('false', this.pos)) return this.literal(5, { BOOL: false });
    if (this.text.startsWith('null', this.pos)) return this.literal(4, { NULL: true });
    return this.fail(this.pos < this.text.length ? 'unexpected character' : 'the text ends where a value should be');
  }

  private object(depth: number): Record<string, AttributeValue> {
    this.enter(depth);
    const map: Record<string, AttributeValue> = {};
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 0x7d) return this.close(map);
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== QUOTE) this.fail('expected a string key');
      const key = this.string();
      if (key === '') this.problem ??= 'an object key is empty; DynamoDB refuses empty attribute names';
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("expected ':'");
      this.pos++;
      this.skipSpace();
      setMember(map, key, this.value(depth + 1));
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x7d) return this.close(map);
      if (c !== 0x2c) this.fail("expected ',' or '}'");
      this.pos++;
      this.skipSpace();
    }
  }

  private array(depth: number): AttributeValue[] {
    this.enter(depth);
    const list: AttributeValue[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 0x5d) return this.close(list);
    for (;;) {
      list.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x5d) return this.close(list);
      if (c !== 0x2c) this.fail("expected ',' or ']'");
      this.pos++;
      this.skipSpace();
    }
  }

  /** Too deep is thrown at once: reading on would recurse as deep as the text nests. */
  private enter(depth: number): void {
    if (depth > MAX_CONTAINER_DEPTH)
      throw new JsonValueError(`nested deeper than DynamoDB's ${MAX_CONTAINER_DEPTH} levels`);
  }

  private close<T>(container: T): T {
    this.pos++;
    return container;
  }

  /** A string from its opening quote: runs without escapes are sliced, not copied character by character. */
  private string(): string {
    const { text } = this;
    const open = this.pos;
    let out = '';
    let from = open + 1;
    for (let i = from; ; i++) {
      if (i >= text.length) this.fail('a string is not closed', open);
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        this.pos = i + 1;
        return out + text.slice(from, i);
      }
      if (c < 0x20) this.fail('a control character in a string must be escaped', i);
      if (c === BACKSLASH) {
        out += text.slice(from, i) + this.escape(i);
        from = this.pos;
        i = from - 1;
      }
    }
  }

  /** The escape at `at` (a backslash); leaves `pos` just past it. */
  private escape(at: number): string {
    const { text } = this;
    const kind = text[at + 1];
    if (kind !== 'u') {
      const decoded = ESCAPES[kind];
      if (decoded === undefined) this.fail('unknown escape in a string', at);
      this.pos = at + 2;
      return decoded;
    }
    const unit = this.hex4(at + 2);
    this.pos = at + 6;
    if (unit >= 0xd800 && unit <= 0xdbff && text[at + 6] === '\\' && text[at + 7] === 'u') {
      const low = this.hex4(at + 8);
      if (low >= 0xdc00 && low <= 0xdfff) {
        this.pos = at + 12;
        return String.fromCharCode(unit, low);
      }
    }
    if (unit >= 0xd800 && unit <= 0xdfff) {
      this.problem ??= `a string holds a lone UTF-16 surrogate (\\u${text.slice(at + 2, at + 6)}), which is not Unicode text`;
    }
    return String.fromCharCode(unit);
  }

  private hex4(at: number): number {
    const digits = this.text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) this.fail('\\u needs four hex digits', at);
    return parseInt(digits, 16);
  }

  /** A number's text as written (RFC 8259 grammar), checked against what DynamoDB stores. */
  private number(): string {
    const { text } = this;
    const start = this.pos;
    let i = start;
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) i++;
    else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
    else this.fail('a number needs a digit', i);
    if (text.charCodeAt(i) === 0x2e) {
      if (!isDigit(text.charCodeAt(++i))) this.fail('a number needs a digit after the point', i);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    let exponent = false;
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      exponent = true;
      const sign = text.charCodeAt(++i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(text.charCodeAt(i))) this.fail('a number needs a digit in its exponent', i);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    this.pos = i;
    const literal = text.slice(start, i);
    if (exponent || literal.length > ALWAYS_STORABLE_LENGTH) this.problem ??= jsonNumberProblem(literal);
    return literal;
  }

  private literal(length: number, value: AttributeValue): AttributeValue {
    this.pos += length;
    return value;
  }

  skipSpace(): void {
    const { text } = this;
    let c = text.charCodeAt(this.pos);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++this.pos);
  }

  fail(what: string, at = this.pos): never {
    const found =
      at < this.text.length
        ? ` ${JSON.stringify(this.text[at])} at column ${at + 1}`
        : ` at column ${at + 1}, where the text ends`;
    throw new JsonSyntaxError(`${what}${found}`);
  }
}
