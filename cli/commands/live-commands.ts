import { defineCommand, type Command } from '../command-line/parse-command-line.js';
import { createCloudClients, type CloudClients } from '../cloud/aws/clients.js';
import { reportingFailures } from './cloud-failure.js';
import { LIVE_FLAGS, liveInput, type LiveAction, type LiveCommand } from './live-args.js';
import { ledgersFor } from './live-ledgers.js';
import { runLiveCommand } from './live.js';

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
