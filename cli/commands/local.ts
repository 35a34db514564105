import { defineCommand } from '../command-line/parse-command-line.js';
import { UsageError } from '../command-line/usage-error.js';
import { LOCAL_FLAGS, createTableKeys } from '../flags/local-flags.js';
import { JSON_FLAG, REQUEST_FILE_FLAG, REQUEST_FLAGS, requestFlagsOf } from '../flags/request-flags.js';
import { loadHandlerFactories } from '../local-run/handler-bundles.js';
import { runLocalCommand, type LocalCommand } from '../local-run/local-command.js';

const { table, ...shaping } = REQUEST_FLAGS;

/** `s3-ddb-import local <file>`: one import on this machine, from start to summary. */
export const LOCAL = defineCommand({
  name: 'local',
  summary: 'import a file, folder or DynamoDB export into a table of the local engine, and print the summary',
  positionals: [
    {
      name: 'file',
      description:
        'a CSV/TSV, JSON Lines, DynamoDB JSON or Parquet file (plain, .gz or .zst), a folder, or a DynamoDB export',
    },
  ],
  flags: {
    table,
    pk: LOCAL_FLAGS.pk,
    sk: LOCAL_FLAGS.sk,
    'create-table': LOCAL_FLAGS['create-table'],
    ...shaping,
    request: {
      ...REQUEST_FILE_FLAG,
      description:
        "run this StartExecution payload as written (bucket and key become the upload's); the flags that shape the request are refused with it",
    },
    concurrency: LOCAL_FLAGS.concurrency,
    'timeout-s': LOCAL_FLAGS['timeout-s'],
    json: JSON_FLAG,
  },
  details: [
    'Starts the local engine on a free 127.0.0.1 port, uploads <file> to s3://s3-ddb-import-local/imports/, runs ' +
      'statemachine/import.asl.json with the real handlers, prints progress (stderr) and the summary, and stops the ' +
      'servers. Exit 0 every row landed, 2 some rows were rejected (copied to ./s3-ddb-import-rejects/), 1 failed.',
  ],
  input: ({ values, positionals }): LocalCommand => {
    if (values.request !== undefined) {
      const given = Object.keys(REQUEST_FLAGS).find((flag) => {
        const value = (values as Record<string, unknown>)[flag];
        return value !== undefined && value !== false;
      });
      if (given)
        throw new UsageError(`--${given} cannot be combined with --request: the payload is the request, edit it there`);
    }
    const request = requestFlagsOf(values);
    if (values.request === undefined && !request.table) throw new UsageError('--table is required');
    return {
      file: positionals[0],
      ...(values.request !== undefined ? { requestFile: values.request } : {}),
      request,
      createTable: createTableKeys(values),
      concurrency: values.concurrency,
      timeoutSeconds: values['timeout-s'],
      json: values.json === true,
    };
  },
  run: (command, output) => {
    // Load the handler bundles while the servers start and the file uploads, mostly waits; the runner then
    // finds them loaded. A failure to load shows when the runner loads them again.
    loadHandlerFactories().catch(() => undefined);
    return runLocalCommand(command, output);
  },
});

/** The arguments after `local`, as the CLI parses them. Throws UsageError naming the bad flag. */
export const parseLocalCommand = (args: readonly string[]): LocalCommand => LOCAL.parse(args);
