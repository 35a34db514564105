import { parseArgs } from 'node:util';
import type { FlagSpec, FlagTable } from './command-spec.js';
import { suggestion } from './did-you-mean.js';
import { UnknownFlagError, UsageError } from './usage-error.js';

/** The options node's parseArgs takes for a table: type, multiple, short. */
export function parseArgsOptions(flags: FlagTable) {
  return Object.fromEntries(
    Object.entries(flags).map(([name, flag]: [string, FlagSpec]) => [
      name,
      { type: flag.type, ...(flag.multiple ? { multiple: true } : {}), ...(flag.short ? { short: flag.short } : {}) },
    ]),
  );
}

/**
 * Walks the command line as parseArgs tokenizes it (leniently) and refuses, in one line each, what strict
 * parsing would refuse with node's wording: an unknown flag (with the nearest one: `unknown flag --tabel (did
 * you mean --table?)`), a value flag without its value, a switch given a value.
 */
export function checkTokens(flags: FlagTable, args: readonly string[]): void {
  const { tokens } = parseArgs({
    args: [...args],
    strict: false,
    allowPositionals: true,
    tokens: true,
    options: parseArgsOptions(flags),
  });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const flag = Object.hasOwn(flags, token.name) ? flags[token.name] : undefined;
    if (!flag) {
      const near = token.rawName.startsWith('--') ? suggestion(token.name, Object.keys(flags), '--') : '';
      throw new UnknownFlagError(token.rawName, near);
    }
    if (flag.type === 'string' && (token.value === undefined || isFlagLike(token.value, token.inlineValue)))
      throw new UsageError(`--${token.name} needs a value (--${token.name} ${flag.value ?? 'V'})`);
    if (flag.type === 'boolean' && token.value !== undefined)
      throw new UsageError(`--${token.name} takes no value, got ${JSON.stringify(token.value)}`);
  }
}

/** `--table --json`: the next flag taken as the value is a forgotten value (write `--table=-x` for a dash). */
function isFlagLike(value: string, inline: boolean | undefined): boolean {
  return inline !== true && value.startsWith('-') && value.length > 1;
}

/** Refuses a value outside a flag's `choices`, suggesting the nearest: `--mode: expected put|delete, got "dlete"`. */
export function checkChoices(flags: FlagTable, values: Record<string, unknown>): void {
  for (const [name, flag] of Object.entries(flags)) {
    const given = values[name];
    if (!flag.choices || given === undefined) continue;
    for (const value of [given].flat() as string[]) {
      if (flag.choices.includes(value)) continue;
      const near = suggestion(value, flag.choices);
      throw new UsageError(`--${name}: expected ${flag.choices.join('|')}, got ${JSON.stringify(value)}${near}`);
    }
  }
}

/** Refuses two flags declared in conflict, with the declared reason: `--stack and --state-machine name the same thing`. */
export function checkConflicts(flags: FlagTable, values: Record<string, unknown>): void {
  const given = (name: string) => values[name] !== undefined && values[name] !== false;
  for (const [name, flag] of Object.entries(flags)) {
    if (!given(name)) continue;
    for (const [other, reason] of Object.entries(flag.conflicts ?? {}))
      if (given(other)) throw new UsageError(`--${name} and --${other} ${reason}`);
  }
}

/** Each flag with a `parse`: its text parsed (a repeatable one, each text), or its default parsed when absent. */
export function parseValues(flags: FlagTable, values: Record<string, unknown>): Record<string, unknown> {
  const parsed: Record<string, unknown> = { ...values };
  for (const [name, flag] of Object.entries(flags)) {
    const { parse } = flag;
    if (!parse) continue;
    const text = values[name] ?? (flag.default === undefined ? undefined : String(flag.default));
    if (text === undefined) continue;
    parsed[name] = Array.isArray(text)
      ? text.map((t: string) => parse(t, `--${name}`))
      : parse(text as string, `--${name}`);
  }
  return parsed;
}
