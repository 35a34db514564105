import { COLUMN_TYPES, type ColumnType, type WriteMode } from '../contract/import-request.js';
import { DEFAULT_CHUNK_MIB } from '../contract/limits.js';
import { isObject, show } from './field-values.js';

/**
 * The request's fields other than `format`, each read and checked on its own: a problem goes to `problems` and the
 * field reads as its default, so resolve-request.ts can name every problem of a request at once.
 */

/** warmThroughput becomes UpdateTable's WarmThroughput.WriteUnitsPerSecond, a whole number (a Long). */
const WHOLE_WRITE_UNITS = 'a whole number of write units/s above 0';

/**
 * The numbers and switches: chunk size, write rate, spread, pre-warm, mode, dry run, deletes without backup, sync's
 * consistent reads.
 */
export function resolveSettings(input: Record<string, unknown>, modeNames: readonly string[], problems: string[]) {
  const chunkMiB = optionalNumber(input, 'chunkMiB', DEFAULT_CHUNK_MIB, (n) => n > 0, 'a number above 0', problems);
  const maxWriteRate = optionalNumber(input, 'maxWriteRate', 0, (n) => n >= 0, 'a number >= 0', problems);
  const spread = optionalBoolean(input, 'spread', problems);
  const warm = optionalNumber(input, 'warmThroughput', 0, isWholeAboveZero, WHOLE_WRITE_UNITS, problems);
  const mode = input.mode ?? 'put';
  if (typeof mode !== 'string' || !modeNames.includes(mode)) {
    problems.push(`mode: must be one of ${modeNames.join(', ')}, got ${show(mode)}`);
  }
  const dryRun = optionalBoolean(input, 'dryRun', problems);
  const allowWithoutBackup = optionalBoolean(input, 'allowWithoutBackup', problems);
  const consistentRead = optionalBoolean(input, 'consistentRead', problems);
  // -1 stands for absent: the default rule (a chunk's first 1,000 rows all rejected) is not a count.
  const wholeOrZero = (n: number) => Number.isSafeInteger(n) && n >= 0;
  const maxRejects = optionalNumber(input, 'maxRejects', -1, wholeOrZero, 'a whole number, 0 or more', problems);
  return {
    numbers: { chunkMiB, maxWriteRate, spread, ...(warm > 0 ? { warmThroughput: warm } : {}) },
    switches: {
      mode: mode as WriteMode,
      dryRun,
      ...(allowWithoutBackup ? { allowWithoutBackup: true as const } : {}),
      ...(consistentRead ? { consistentRead: true as const } : {}),
      ...(maxRejects >= 0 ? { maxRejects } : {}),
    },
  };
}

/**
 * `attributes`: attribute name to template. Each template's placeholders are checked against the columns
 * once they are known (preflight); here only the shape.
 */
export function resolveAttributes(value: unknown, problems: string[]): Record<string, string> {
  if (value === undefined) return {};
  if (!isObject(value)) {
    problems.push(`attributes: must be an object of attribute name to template, got ${show(value)}`);
    return {};
  }
  const attributes: Record<string, string> = {};
  for (const [name, template] of Object.entries(value)) {
    if (name.trim() === '') problems.push('attributes: an attribute name must not be empty');
    else if (typeof template !== 'string') {
      problems.push(`attributes.${name}: must be a template string such as "USER#{user_id}", got ${show(template)}`);
    } else attributes[name] = template;
  }
  return attributes;
}

/** `exclude`: names of columns not stored. */
export function resolveExclude(value: unknown, problems: string[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string' || name === '')) {
    problems.push(`exclude: must be an array of column names, got ${show(value)}`);
    return [];
  }
  return [...new Set(value as string[])];
}

function optionalBoolean(input: Record<string, unknown>, field: string, problems: string[]): boolean {
  const value = input[field] ?? false;
  if (typeof value === 'boolean') return value;
  problems.push(`${field}: must be true or false, got ${show(value)}`);
  return false;
}

/** Exactly one of `key` (one object) and `prefix` (every object under it), each a non-empty string. */
export function resolveSource(
  input: Record<string, unknown>,
  foundKey: string | undefined,
  problems: string[],
): { key?: string; prefix?: string } {
  const has = (field: string) => input[field] !== undefined;
  if (has('key') && has('prefix')) {
    problems.push('key, prefix: give one of them, not both (key: one object; prefix: every object under it)');
    return {};
  }
  if (!has('prefix') && !has('key')) {
    problems.push('key: required, a non-empty string (or prefix, for every object under a key prefix)');
    return {};
  }
  if (!has('prefix')) {
    const key = requireString(input, 'key', problems);
    return { key: foundKey ?? key };
  }
  const prefix = input.prefix;
  if (typeof prefix === 'string' && prefix.length > 0) return { prefix };
  problems.push(`prefix: must be a non-empty key prefix such as "imports/parts/", got ${show(prefix)}`);
  return {};
}

export function resolveTypes(value: unknown, problems: string[]): Record<string, ColumnType> {
  if (value === undefined) return {};
  if (!isObject(value)) {
    problems.push(`types: must be an object of column name to type, got ${show(value)}`);
    return {};
  }
  const types: Record<string, ColumnType> = {};
  for (const [column, type] of Object.entries(value)) {
    if (COLUMN_TYPES.includes(type as ColumnType)) types[column] = type as ColumnType;
    else problems.push(`types.${column}: unknown type ${show(type)} (known: ${COLUMN_TYPES.join(', ')})`);
  }
  return types;
}

export function requireString(input: Record<string, unknown>, field: string, problems: string[]): string {
  const value = input[field];
  if (typeof value === 'string' && value.length > 0) return value;
  problems.push(`${field}: required, a non-empty string${value === undefined ? '' : `, got ${show(value)}`}`);
  return '';
}

function optionalNumber(
  input: Record<string, unknown>,
  field: string,
  fallback: number,
  valid: (n: number) => boolean,
  expected: string,
  problems: string[],
): number {
  const value = input[field];
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && valid(value)) return value;
  problems.push(`${field}: must be ${expected}, got ${show(value)}`);
  return fallback;
}

function isWholeAboveZero(n: number): boolean {
  return Number.isInteger(n) && n > 0;
}
