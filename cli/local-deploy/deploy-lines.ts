import { exportLines, type KeptEngine } from '../services/kept-engine.js';
import type { LocalDeployment } from './deploy-stack.js';

/** The app's stack id, which the cloud commands look up when no --stack is given (cli/cloud/aws/stack-outputs.ts). */
const DEFAULT_STACK = 'S3DdbImport';

/**
 * What `local deploy` prints on stdout: `export` lines that point the AWS CLI, boto3, the SDKs and this CLI's cloud
 * commands at the engine (AWS_ENDPOINT_URL reaches CloudFormation and Step Functions too), then, as shell comments,
 * the stack's outputs and commands to paste. `eval "$(s3-ddb-import local deploy)"` takes it whole.
 *
 * @example
 * deployLines(kept, deployment); // ['export AWS_ENDPOINT_URL=http://127.0.0.1:40123', ..., '#   s3-ddb-import start ...']
 */
export function deployLines(engine: KeptEngine, deployment: LocalDeployment): string[] {
  const { stack, outputs } = deployment;
  const named = stack === DEFAULT_STACK ? '' : ` --stack ${stack}`;
  const bucket = outputs.BucketName ?? '<bucket>';
  const watched = parseList(outputs.WatchedPrefixes);
  return [
    `export AWS_ENDPOINT_URL=${engine.endpoint}`,
    ...exportLines(engine),
    `# ${stack} is deployed in the local engine at ${engine.endpoint}; its outputs:`,
    ...Object.entries(outputs).map(([key, value]) => `#   ${key}=${value}`),
    '# with the lines above exported, try:',
    `#   s3-ddb-import start <file> --table <table>${named} --follow`,
    ...watched.map((prefix) => `#   aws s3 cp <file> 's3://${bucket}/${prefix}'`),
    `#   s3-ddb-import status <execution>${named} --follow`,
    `#   s3-ddb-import pause <execution>${named}   (then resume, or rate <execution> <items/s>)`,
  ];
}

/** The `--json` object: the deployment, the engine and the variables the export lines set. */
export function deployJson(engine: KeptEngine, deployment: LocalDeployment): Record<string, unknown> {
  const env = Object.fromEntries(
    deployLines(engine, deployment)
      .filter((line) => line.startsWith('export '))
      .map((line) => line.slice('export '.length))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const { stack, outputs, edits } = deployment;
  return { status: 'DEPLOYED', stack, endpoint: engine.endpoint, outputs, edits, env };
}

/** A JSON array output (WatchedPrefixes) as a list; anything else as none. */
function parseList(text: string | undefined): string[] {
  try {
    const value: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
