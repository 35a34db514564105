import { USAGE, UsageError, parseLocalCommand } from '../local/cli-args.js';
import { loadHandlerFactories } from '../local/handler-bundles.js';
import { EXIT_FAILED, runLocalCommand } from '../local/local-command.js';
import { runLocalWatchCli } from '../local/watch/watch-command.js';

/** CLI entry: `s3-ddb-import local <file> ...` (see USAGE). */
async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const output = {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
    interactive: Boolean(process.stderr.isTTY),
  };
  if (command !== 'local') {
    output.err(command === undefined || command === '--help' ? USAGE : `unknown command ${JSON.stringify(command)}\n${USAGE}`);
    return command === '--help' ? 0 : EXIT_FAILED;
  }
  if (args[0] === 'watch') return runLocalWatchCli(args.slice(1), output); // `local watch`; a file named watch: ./watch
  try {
    const local = parseLocalCommand(args);
    // Load the handler bundles while the servers start and the file uploads, mostly waits; the runner
    // then finds them loaded. A failure to load shows when the runner loads them again.
    loadHandlerFactories().catch(() => undefined);
    return await runLocalCommand(local, output);
  } catch (error) {
    if (!(error instanceof UsageError) && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') !== true) throw error;
    output.err(`${(error as Error).message}\n${USAGE}`);
    return EXIT_FAILED;
  }
}

process.exitCode = await main(process.argv.slice(2));
