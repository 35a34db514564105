import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  deployAssembly,
  ROOT_CREDENTIALS,
  ENGINE_REGION,
  type EngineEdit,
  type EngineTarget,
} from '../../cli/local-deploy/index.js';

/** The stack bin/app.ts defines, and the name the CLI looks up by default. */
export const STACK = 'S3DdbImport';
/** This folder: its cdk.json runs bin/app.ts with the tier's context (tables, a watched prefix). */
export const APP_DIR = fileURLToPath(new URL('.', import.meta.url));

/** The tier's other source bucket: the one `sources` entry of this folder's cdk.json (it need not exist to deploy). */
export const PARTNER_BUCKET: string = JSON.parse(readFileSync(new URL('cdk.json', import.meta.url), 'utf8')).context
  .sources[0].bucketName;

/**
 * The import function's timeout in this tier: short, so a chunk of a small file stops at its deadline and the
 * workflow's checkpoint loop runs it again (the stack's own default is 900 s, and no prop changes it). Not shorter:
 * the import keeps half of it to finish its batches in flight, and with a write cap (the failing and live cases)
 * those wait for the governor; at 8 s the function timed out (Sandbox.Timedout) instead of checkpointing.
 */
export const IMPORT_TIMEOUT_SECONDS = 20;

/** Logical ids of the resources the tier's edit looks for, as the construct names them (public contract). */
const IMPORT_FUNCTION = /^PipelineImportFunction[0-9A-F]{8}$/;

/**
 * The tier's own edit, after the engine's (cli/local-deploy/engine-edits.ts): the import function's timeout set to
 * {@link IMPORT_TIMEOUT_SECONDS}. Not one `local deploy` makes: an operator rehearses with the stack's timeouts.
 */
export const SHORT_IMPORT_TIMEOUT: EngineEdit = {
  name: 'short-import-timeout',
  why: 'the checkpoint loop runs on a small file',
  apply: (template) => {
    const ids = Object.keys(template.Resources).filter((id) => IMPORT_FUNCTION.test(id));
    if (ids.length !== 1) throw new Error(`expected one import function, found ${JSON.stringify(ids)}`);
    template.Resources[ids[0]].Properties.Timeout = IMPORT_TIMEOUT_SECONDS;
    return ids;
  },
};

/** The tier's engine, from a worker: the global setup's applyEngineEnv set the variables every worker inherits. */
export function tierTarget(env: NodeJS.ProcessEnv = process.env): EngineTarget {
  const caFile = env.AWS_CA_BUNDLE;
  const endpoint = env.AWS_ENDPOINT_URL as string;
  return { endpoint, region: ENGINE_REGION, credentials: ROOT_CREDENTIALS, ...(caFile ? { caFile } : {}) };
}

/** Deploys an (edited) assembly of the tier's stack into its engine, as `local deploy` does. */
export async function redeploy(assemblyDir: string): Promise<void> {
  const log = (line: string) => process.stderr.write(`[deployed tier] ${line}\n`);
  await deployAssembly({ target: tierTarget(), cwd: APP_DIR, stack: STACK, assemblyDir, log });
}
