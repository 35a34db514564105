import type { CommandLine, FlagTable } from '../command-line/command-spec.js';
import { UsageError } from '../command-line/usage-error.js';
import { DEFAULT_STACK_NAME } from '../cloud/aws/stack-outputs.js';
import { JSON_FLAG } from '../flags/request-flags.js';

/** What to change. */
export type LiveAction =
  { readonly kind: 'rate'; readonly itemsPerSecond: number } | { readonly kind: 'pause' } | { readonly kind: 'resume' };

/** Which ledger holds the import: the running local processes', or the deployed stack's. */
export type LedgerTarget =
  { readonly local: true } | { readonly local: false; readonly stack?: string; readonly ledgerTable?: string };

export interface LiveCommand {
  readonly action: LiveAction;
  /** The execution's name (an ARN given is cut to its name, the ledger's key). */
  readonly execution: string;
  readonly target: LedgerTarget;
  readonly json: boolean;
}

/** Where the running import is: `local` or `local watch` on this machine, or a deployed stack. */
export const LIVE_FLAGS = {
  local: {
    type: 'boolean',
    description: 'an import of a running `local` or `local watch` (or of the DynamoDB at AWS_ENDPOINT_URL_DYNAMODB)',
    conflicts: { stack: 'name different places: give one', 'ledger-table': 'name different places: give one' },
  },
  stack: {
    type: 'string',
    value: 'NAME',
    description: 'the deployed stack whose ledger holds it',
    default: DEFAULT_STACK_NAME,
  },
  'ledger-table': {
    type: 'string',
    value: 'T',
    description: 'the deployed ledger table itself (skips CloudFormation)',
    conflicts: { stack: 'cannot be combined: --ledger-table skips the stack, give one' },
  },
  json: { ...JSON_FLAG, description: 'print the live settings as one JSON object' },
} as const satisfies FlagTable;

/** The live command's input from its parsed line; throws UsageError naming the bad argument. */
export function liveInput(
  kind: LiveAction['kind'],
  { values, positionals }: CommandLine<typeof LIVE_FLAGS>,
): LiveCommand {
  const wanted = kind === 'rate' ? 2 : 1;
  if (positionals.length !== wanted) {
    const shape = kind === 'rate' ? '<execution> <items/s>' : '<execution>';
    throw new UsageError(`expected ${shape}, got ${positionals.length} arguments`);
  }
  const action: LiveAction = kind === 'rate' ? { kind, itemsPerSecond: parseItemsPerSecond(positionals[1]) } : { kind };
  return {
    action,
    execution: executionName(positionals[0]),
    target: parseLedgerTarget(values),
    json: values.json === true,
  };
}

/** A whole number of items/s, 0 or more: a rate is shared out among lanes as whole items. */
function parseItemsPerSecond(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value))
    throw new UsageError(`<items/s>: expected a whole number, 0 or more (0 = uncapped), got ${JSON.stringify(text)}`);
  return value;
}

/**
 * The ledger names imports by execution name: an ARN (arn:aws:states:<region>:<account>:execution:<machine>:<name>)
 * gives its last part.
 */
export function executionName(text: string): string {
  if (!text.startsWith('arn:')) {
    if (text === '') throw new UsageError('<execution>: empty');
    return text;
  }
  const parts = text.split(':');
  if (parts[5] !== 'execution' || parts.length !== 8 || parts[7] === '')
    throw new UsageError(
      `<execution>: expected an execution name or arn:aws:states:<region>:<account>:execution:<machine>:<name>, got ${JSON.stringify(text)}`,
    );
  return parts[7];
}

function parseLedgerTarget(values: { local?: boolean; stack?: string; 'ledger-table'?: string }): LedgerTarget {
  const stack = values.stack || undefined;
  const ledgerTable = values['ledger-table'] || undefined;
  return values.local ? { local: true } : { local: false, stack, ledgerTable };
}
