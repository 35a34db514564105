import { runCli } from '../cli/commands/run-cli.js';
import { colorAllowed } from '../cli/progress/renderer.js';

/** CLI entry: results on stdout, progress and errors on stderr; the commands are cli/commands/command-table.ts. */
const interactive = Boolean(process.stderr.isTTY);
process.exitCode = await runCli(process.argv.slice(2), {
  out: (line: string) => process.stdout.write(`${line}\n`),
  err: (line: string) => process.stderr.write(`${line}\n`),
  interactive,
  color: colorAllowed(interactive),
  columns: process.stderr.columns,
});
