import type { CommandLine, FlagTable } from '../command-line/command-spec.js';
import { defineCommand, type Command } from '../command-line/parse-command-line.js';
import { UsageError } from '../command-line/usage-error.js';
import { createCloudClients, type CloudClients } from '../cloud/clients.js';
import { DEFAULT_STACK_NAME } from '../cloud/stack-outputs.js';
import { JSON_FLAG } from '../flags/request-flags.js';
import { reportingFailures } from './cloud-failure.js';
import { ledgersFor } from './live-ledgers.js';
import { runLiveCommand } from './live.js';

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
const LIVE_FLAGS = {
  local: {
    type: 'boolean',
    description: 'an import of a running `local` or `local watch` (or of the DynamoDB at AWS_ENDPOINT_URL_DYNAMODB)',
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
  },
  json: { ...JSON_FLAG, description: 'print the live settings as one JSON object' },
} as const satisfies FlagTable;

const EXECUTION = { name: 'execution', description: "the execution's name or ARN" };
const WHERE = 'Exit 0, or 1 when no running import of that name holds lanes.';

const LIVE_COMMANDS = {
  rate: {
    summary: "set a running import's maxWriteRate (items/s for the whole import, 0 = uncapped)",
    positionals: [EXECUTION, { name: 'items/s', description: 'a whole number, 0 or more (0 = uncapped)' }],
    details: ['Every lane follows the new rate within about 5 s.', WHERE],
  },
  pause: {
    summary: 'pause a running import: its lanes write what they have read, then hold their checkpoints',
    positionals: [EXECUTION],
    details: [
      'Each lane reads the pause within about 5 s, writes the rows it has read, stops at that record boundary and ' +
        'holds its checkpoint, writing nothing until `resume`. A pause of more than about 16 hours can fail a chunk.',
      WHERE,
    ],
  },
  resume: {
    summary: 'resume a paused import from its checkpoints',
    positionals: [EXECUTION],
    details: [
      'Its lanes go on from their checkpoints at their next ask (10 s after a short pause, up to 5 minutes after a long one).',
      WHERE,
    ],
  },
} as const;

/**
 * `rate`, `pause` or `resume`: a running import's live settings, in the local processes' ledgers or the stack's.
 * `clients` makes the AWS clients of the deployed ledger (tests give the stand-in's).
 */
export function liveCommand(
  kind: LiveAction['kind'],
  clients: () => CloudClients = createCloudClients,
): Command<LiveCommand> {
  return defineCommand({
    name: kind,
    ...LIVE_COMMANDS[kind],
    // pause and resume say `expected <execution>, got N arguments` as rate does
    ownPositionalCheck: true,
    flags: LIVE_FLAGS,
    input: (line) => liveInput(kind, line),
    run: (command, output) =>
      reportingFailures(kind, command.json, output, async () =>
        runLiveCommand(command, await ledgersFor(command.target, clients), output),
      ),
  });
}

/** Parses the arguments after `rate`, `pause` or `resume`; throws UsageError naming the bad flag or argument. */
export function parseLiveCommand(kind: LiveAction['kind'], args: readonly string[]): LiveCommand {
  return liveCommand(kind).parse(args);
}

function liveInput(kind: LiveAction['kind'], { values, positionals }: CommandLine<typeof LIVE_FLAGS>): LiveCommand {
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
