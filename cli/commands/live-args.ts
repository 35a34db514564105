import { parseArgs } from 'node:util';
import { UsageError } from '../flags/cli-args.js';

/** Where the running import is: `local` or `local watch` on this machine, or a deployed stack. */
const WHERE = `[--local | --stack NAME | --ledger-table T] [--json]`;
const TAIL = `  <execution> is the execution's name or ARN. --local: an import of a running \`local\` or \`local watch\` (or of
  the DynamoDB at AWS_ENDPOINT_URL_DYNAMODB); else the stack's (--stack, default S3DdbImport; --ledger-table T
  skips CloudFormation). Exit 0, or 1 when no running import of that name holds lanes.`;

export const RATE_USAGE = `usage: s3-ddb-import rate <execution> <items/s> ${WHERE}
  Sets a running import's maxWriteRate (items/s for the whole import, 0 = uncapped); every lane follows it
  within about 5 s.
${TAIL}`;

export const PAUSE_USAGE = `usage: s3-ddb-import pause <execution> ${WHERE}
  Pauses a running import: each lane reads the pause within about 5 s, writes the rows it has read, stops at
  that record boundary and holds its checkpoint, writing nothing until \`resume\`. A pause of more than
  about 16 hours can fail a chunk.
${TAIL}`;

export const RESUME_USAGE = `usage: s3-ddb-import resume <execution> ${WHERE}
  Resumes a paused import: its lanes go on from their checkpoints at their next ask (10 s after a short
  pause, up to 5 minutes after a long one).
${TAIL}`;

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

/** Parses the arguments after `rate`, `pause` or `resume`; throws UsageError naming the bad flag or argument. */
export function parseLiveCommand(kind: LiveAction['kind'], args: string[]): LiveCommand {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      local: { type: 'boolean', default: false },
      stack: { type: 'string' },
      'ledger-table': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
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
  if (values.local && (stack || ledgerTable))
    throw new UsageError(`--local and ${stack ? '--stack' : '--ledger-table'} name different places: give one`);
  if (stack && ledgerTable) throw new UsageError('--ledger-table skips the stack: give --stack or --ledger-table');
  return values.local ? { local: true } : { local: false, stack, ledgerTable };
}
