import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ASL_PLACEHOLDERS } from '../../lib/import-pipeline.js';
import {
  ASL_DEFINITION_FILE,
  MAX_CONCURRENCY_PLACEHOLDER,
  TASK_FUNCTION_PLACEHOLDERS,
  TASK_HANDLER_FILES,
  TASK_STATE_FUNCTIONS,
} from '../../lib/workflow-tasks.js';

/** asl-validator 4 is CommonJS without type declarations: `module.exports = validator`. */
type AslValidator = (
  definition: unknown,
  options?: { checkPaths?: boolean; checkArn?: boolean },
) => { isValid: boolean; errorsText: (separator?: string) => string };
const aslValidator = createRequire(import.meta.url)('asl-validator') as AslValidator;

interface Retrier {
  readonly ErrorEquals: readonly string[];
  readonly IntervalSeconds?: number;
  readonly MaxAttempts?: number;
  readonly BackoffRate?: number;
  readonly MaxDelaySeconds?: number;
  readonly JitterStrategy?: string;
}

interface State {
  readonly Type: string;
  readonly Resource?: string;
  readonly Retry?: readonly Retrier[];
  readonly Catch?: readonly { readonly ErrorEquals: readonly string[]; readonly Next: string }[];
  readonly Next?: string;
  readonly Default?: string;
  readonly Choices?: readonly { readonly Variable: string; readonly StringEquals?: string; readonly Next: string }[];
  readonly ItemProcessor?: { readonly States: Record<string, State> };
  readonly Iterator?: { readonly States: Record<string, State> };
  readonly Branches?: { readonly States: Record<string, State> }[];
}

const fromRoot = (path: string) => new URL(`../../${path}`, import.meta.url);
const text = readFileSync(fromRoot(ASL_DEFINITION_FILE), 'utf8');
const definition = JSON.parse(text) as { States: Record<string, State> };

/** Every state, nested ones (Map item processors, Parallel branches) included, by name. */
function allStates(states: Record<string, State>): [string, State][] {
  return Object.entries(states).flatMap(([name, state]) => [
    [name, state] as [string, State],
    ...[state.ItemProcessor, state.Iterator, ...(state.Branches ?? [])]
      .filter((sub) => sub !== undefined)
      .flatMap((sub) => allStates(sub.States)),
  ]);
}
const tasks = allStates(definition.States).filter(([, state]) => state.Type === 'Task');

/** The definition as CloudFormation will see it once the substitutions are made. */
function substituted(): string {
  return text.replace(/\$\{(\w+)\}/g, (_, name: string) =>
    name === MAX_CONCURRENCY_PLACEHOLDER ? '40' : `arn:aws:lambda:us-east-1:123456789012:function:${name}`,
  );
}

describe('statemachine/import.asl.json', () => {
  it('uses exactly the placeholders the construct substitutes', () => {
    const found = new Set([...text.matchAll(/\$\{([^}]*)\}/g)].map((match) => match[1]));
    expect(found).toEqual(new Set(ASL_PLACEHOLDERS));
  });

  it('names every Task state, nested ones included, in TASK_STATE_FUNCTIONS, and every function is run by one', () => {
    expect(tasks.map(([name]) => name).sort()).toEqual(Object.keys(TASK_STATE_FUNCTIONS).sort());
    expect(new Set(Object.values(TASK_STATE_FUNCTIONS))).toEqual(new Set(Object.keys(TASK_HANDLER_FILES)));
  });

  it.each(tasks)('binds Task %s to its function placeholder', (name, state) => {
    const placeholder = TASK_FUNCTION_PLACEHOLDERS[TASK_STATE_FUNCTIONS[name as keyof typeof TASK_STATE_FUNCTIONS]];
    expect(state.Resource).toBe(`\${${placeholder}}`);
  });

  it.each(Object.entries(TASK_HANDLER_FILES))('has a handler file for Task %s (%s)', (_, file) => {
    expect(existsSync(fromRoot(file)), `${file} is missing`).toBe(true);
  });

  it('passes asl-validator once substituted', () => {
    const result = aslValidator(JSON.parse(substituted()));
    expect(result.errorsText(), 'asl-validator errors').toBe('');
    expect(result.isValid).toBe(true);
  });

  it('uses only what aws-local-stepfunctions runs too', () => {
    // A DISTRIBUTED Map that reads ItemsPath runs locally as an inline one; ItemReader, ItemBatcher and
    // ResultWriter do not run locally at all.
    expect(text).not.toMatch(/"QueryLanguage"|"Assign"|"ItemReader"|"ItemBatcher"|"ResultWriter"/);
  });

  it.each(tasks.map(([name]) => name))(
    "retries %s's own throttles and transient AWS errors with backoff and full jitter (lambdas/wiring/service-error-names.ts)",
    (name) => {
      const state = tasks.find(([n]) => n === name)![1];
      const retrier = state.Retry?.find((r) => r.ErrorEquals.includes('ThrottledError'));
      expect(retrier?.ErrorEquals).toEqual(expect.arrayContaining(['ThrottledError', 'TransientServiceError']));
      expect(retrier).toMatchObject({ JitterStrategy: 'FULL', BackoffRate: expect.any(Number) });
      expect(retrier?.MaxDelaySeconds).toBeGreaterThan(0);
    },
  );

  it("waits out a Lambda throttle for at least 15 minutes in ImportChunk, Preflight and Summarize (issue 26's ~4)", () => {
    for (const name of ['ImportChunk', 'Preflight', 'Summarize']) {
      const retrier = tasks
        .find(([n]) => n === name)![1]
        .Retry!.find((r) => r.ErrorEquals.includes('Lambda.TooManyRequestsException'))!;
      // The longest the waits can add up to (FULL jitter draws each from 0 to it): 2, 5, 12.5, 31, 78, 195, 300, 300 s.
      let total = 0;
      for (let attempt = 0; attempt < retrier.MaxAttempts!; attempt++)
        total += Math.min(retrier.IntervalSeconds! * retrier.BackoffRate! ** attempt, retrier.MaxDelaySeconds!);
      expect(total, name).toBeGreaterThanOrEqual(15 * 60);
    }
  });

  it("names a failed import after its first failed chunk: the Map's threshold error goes through FindFailedChunk", () => {
    const { States: states } = definition;
    expect(states.ImportChunks.Catch?.[0]).toMatchObject({ ErrorEquals: ['States.ALL'], Next: 'ReleaseLanes' });
    expect(states.ReleaseLanes.Next).toBe('ThresholdExceeded?');
    expect(states.ReleaseLanes.Catch?.[0].Next).toBe('ThresholdExceeded?');
    expect(states['ThresholdExceeded?'].Choices).toEqual([
      { Variable: '$.error.Error', StringEquals: 'States.ExceedToleratedFailureThreshold', Next: 'FindFailedChunk' },
    ]);
    expect(states['ThresholdExceeded?'].Default).toBe('ImportFailed');
    expect(states.FindFailedChunk).toMatchObject({ Next: 'ImportFailed', ResultPath: '$.error' });
    expect(states.FindFailedChunk.Catch?.[0]).toMatchObject({ ErrorEquals: ['States.ALL'], Next: 'ImportFailed' });
  });
});
