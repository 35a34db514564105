import type { MirrorScope } from '../contract/import-request.js';
import { isObject, show } from './field-values.js';

/** A mirror stops before its first delete when more than this share of the items in scope would go. */
export const DEFAULT_MAX_DELETE_PERCENT = 10;

/** The one write mode a mirror runs with: it reads the table anyway, so only `sync` knows what it deletes. */
export const MIRROR_MODE = 'sync';

/** The mirror's fields of a resolved request: none, or `mirror`, `maxDeletePercent` and perhaps `scope`. */
export type MirrorFields =
  Record<string, never> | { readonly mirror: true; readonly maxDeletePercent: number; readonly scope?: MirrorScope };

/**
 * `mirror`, `scope` and `maxDeletePercent`: a mirror only with `mode: "sync"`; `scope` and `maxDeletePercent` only
 * with a mirror. Problems go to `problems`, naming the field.
 *
 * @example
 * resolveMirrorFields({ mode: 'sync', mirror: true }, []); // { mirror: true, maxDeletePercent: 10 }
 */
export function resolveMirrorFields(input: Record<string, unknown>, problems: string[]): MirrorFields {
  const mirror = input.mirror ?? false;
  if (typeof mirror !== 'boolean') {
    problems.push(`mirror: must be true or false, got ${show(mirror)}`);
    return {};
  }
  const scope = resolveScope(input.scope, problems);
  const percent = resolvePercent(input.maxDeletePercent, problems);
  if (!mirror) {
    for (const field of ['scope', 'maxDeletePercent'].filter((name) => input[name] !== undefined)) {
      problems.push(`${field}: only with "mirror": true (CLI: --mirror)`);
    }
    return {};
  }
  const mode = input.mode ?? 'put';
  if (mode !== MIRROR_MODE) {
    problems.push(`mirror: only with "mode": "${MIRROR_MODE}", got mode ${show(mode)}`);
  }
  return { mirror: true, maxDeletePercent: percent, ...(scope ? { scope } : {}) };
}

function resolveScope(value: unknown, problems: string[]): MirrorScope | undefined {
  if (value === undefined) return undefined;
  const prefix = isObject(value) ? value.partitionKeyPrefix : undefined;
  const extra = isObject(value) ? Object.keys(value).filter((name) => name !== 'partitionKeyPrefix') : [];
  if (typeof prefix !== 'string' || prefix === '' || extra.length > 0) {
    problems.push(`scope: must be { "partitionKeyPrefix": "<non-empty prefix>" }, got ${show(value)}`);
    return undefined;
  }
  return { partitionKeyPrefix: prefix };
}

function resolvePercent(value: unknown, problems: string[]): number {
  if (value === undefined) return DEFAULT_MAX_DELETE_PERCENT;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100) return value;
  problems.push(`maxDeletePercent: must be a number from 0 to 100, got ${show(value)}`);
  return DEFAULT_MAX_DELETE_PERCENT;
}
