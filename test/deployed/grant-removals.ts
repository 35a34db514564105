import type { Statement, Template } from '../../cli/local-deploy/index.js';

/** One statement of a Lambda role's policy, to remove from the template in turn. */
export interface GrantRemoval {
  /** The function whose role holds it, by its construct id (public contract): Import, Preflight, Summarize. */
  readonly fn: string;
  readonly policy: string;
  readonly index: number;
  readonly actions: string[];
  /** The statement's Resource as JSON text: which bucket (the stack's or a source) or table it names. */
  readonly resource: string;
}

/** The pipeline's functions: `Pipeline<Name>Function<hash>`, their roles `Pipeline<Name>FunctionRole<hash>`. */
const PIPELINE_ROLE = /^Pipeline(\w+)FunctionRole[0-9A-F]{8}$/;

/**
 * Every statement of the policies attached to the pipeline functions' roles. The CloudWatch Logs statement is left
 * out: the Lambda service writes a function's logs with its role, not our code, and the engine writes them without
 * asking IAM, so removing it can show nothing here. A grant repeated for each of the stack's tables is taken for
 * `table` only, the one the probe imports into.
 */
export function grantRemovals(template: Template, table: string): GrantRemoval[] {
  return Object.entries(template.Resources)
    .filter(([, resource]) => resource.Type === 'AWS::IAM::Policy')
    .flatMap(([policy, resource]) => {
      const role = (resource.Properties.Roles ?? []).map((r) => (r as { Ref?: string }).Ref ?? '').join();
      const fn = PIPELINE_ROLE.exec(role)?.[1];
      if (!fn) return [];
      const statements = resource.Properties.PolicyDocument?.Statement ?? [];
      return statements
        .map((s, index) => ({ fn, policy, index, actions: [s.Action].flat(), resource: JSON.stringify(s.Resource) }))
        .filter(
          ({ resource }) =>
            !resource.includes(':table/') ||
            resource.includes(`:table/${table}"`) ||
            resource.includes(`:table/${table}/`),
        );
    })
    .filter((removal) => !removal.actions.every((action) => action.startsWith('logs:')));
}

/** Removes the statement from the template (in place). */
export function removeGrant(template: Template, removal: GrantRemoval): void {
  const statements = template.Resources[removal.policy].Properties.PolicyDocument?.Statement as Statement[];
  statements.splice(removal.index, 1);
}
