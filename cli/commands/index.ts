import { InvalidRequestError } from '../../lambdas/contract/errors.js';
import { USAGE as LOCAL_USAGE, UsageError } from '../flags/cli-args.js';
import { CloudCommandError, createCloudClients, explainAwsError, type CloudClients } from '../cloud/clients.js';
import { RequestFileError } from '../flags/request-file.js';
import { EXIT_FAILED, type Output } from '../output/summary.js';
import type { LookClients } from '../cloud/execution-snapshot.js';
import { stackLiveSettings } from '../cloud/live-settings.js';
import { DEFAULT_STACK_NAME } from '../cloud/stack-outputs.js';
import type { TargetFlags } from './cloud-flags.js';
import { ESTIMATE_USAGE, parseEstimateCommand, runEstimateCommand } from './estimate.js';
import { PAUSE_USAGE, RATE_USAGE, RESUME_USAGE, parseLiveCommand, type LiveAction } from './live-args.js';
import { ledgersFor } from './live-ledgers.js';
import { runLiveCommand } from './live.js';
import { START_USAGE, parseStartCommand, runStartCommand } from './start.js';
import { STATUS_USAGE, parseStatusCommand, runStatusCommand } from './status.js';

/** A subcommand of the CLI: its --help text and how it runs (its own flags parsed inside). */
export interface CliCommand {
  readonly usage: string;
  run(args: string[], output: Output): Promise<number>;
}

const withClients =
  <C>(parse: (args: string[]) => C, run: (command: C, clients: CloudClients, output: Output) => Promise<number>) =>
  (args: string[], output: Output) =>
    run(parse(args), createCloudClients(), output);

/**
 * As withClients, for the commands that follow an execution of the stack their flags name: their clients also
 * read its live settings from the stack's ledger (the status line `live: ...`, `live` in --json).
 */
const withLiveSettings =
  <C extends { target: TargetFlags }>(
    parse: (args: string[]) => C,
    run: (command: C, clients: LookClients, output: Output) => Promise<number>,
  ) =>
  (args: string[], output: Output) => {
    const command = parse(args);
    const clients = createCloudClients();
    // --state-machine skips CloudFormation, so no stack names a ledger: no live line then.
    const stack = command.target.stateMachine ? null : (command.target.stack ?? DEFAULT_STACK_NAME);
    return run(command, { ...clients, liveSettings: stackLiveSettings(clients, stack) }, output);
  };

/** `rate`, `pause`, `resume`: a running import's live settings, in the local processes' ledgers or the stack's. */
const liveCommand =
  (kind: LiveAction['kind']) =>
  async (args: string[], output: Output): Promise<number> => {
    const command = parseLiveCommand(kind, args);
    return runLiveCommand(command, await ledgersFor(command.target, createCloudClients), output);
  };

/** The commands against a deployed stack (`rate`, `pause` and `resume` also against local runs, with --local). */
export const CLOUD_COMMANDS: Record<string, CliCommand> = {
  start: { usage: START_USAGE, run: withLiveSettings(parseStartCommand, runStartCommand) },
  status: { usage: STATUS_USAGE, run: withLiveSettings(parseStatusCommand, runStatusCommand) },
  estimate: { usage: ESTIMATE_USAGE, run: withClients(parseEstimateCommand, runEstimateCommand) },
  rate: { usage: RATE_USAGE, run: liveCommand('rate') },
  pause: { usage: PAUSE_USAGE, run: liveCommand('pause') },
  resume: { usage: RESUME_USAGE, run: liveCommand('resume') },
};

/** Subcommands of `local` (`local <name> ...`), e.g. `local watch`; `local <file>` is the import itself. */
export const LOCAL_SUBCOMMANDS: Record<string, CliCommand> = {};

/** The top-level help: every command's usage. */
export function mainUsage(): string {
  const local = [LOCAL_USAGE, ...Object.values(LOCAL_SUBCOMMANDS).map((c) => c.usage)];
  return [...local, ...Object.values(CLOUD_COMMANDS).map((c) => c.usage)].join('\n\n');
}

/**
 * Runs a command: --help prints its usage on stdout (exit 0); a wrong flag prints the problem and the usage on
 * stderr (exit 1); any other failure prints `<name> failed: <error>: <message>` naming the fix where it can,
 * and with --json a FAILED object on stdout, as `local` does (exit 1).
 */
export async function runCommand(name: string, command: CliCommand, args: string[], output: Output): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    output.out(command.usage);
    return 0;
  }
  try {
    return await command.run(args, output);
  } catch (error) {
    const e = error as Error & { code?: string };
    if (e instanceof UsageError || e.code?.startsWith('ERR_PARSE_ARGS')) {
      output.err(`${e.message}\n${command.usage}`);
      return EXIT_FAILED;
    }
    const known = e instanceof CloudCommandError || e instanceof InvalidRequestError || e instanceof RequestFileError;
    const { name: errorName, message } = known ? e : explainAwsError(e);
    output.err(`${name} failed: ${errorName}: ${message}`);
    if (args.includes('--json')) output.out(JSON.stringify({ status: 'FAILED', error: errorName, message }));
    return EXIT_FAILED;
  }
}
