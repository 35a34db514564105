import { defineCommand } from '../command-line/parse-command-line.js';
import { UsageError } from '../command-line/usage-error.js';
import { LOCAL_FLAGS, createTableKeys } from '../flags/local-flags.js';
import { JSON_FLAG, REQUEST_FLAGS, requestFlagsOf } from '../flags/request-flags.js';
import { LOCAL_BUCKET } from '../local-run/local-stack.js';
import { runLocalWatchCommand, type WatchCommand } from '../watch/watch-command.js';

/** Flags that describe the watch itself (the request fields it fixes): they need --prefix. */
const WATCH_FIELD_FLAGS = {
  delimiter: REQUEST_FLAGS.delimiter,
  'no-header': REQUEST_FLAGS['no-header'],
  columns: REQUEST_FLAGS.columns,
  types: REQUEST_FLAGS.types,
  'chunk-mib': REQUEST_FLAGS['chunk-mib'],
  'max-write-rate': REQUEST_FLAGS['max-write-rate'],
};

/** `s3-ddb-import local watch`: the deployed watch rule, applied to uploads into the local engine. */
export const LOCAL_WATCH = defineCommand({
  name: 'local watch',
  summary: 'import every object uploaded under a watched prefix of the local bucket, until Ctrl-C',
  positionals: [],
  ownPositionalCheck: true,
  flags: {
    prefix: { type: 'string', value: 'P', description: 'the watched prefix (with --table): one watch from the flags' },
    table: { type: 'string', value: 'T', description: "the watch's table (with --prefix)" },
    ...WATCH_FIELD_FLAGS,
    'cdk-json': {
      type: 'string',
      value: 'FILE',
      description: 'without --prefix: the file whose context.watches are the watches',
      default: 'cdk.json',
    },
    'create-table': { ...LOCAL_FLAGS['create-table'], description: 'create each watched table that does not exist' },
    pk: LOCAL_FLAGS.pk,
    sk: LOCAL_FLAGS.sk,
    bucket: { type: 'string', value: 'B', description: 'the local bucket watched', default: LOCAL_BUCKET },
    concurrency: LOCAL_FLAGS.concurrency,
    'timeout-s': LOCAL_FLAGS['timeout-s'],
    json: { ...JSON_FLAG, description: 'one JSON object per finished import on stdout' },
  },
  details: [
    'The watch is the one the flags describe, else the "watches" of cdk.json\'s context (or --cdk-json FILE). ' +
      'Each upload becomes the request the deployed rule would send. Exit 0 on Ctrl-C, 1 when imports were still running.',
  ],
  input: ({ values, positionals }): WatchCommand => {
    if (positionals.length > 0)
      throw new UsageError(
        `local watch takes no file, got ${JSON.stringify(positionals[0])}: upload files into the watched prefix`,
      );
    checkWatchSource(values);
    const createTable = createTableKeys(values);
    return {
      ...(values.prefix !== undefined
        ? { watch: { prefix: values.prefix, ...requestFlagsOf(values), table: values.table ?? '' } }
        : {}),
      cdkJson: values['cdk-json'] ?? 'cdk.json',
      bucket: values.bucket ?? LOCAL_BUCKET,
      ...(createTable ? { createTable } : {}),
      concurrency: values.concurrency,
      timeoutSeconds: values['timeout-s'],
      json: values.json === true,
    };
  },
  run: runLocalWatchCommand,
});

/** The arguments after `local watch`, as the CLI parses them. Throws UsageError naming the bad flag. */
export const parseWatchCommand = (args: readonly string[]): WatchCommand => LOCAL_WATCH.parse(args);

/** One watch from the flags (--prefix with --table), or the watches of a cdk.json: never both, never half. */
function checkWatchSource(values: { prefix?: string; table?: string; 'cdk-json'?: string } & Record<string, unknown>) {
  if ((values.prefix === undefined) !== (values.table === undefined))
    throw new UsageError('--prefix and --table go together');
  if (values.prefix === undefined) {
    const stray = Object.keys(WATCH_FIELD_FLAGS).find((flag) => values[flag] !== undefined);
    if (stray) throw new UsageError(`--${stray} describes a watch: give --prefix and --table too`);
  } else if (values['cdk-json'] !== undefined) {
    throw new UsageError('--cdk-json reads the watches from a file: leave out --prefix and --table');
  }
}
