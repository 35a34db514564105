/**
 * The two things EventBridge does with an event that a watched prefix relies on, in plain TypeScript (no CDK,
 * no AWS SDK), so `local watch` treats a local upload exactly as the deployed rule treats an S3 upload:
 * matching an event pattern, and building the target's input with an input transformer. Only the features the
 * pipeline's rules use are implemented; anything else throws instead of guessing.
 */

/** An input transformer as CloudFormation holds it (AWS::Events::Rule Target.InputTransformer). */
export interface InputTransformer {
  /** Placeholder name to a JSON path into the event, e.g. `detail-object-key` -> `$.detail.object.key`. */
  readonly inputPathsMap: Readonly<Record<string, string>>;
  /** JSON text with `<name>` placeholders. */
  readonly inputTemplate: string;
}

/**
 * The value at a JSON path in dot notation with array indices (`$.detail.object.key`, `$.resources[0]`), the
 * subset EventBridge evaluates (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-transform-target-input.html).
 */
export function readJsonPath(event: unknown, path: string): unknown {
  if (!/^\$(\.[\w-]+(\[\d+\])*)*$/.test(path)) throw new Error(`unsupported JSON path ${JSON.stringify(path)}`);
  const steps = [...path.slice(1).matchAll(/\.([\w-]+)|\[(\d+)\]/g)].map((m) => m[1] ?? Number(m[2]));
  let value: unknown = event;
  for (const step of steps) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string | number, unknown>)[step];
  }
  return value;
}

/**
 * Fills an input template as EventBridge does for a JSON template: a placeholder outside quotes becomes the
 * value as JSON (a string value is quoted: `{"instance": <instance>}` gives `{"instance": "i-0123456789"}`), one
 * inside a quoted string becomes the text of the value (same page, "Input transform examples"). `<...>` that
 * names no path is left alone, as EventBridge leaves it. A path missing from the event throws: the rules here
 * only read fields S3 always sends.
 */
export function applyInputTransformer({ inputPathsMap, inputTemplate }: InputTransformer, event: unknown): unknown {
  const values = new Map(
    Object.entries(inputPathsMap).map(([name, path]) => {
      const value = readJsonPath(event, path);
      if (value === undefined) throw new Error(`the event has no ${path} for <${name}>`);
      return [name, value] as const;
    }),
  );
  let out = '';
  let inString = false;
  for (let i = 0; i < inputTemplate.length; i++) {
    const char = inputTemplate[i];
    const placeholder = char === '<' ? /^<([^<>\s]+)>/.exec(inputTemplate.slice(i)) : null;
    if (placeholder && values.has(placeholder[1])) {
      const value = values.get(placeholder[1]);
      out += inString
        ? JSON.stringify(typeof value === 'string' ? value : JSON.stringify(value)).slice(1, -1)
        : JSON.stringify(value);
      i += placeholder[0].length - 1;
      continue;
    }
    if (inString && char === '\\') {
      out += inputTemplate.slice(i, i + 2);
      i++;
      continue;
    }
    if (char === '"') inString = !inString;
    out += char;
  }
  return JSON.parse(out);
}

/** An event pattern in EventBridge's JSON form (`detail-type`, not CDK's `detailType`). */
export type EventPattern = { readonly [field: string]: EventPattern | readonly PatternValue[] };
type PatternValue = string | number | { readonly prefix: string } | { readonly numeric: readonly (string | number)[] };

const NUMERIC: Record<string, (a: number, b: number) => boolean> = {
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '=': (a, b) => a === b,
};

/**
 * Whether `event` matches `pattern`: every field of the pattern must be in the event and match one of its
 * values: an exact value, `{ prefix }` or `{ numeric: [op, n, ...] }` (content filtering,
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-create-pattern-operators.html).
 */
export function matchesEventPattern(pattern: EventPattern, event: unknown): boolean {
  if (typeof event !== 'object' || event === null) return false;
  return Object.entries(pattern).every(([field, expected]) => {
    const actual = (event as Record<string, unknown>)[field];
    if (!Array.isArray(expected)) return matchesEventPattern(expected as EventPattern, actual);
    return (expected as readonly PatternValue[]).some((value) => matchesValue(value, actual));
  });
}

function matchesValue(expected: PatternValue, actual: unknown): boolean {
  if (typeof expected !== 'object') return actual === expected;
  if ('prefix' in expected) return typeof actual === 'string' && actual.startsWith(expected.prefix);
  if ('numeric' in expected) {
    if (typeof actual !== 'number') return false;
    const terms = expected.numeric;
    for (let i = 0; i < terms.length; i += 2) {
      const compare = NUMERIC[String(terms[i])];
      if (!compare) throw new Error(`unsupported numeric operator ${JSON.stringify(terms[i])}`);
      if (!compare(actual, Number(terms[i + 1]))) return false;
    }
    return true;
  }
  throw new Error(`unsupported pattern value ${JSON.stringify(expected)}`);
}
