import { join } from 'node:path';
import { packageRoot } from '../../lib/package-root.js';
import { defineCommand } from '../command-line/parse-command-line.js';
import { JSON_FLAG } from '../flags/request-flags.js';
import { EXIT_OK, type Output } from '../output/summary.js';
import { printFailure } from '../output/failure.js';
import { keepEngine, startKeeper, stopKeeper } from '../services/engine-keeper.js';
import { exportLines, readKeptEngine, type KeptEngine } from '../services/kept-engine.js';

/** The CLI's entry script, which the detached keeper runs (`local up --foreground`). */
export const CLI_ENTRY = () => join(packageRoot(), 'bin', 's3-ddb-import.mjs');

/** Prints the kept engine: the export lines on stdout (or one JSON object), where it is on stderr. */
function printKept(engine: KeptEngine, json: boolean, output: Output): void {
  if (json) output.out(JSON.stringify({ status: 'RUNNING', ...engine }));
  else for (const line of exportLines(engine)) output.out(line);
}

/** `s3-ddb-import local up`: an engine that stays up across commands, until `local down`. */
export const LOCAL_UP = defineCommand({
  name: 'local up',
  summary: 'keep a local engine running across commands (until `local down`), and print the lines that point at it',
  positionals: [],
  flags: {
    foreground: {
      type: 'boolean',
      description: 'keep it in this terminal, until Ctrl-C, instead of in the background',
    },
    json: { ...JSON_FLAG, description: 'print the engine (pid, endpoint, region, credentials) as one JSON object' },
  },
  details: [
    'Starts the engine on a free 127.0.0.1 port and names it in a state file of the cache dir (engine.json), so ' +
      '`local`, `local watch` and `rate`/`pause`/`resume --local` use it, and what they import stays. Prints ' +
      '`export AWS_ENDPOINT_URL_DYNAMODB=...` lines for the AWS CLI and SDKs (`eval "$(s3-ddb-import local up)"`). ' +
      'An engine already up is printed again. Exit 0, or 1 when it cannot start.',
  ],
  input: ({ values }) => ({ foreground: values.foreground === true, json: values.json === true }),
  run: async ({ foreground, json }, output) => {
    try {
      const running = await readKeptEngine();
      if (running) {
        output.err(`the engine is already up (pid ${running.pid}) at ${running.endpoint}`);
        printKept(running, json, output);
        return EXIT_OK;
      }
      if (foreground) {
        await keepEngine(output.err, (engine) => {
          printKept(engine, json, output);
          output.err(`engine up at ${engine.endpoint}, pid ${engine.pid}; Ctrl-C stops it`);
        });
        return EXIT_OK;
      }
      const engine = await startKeeper(CLI_ENTRY());
      output.err(`engine up at ${engine.endpoint}, pid ${engine.pid}; \`s3-ddb-import local down\` stops it`);
      printKept(engine, json, output);
      return EXIT_OK;
    } catch (error) {
      return printFailure(error as Error, { what: 'local up', json }, output);
    }
  },
});

/** `s3-ddb-import local down`: stops the engine `local up` keeps; what it held is gone with it. */
export const LOCAL_DOWN = defineCommand({
  name: 'local down',
  summary: 'stop the engine `local up` keeps (its tables and objects go with it)',
  positionals: [],
  flags: { json: { ...JSON_FLAG, description: 'print { "status": "STOPPED" | "NOT_RUNNING" } as one JSON object' } },
  details: ['Exit 0, whether an engine was up or not.'],
  input: ({ values }) => ({ json: values.json === true }),
  run: async ({ json }, output) => {
    const running = await readKeptEngine();
    if (running) await stopKeeper(running);
    const status = running ? 'STOPPED' : 'NOT_RUNNING';
    output.err(running ? `stopped the engine at ${running.endpoint} (pid ${running.pid})` : 'no engine is up');
    if (json) output.out(JSON.stringify({ status }));
    return EXIT_OK;
  },
});
