import { createHash } from 'node:crypto';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A CloudFormation template, as far as the edits read it. */
export interface Template {
  Resources: Record<string, Resource>;
}

/** One resource of a {@link Template}. */
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

/** The template file `cdk synth` writes for a stack into its cloud assembly. */
const templateFile = (assemblyDir: string, stack: string) => join(assemblyDir, `${stack}.template.json`);

/** The stack's template in a synthesized cloud assembly. */
export function readTemplate(assemblyDir: string, stack: string): Template {
  return JSON.parse(readFileSync(templateFile(assemblyDir, stack), 'utf8'));
}

/**
 * Writes the template and renames its asset after the new content. `cdk deploy` uploads the template to the
 * bootstrap bucket under the hash synth gave it and skips an upload whose key exists: an edited template under the
 * old hash would deploy the old one ("no changes").
 */
export function writeTemplate(assemblyDir: string, stack: string, template: Template): void {
  const text = JSON.stringify(template, null, 1);
  writeFileSync(templateFile(assemblyDir, stack), text);
  const manifests = [join(assemblyDir, 'manifest.json'), join(assemblyDir, `${stack}.assets.json`)];
  const old = /\/([0-9a-f]{64})\.json"/.exec(readFileSync(manifests[0], 'utf8'))?.[1];
  if (!old) throw new Error(`no template asset in ${manifests[0]}`);
  const hash = createHash('sha256').update(text).digest('hex');
  for (const file of manifests) writeFileSync(file, readFileSync(file, 'utf8').replaceAll(old, hash));
}

/**
 * Changes the stack's template in place with `edit`, keeping the assembly deployable (see {@link writeTemplate}).
 *
 * @example
 * editTemplate('/tmp/assembly', 'S3DdbImport', (template) => simplifyMetricMathAlarms(template));
 */
export function editTemplate<T>(assemblyDir: string, stack: string, edit: (template: Template) => T): T {
  const template = readTemplate(assemblyDir, stack);
  const result = edit(template);
  writeTemplate(assemblyDir, stack, template);
  return result;
}

/** A copy of the assembly (assets included) whose template `edit` changes. */
export function editedAssembly(from: string, to: string, stack: string, edit: (template: Template) => void): string {
  cpSync(from, to, { recursive: true });
  editTemplate(to, stack, edit);
  return to;
}
