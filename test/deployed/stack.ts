import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The stack bin/app.ts defines, and the name the CLI looks up by default. */
export const STACK = 'S3DdbImport';
const TEMPLATE = `${STACK}.template.json`;
/** This folder: its cdk.json runs bin/app.ts with the tier's context (tables, a watched prefix). */
const APP_DIR = fileURLToPath(new URL('.', import.meta.url));
const CDK = fileURLToPath(new URL('../../node_modules/aws-cdk/bin/cdk', import.meta.url));
/** A synth bundles four functions with esbuild; a deploy of 32 resources takes seconds on the engine. */
const CDK_TIMEOUT_MS = 300_000;

/** Runs the CDK CLI as `npx cdk` would, failing with its output. */
export function cdk(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const options = { cwd: APP_DIR, env: { ...process.env, ...env }, timeout: CDK_TIMEOUT_MS, maxBuffer: 1 << 26 };
    execFile(process.execPath, [CDK, ...args], options, (error, stdout, stderr) => {
      if (error) reject(new Error(`cdk ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve(`${stdout}${stderr}`);
    });
  });
}

/** Synthesizes bin/app.ts with this folder's cdk.json into `outDir`: the cloud assembly `cdk deploy` would deploy. */
export async function synth(outDir: string, env: Record<string, string>): Promise<void> {
  await cdk(['synth', '--quiet', '--output', outDir], env);
}

/** Deploys the assembly in `assemblyDir` (template and asset bundles as synthesized), creating or updating the stack. */
export async function deploy(assemblyDir: string, env: Record<string, string>): Promise<void> {
  await cdk(['deploy', STACK, '--app', assemblyDir, '--require-approval', 'never', '--progress', 'events'], env);
}

/** A CloudFormation template, as far as these tests read it. */
export interface Template {
  Resources: Record<string, Resource>;
}

export interface Resource {
  Type: string;
  Properties: Record<string, unknown> & { PolicyDocument?: { Statement: Statement[] }; Roles?: unknown[] };
}

/** An IAM policy statement of the template. */
export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

export function readTemplate(assemblyDir: string): Template {
  return JSON.parse(readFileSync(join(assemblyDir, TEMPLATE), 'utf8'));
}

/**
 * Writes the template and renames its asset after the new content. `cdk deploy` uploads the template to the
 * bootstrap bucket under the hash synth gave it and skips an upload whose key exists: an edited template under the
 * old hash would deploy the old one ("no changes").
 */
export function writeTemplate(assemblyDir: string, template: Template): void {
  const text = JSON.stringify(template, null, 1);
  writeFileSync(join(assemblyDir, TEMPLATE), text);
  const manifests = [join(assemblyDir, 'manifest.json'), join(assemblyDir, `${STACK}.assets.json`)];
  const old = /\/([0-9a-f]{64})\.json"/.exec(readFileSync(manifests[0], 'utf8'))?.[1];
  if (!old) throw new Error(`no template asset in ${manifests[0]}`);
  const hash = createHash('sha256').update(text).digest('hex');
  for (const file of manifests) writeFileSync(file, readFileSync(file, 'utf8').replaceAll(old, hash));
}

/** A copy of the assembly (assets included) whose template `edit` changes. */
export function editedAssembly(from: string, to: string, edit: (template: Template) => void): string {
  cpSync(from, to, { recursive: true });
  const template = readTemplate(to);
  edit(template);
  writeTemplate(to, template);
  return to;
}
