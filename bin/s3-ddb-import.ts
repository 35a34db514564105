import { USAGE, UsageError, parseLocalCommand } from '../cli/flags/cli-args.js';
import { CLOUD_COMMANDS, LOCAL_SUBCOMMANDS, mainUsage, runCommand } from '../cli/commands/index.js';
import { loadHandlerFactories } from '../cli/local-run/handler-bundles.js';
import { EXIT_FAILED, runLocalCommand } from '../cli/local-run/local-command.js';
import { colorAllowed } from '../cli/progress/renderer.js';
import { runLocalWatchCli } from '../cli/watch/watch-command.js';

/** CLI entry: `s3-ddb-import local <file> ...`, `start`, `status`, `estimate` (see mainUsage). */
async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const interactive = Boolean(process.stderr.isTTY);
  const output = {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
    interactive,
    color: colorAllowed(interactive),
    columns: process.stderr.columns,
  };
  const cloud = CLOUD_COMMANDS[command ?? ''];
  if (cloud) return runCommand(command, cloud, args, output);
  if (command !== 'local') {
    if (command === '--help' || command === '-h') output.out(mainUsage());
    else output.err(command === undefined ? mainUsage() : `unknown command ${JSON.stringify(command)}\n${mainUsage()}`);
    return command === '--help' || command === '-h' ? 0 : EXIT_FAILED;
  }
  const sub = LOCAL_SUBCOMMANDS[args[0] ?? ''];
  if (sub) return runCommand(`local ${args[0]}`, sub, args.slice(1), output);
  if (args[0] === 'watch') return runLocalWatchCli(args.slice(1), output); // `local watch`; a file named watch: ./watch
  if (args.includes('--help') || args.includes('-h')) {
    output.out(USAGE);
    return 0;
  }
  try {
    const local = parseLocalCommand(args);
    // Load the handler bundles while the servers start and the file uploads, mostly waits; the runner
    // then finds them loaded. A failure to load shows when the runner loads them again.
    loadHandlerFactories().catch(() => undefined);
    return await runLocalCommand(local, output);
  } catch (error) {
    if (!(error instanceof UsageError) && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') !== true)
      throw error;
    output.err(`${(error as Error).message}\n${USAGE}`);
    return EXIT_FAILED;
  }
}

process.exitCode = await main(process.argv.slice(2));
