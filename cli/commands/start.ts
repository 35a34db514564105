import type { CommandLine, FlagTable } from '../command-line/command-spec.js';
import { defineCommand } from '../command-line/parse-command-line.js';
import { UsageError } from '../command-line/usage-error.js';
import { createCloudClients, type CloudClients } from '../cloud/aws/clients.js';
import { followExecution } from '../cloud/follow/follow.js';
import { executionName, stamp } from '../cloud/start/start-request.js';
import { startExecution } from '../cloud/start/start-execution.js';
import { locateStart, uploadLocalSource } from '../cloud/start/start-location.js';
import { buildRequest, readRequestFile } from '../flags/request-file.js';
import {
  JSON_FLAG,
  REQUEST_FILE_FLAG,
  REQUEST_FLAGS,
  requestFlagsOf,
  type RequestFlags,
} from '../flags/request-flags.js';
import { parseNumber } from '../flags/values.js';
import { checkDeploymentScope } from '../../lambdas/request/deployment-scope.js';
import { noticeBeforeStart } from '../output/backup-notice.js';
import { resolveSource } from '../cloud/source/source.js';
import { DEFAULT_PART_BYTES, MIN_PART_BYTES } from '../cloud/source/upload.js';
import type { Output } from '../output/summary.js';
import { reportingFailures } from './cloud-failure.js';
import {
  FOLLOW_FLAGS,
  TARGET_FLAGS,
  parseTargetFlags,
  resolveTarget,
  withLiveSettings,
  type TargetFlags,
} from './cloud-flags.js';

/** `start` imports into an existing table of the account: it makes none. */
const MISSING_TABLE_HINT =
  'create the table in this account and region first (or check AWS_REGION): an import writes into an existing table';

/** Where local files go in the stack's bucket; must not be under a watched prefix (checked). */
export const DEFAULT_UPLOAD_PREFIX = 's3-ddb-import/uploads/';

export interface StartCommand {
  readonly source: string;
  readonly request: RequestFlags;
  readonly requestFile?: string;
  readonly target: TargetFlags;
  readonly uploadPrefix: string;
  readonly partBytes: number;
  readonly name?: string;
  readonly follow: boolean;
  readonly pollSeconds: number;
  readonly json: boolean;
}

const START_FLAGS = {
  ...REQUEST_FLAGS,
  request: REQUEST_FILE_FLAG,
  ...TARGET_FLAGS,
  'upload-prefix': {
    type: 'string',
    value: 'P',
    description: "where a local source goes in the stack's bucket (ends with /), under a folder of the UTC time",
    default: DEFAULT_UPLOAD_PREFIX,
  },
  'part-mib': {
    type: 'string',
    value: 'N',
    description: `multipart upload part size in MiB (at least ${MIN_PART_BYTES / 2 ** 20})`,
    default: DEFAULT_PART_BYTES / 2 ** 20,
  },
  name: {
    type: 'string',
    value: 'NAME',
    description: "the execution's name (default <table>-<file>-<UTC second>-<hash>)",
  },
  ...FOLLOW_FLAGS,
  json: JSON_FLAG,
} as const satisfies FlagTable;

/** `s3-ddb-import start <source>`: an import in AWS, started (and with --follow, followed) from this terminal. */
export const START = defineCommand({
  name: 'start',
  summary: "start an import on the deployed stack (a local source is uploaded to the stack's bucket first)",
  positionals: [
    {
      name: 'source',
      description:
        "s3://bucket/key, s3://bucket/folder/ (every object under it), or a local file or folder, uploaded first to the stack's bucket",
    },
  ],
  flags: START_FLAGS,
  details: [
    "Prints the execution's ARN (and how to follow it) and exits 0; with --follow, its progress to the end, its " +
      'summary, and exit 0 (every row landed), 2 (rejects, copied to ./s3-ddb-import-rejects/) or 1 (failed).',
  ],
  input: startInput,
  run: (command, output) =>
    reportingFailures('start', command.json, output, () =>
      runStartCommand(command, withLiveSettings(createCloudClients(), command.target), output),
    ),
});

/** The arguments after `start`, as the CLI parses them; throws UsageError naming the bad flag. */
export const parseStartCommand = (args: readonly string[]): StartCommand => START.parse(args);

function startInput({ values, positionals }: CommandLine<typeof START_FLAGS>): StartCommand {
  const uploadPrefix = values['upload-prefix'] ?? DEFAULT_UPLOAD_PREFIX;
  if (uploadPrefix !== '' && !uploadPrefix.endsWith('/'))
    throw new UsageError(`--upload-prefix: must end with "/", got ${JSON.stringify(uploadPrefix)}`);
  const partMiB = parseNumber(
    values['part-mib'],
    '--part-mib',
    DEFAULT_PART_BYTES / 2 ** 20,
    (n) => n * 2 ** 20 >= MIN_PART_BYTES,
  );
  return {
    source: positionals[0],
    request: requestFlagsOf(values),
    ...(values.request ? { requestFile: values.request } : {}),
    target: parseTargetFlags(values),
    uploadPrefix,
    partBytes: Math.round(partMiB * 2 ** 20),
    ...(values.name ? { name: values.name } : {}),
    follow: values.follow === true,
    pollSeconds: values['poll-s'],
    json: values.json === true,
  };
}

/**
 * `s3-ddb-import start`: finds the stack, builds and checks the request, uploads a local source, starts the
 * execution and, with --follow, shows its progress to the end.
 */
export async function runStartCommand(
  command: StartCommand,
  clients: CloudClients,
  output: Output,
  now = () => new Date(),
): Promise<number> {
  const target = await resolveTarget(clients, command.target);
  const source = await resolveSource(command.source);
  const at = now();
  const location = locateStart(source, target, `${command.uploadPrefix}${stamp(at)}/`);
  const file = command.requestFile ? await readRequestFile(command.requestFile) : {};
  const { input: request, resolved } = buildRequest(command.request, file, location.location);
  // The stack's roles read its bucket and its other sources only: refuse another here, as preflight would.
  const sourceBuckets = (target.sourceBuckets ?? []).map((bucket) => ({ bucket }));
  checkDeploymentScope(resolved, { bucketName: target.bucketName, sourceBuckets });
  // Before uploading or starting: an unprotected delete is refused here as preflight would refuse it.
  await noticeBeforeStart(clients.dynamodb, resolved, output, MISSING_TABLE_HINT);
  const name = command.name ?? executionName(request, at);
  if (source.kind === 'local') await uploadLocalSource(clients.s3, source, location, { ...command, target }, output);
  const executionArn = await startExecution(clients.sfn, target.stateMachineArn, name, request);
  output.err(`started ${executionArn}`);
  if (command.follow)
    return followExecution(clients, executionArn, output, {
      json: command.json,
      pollSeconds: command.pollSeconds,
    });
  const where = request.key !== undefined ? { key: request.key } : { prefix: request.prefix };
  if (command.json)
    output.out(
      JSON.stringify({ status: 'RUNNING', executionArn, executionName: name, bucket: request.bucket, ...where }),
    );
  else {
    output.out(`RUNNING: ${executionArn}`);
    output.out(`follow it with: s3-ddb-import status ${name} --follow`);
  }
  return 0;
}
