import { UsageError } from '../command-line/usage-error.js';

/** The request fields `--attr` and `--exclude` give, each present only when its flag is. */
export interface AttributeFlags {
  /** `--attr NAME=TEMPLATE`, repeatable: the request's `attributes`. */
  readonly attributes?: Record<string, string>;
  /** `--exclude a,b`: the request's `exclude`. */
  readonly exclude?: string[];
}

/**
 * `--attr PK=USER#{user_id} --attr entity=Order` and `--exclude user_id,date`. The first `=` splits name from
 * template (a template may hold `=`); a name given twice is refused rather than one silently winning. The
 * templates themselves are checked by the request's validator, as a request file's are.
 */
export function parseAttributeFlags(attr: string[] | undefined, exclude: string | undefined): AttributeFlags {
  const attributes: Record<string, string> = {};
  for (const pair of attr ?? []) {
    const split = pair.indexOf('=');
    const name = split === -1 ? '' : pair.slice(0, split);
    if (name === '') throw new UsageError(`--attr: expected NAME=TEMPLATE, got ${JSON.stringify(pair)}`);
    if (Object.hasOwn(attributes, name)) throw new UsageError(`--attr: ${JSON.stringify(name)} is given twice`);
    attributes[name] = pair.slice(split + 1);
  }
  const names = exclude?.split(',');
  if (names?.some((n) => n === '')) throw new UsageError(`--exclude: expected a,b,c, got ${JSON.stringify(exclude)}`);
  return {
    ...(attr !== undefined ? { attributes } : {}),
    ...(names !== undefined ? { exclude: names } : {}),
  };
}
