import type { Statement, Template } from './template.js';

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

/** The policy statements of a resource of type AWS::IAM::Policy, by the action a statement holds. */
export function statementsWith(template: Template, action: string): Statement[] {
  return Object.values(template.Resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy')
    .flatMap((policy) => policy.Properties.PolicyDocument?.Statement ?? [])
    .filter((statement) => [statement.Action].flat().includes(action));
}

/**
 * A statement that allows an action of {@link ENGINE_ACTION_NAMES} also names the engine's name for it, so the
 * deployed functions can make the calls their roles allow when the engine enforces IAM, and removing that statement
 * still removes the right to make them. Returns the actions it found (none in a stack without the pipeline).
 */
export function addEngineActionNames(template: Template): string[] {
  const found: string[] = [];
  for (const [action, engineName] of Object.entries(ENGINE_ACTION_NAMES)) {
    const statements = statementsWith(template, action);
    if (statements.length > 0) found.push(action);
    for (const statement of statements) {
      statement.Action = [...new Set([statement.Action].flat().concat(engineName))];
    }
  }
  return found;
}

/** One metric of a metric-math alarm, as CloudFormation spells it. */
interface MetricStat {
  Metric: Record<string, unknown>;
  Period: number;
  Stat: string;
}

/**
 * ministack (1.5.33) cannot create a CloudWatch alarm on metric math (`Properties.Metrics`: "not supported; use
 * MetricName and Namespace"), which AWS supports. Such an alarm (the watch's delivery alarm) watches the first metric
 * of its expression instead: it still exists for the dashboard, but its threshold now reads one metric, not the sum.
 * Returns the alarms changed.
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

/** A change the engine needs in a template that AWS deploys as it is. */
export interface EngineEdit {
  /** Its name in `local deploy`'s output and `--json` (`edits[].name`). */
  readonly name: string;
  /** Why the engine needs it, in one sentence (docs/guides/rehearse-locally.md lists the same). */
  readonly why: string;
  /** Changes the template in place; returns what it changed (logical ids or actions), empty when nothing. */
  readonly apply: (template: Template) => string[];
}

/**
 * Every edit `local deploy` (and the deployed test tier) makes, in order. A new engine gap is one entry here.
 *
 * @example
 * for (const edit of ENGINE_EDITS) console.log(edit.name, edit.apply(template));
 */
export const ENGINE_EDITS: readonly EngineEdit[] = [
  {
    name: 'metric-math-alarms',
    why: 'the engine refuses a CloudWatch alarm on metric math ("Properties.Metrics is not supported"): it watches the first metric of the expression instead',
    apply: simplifyMetricMathAlarms,
  },
  {
    name: 'engine-action-names',
    why: "the engine checks some calls under another IAM action name than AWS: the statements allowing them also name the engine's action",
    apply: addEngineActionNames,
  },
];

/** What one edit changed. */
export interface AppliedEdit {
  readonly name: string;
  readonly changed: readonly string[];
}

/** Applies every {@link ENGINE_EDITS} entry to the template; returns what each changed. */
export function applyEngineEdits(template: Template): AppliedEdit[] {
  return ENGINE_EDITS.map((edit) => ({ name: edit.name, changed: edit.apply(template) }));
}
