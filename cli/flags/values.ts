import { COLUMN_TYPES, type ColumnType } from '../../lambdas/contract/import-request.js';
import { UsageError } from '../command-line/usage-error.js';

/** A key attribute's type, as --pk and --sk give it. */
export type KeyType = 'S' | 'N' | 'B';

/** A key attribute, as --pk and --sk give it. */
export interface KeyFlag {
  readonly name: string;
  readonly type: KeyType;
}

/** A number flag, `fallback` when absent; UsageError naming the flag when `valid` refuses it. */
export function parseNumber(
  text: string | undefined,
  flag: string,
  fallback: number,
  valid: (n: number) => boolean,
): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || !valid(value)) throw new UsageError(`${flag}: invalid value ${JSON.stringify(text)}`);
  return value;
}

/** `name[:S|N|B]` of --pk and --sk. */
export function parseKey(text: string, flag: string): KeyFlag {
  const [name, type = 'S', ...rest] = text.split(':');
  if (!name || rest.length > 0 || !['S', 'N', 'B'].includes(type))
    throw new UsageError(`${flag}: expected name[:S|N|B], got ${JSON.stringify(text)}`);
  return { name, type: type as KeyType };
}

/** `col=N,col2=BOOL` of --types. */
export function parseTypes(text: string | undefined): Record<string, ColumnType> {
  const types: Record<string, ColumnType> = {};
  for (const pair of text ? text.split(',') : []) {
    const [column, type] = pair.split('=');
    if (!column || !COLUMN_TYPES.includes(type as ColumnType)) {
      throw new UsageError(`--types: expected col=${COLUMN_TYPES.join('|')}, got ${JSON.stringify(pair)}`);
    }
    types[column] = type as ColumnType;
  }
  return types;
}
