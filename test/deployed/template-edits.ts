import type { Statement, Template } from './stack.js';

/**
 * The import function's timeout in this tier: short, so a chunk of a small file stops at its deadline and the
 * workflow's checkpoint loop runs it again (the stack's own default is 900 s, and no prop changes it). Not shorter:
 * the import keeps half of it to finish its batches in flight, and with a write cap (the failing and live cases)
 * those wait for the governor; at 8 s the function timed out (Sandbox.Timedout) instead of checkpointing.
 */
export const IMPORT_TIMEOUT_SECONDS = 20;

/** Logical ids of the resources these edits look for, as the construct names them (public contract). */
const IMPORT_FUNCTION = /^PipelineImportFunction[0-9A-F]{8}$/;

/** The policy statements of a resource of type AWS::IAM::Policy, by the action a statement holds. */
export function statementsWith(template: Template, action: string): Statement[] {
  return Object.values(template.Resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy')
    .flatMap((policy) => policy.Properties.PolicyDocument?.Statement ?? [])
    .filter((statement) => [statement.Action].flat().includes(action));
}

/**
 * ministack (1.5.33, core/iam_actions.py) authorizes GetFunctionConcurrency (GET .../concurrency) as
 * `lambda:PutFunctionConcurrency`, for any method. The deployed preflight calls GetFunctionConcurrency, which its
 * role allows, and the engine would deny it. Test setup only: the statement that allows Get also names Put for the
 * engine, so removing that statement (grants test) still removes the right to make the call.
 */
export function allowEnginesConcurrencyAction(template: Template): void {
  const statements = statementsWith(template, 'lambda:GetFunctionConcurrency');
  if (statements.length === 0) throw new Error('no statement allows lambda:GetFunctionConcurrency: update this edit');
  for (const statement of statements) {
    statement.Action = [...new Set([statement.Action].flat().concat('lambda:PutFunctionConcurrency'))];
  }
}

/** Sets the import function's timeout to {@link IMPORT_TIMEOUT_SECONDS}. */
export function shortenImportTimeout(template: Template): void {
  const ids = Object.keys(template.Resources).filter((id) => IMPORT_FUNCTION.test(id));
  if (ids.length !== 1) throw new Error(`expected one import function, found ${JSON.stringify(ids)}`);
  template.Resources[ids[0]].Properties.Timeout = IMPORT_TIMEOUT_SECONDS;
}
