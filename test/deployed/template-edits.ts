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
 * Actions the engine (ministack 1.5.33, core/iam_actions.py) checks under another name than AWS does, and the name
 * it checks: GetFunctionConcurrency (GET .../concurrency) as `lambda:PutFunctionConcurrency`; a PartiQL
 * BatchExecuteStatement as `dynamodb:BatchExecuteStatement`, where AWS checks `dynamodb:PartiQLInsert`/`PartiQLUpdate`
 * per statement (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ql-iam.html).
 */
export const ENGINE_ACTION_NAMES: Readonly<Record<string, string>> = {
  'lambda:GetFunctionConcurrency': 'lambda:PutFunctionConcurrency',
  'dynamodb:PartiQLInsert': 'dynamodb:BatchExecuteStatement',
};

/**
 * Test setup only: a statement that allows an action of {@link ENGINE_ACTION_NAMES} also names the engine's name for
 * it, so the deployed functions can make the calls their roles allow, and removing that statement (grants test)
 * still removes the right to make them.
 */
export function addEngineActionNames(template: Template): void {
  for (const [action, engineName] of Object.entries(ENGINE_ACTION_NAMES)) {
    const statements = statementsWith(template, action);
    if (statements.length === 0) throw new Error(`no statement allows ${action}: update ENGINE_ACTION_NAMES`);
    for (const statement of statements) {
      statement.Action = [...new Set([statement.Action].flat().concat(engineName))];
    }
  }
}

/** Sets the import function's timeout to {@link IMPORT_TIMEOUT_SECONDS}. */
export function shortenImportTimeout(template: Template): void {
  const ids = Object.keys(template.Resources).filter((id) => IMPORT_FUNCTION.test(id));
  if (ids.length !== 1) throw new Error(`expected one import function, found ${JSON.stringify(ids)}`);
  template.Resources[ids[0]].Properties.Timeout = IMPORT_TIMEOUT_SECONDS;
}

/** One metric of a metric-math alarm, as CloudFormation spells it. */
interface MetricStat {
  Metric: Record<string, unknown>;
  Period: number;
  Stat: string;
}

/**
 * ministack (1.5.33) cannot create a CloudWatch alarm on metric math (`Properties.Metrics`: "not supported; use
 * MetricName and Namespace"), which AWS supports. Test setup only: such an alarm watches the first metric of its
 * expression instead (the dashboard refers to it, no case reads it). Returns the alarms changed.
 */
export function simplifyMetricMathAlarms(template: Template): string[] {
  const alarms = Object.entries(template.Resources).filter(
    ([, r]) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.Metrics !== undefined,
  );
  for (const [, alarm] of alarms) {
    const metrics = alarm.Properties.Metrics as Array<{ MetricStat?: MetricStat }>;
    const stat = metrics.find((m) => m.MetricStat)?.MetricStat;
    if (!stat) throw new Error('a metric-math alarm without a metric');
    delete alarm.Properties.Metrics;
    Object.assign(alarm.Properties, { ...stat.Metric, Period: stat.Period, Statistic: stat.Stat });
  }
  return alarms.map(([id]) => id);
}
