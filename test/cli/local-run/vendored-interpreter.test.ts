import { describe, expect, it } from 'vitest';
import { StateMachine } from 'aws-local-stepfunctions';

/**
 * The interpreter is a copy of aws-local-stepfunctions 3.0.0 (vendor/aws-local-stepfunctions) whose one Node 22 call,
 * Promise.withResolvers for a Task's TimeoutSeconds, is written as a plain promise: this runs that path on the Node
 * the project supports, both ways (the task wins; the timer wins). On Node 20 each case failed with a TypeError
 * (`Promise.withResolvers is not a function`) against the published file.
 */
const oneTask = (timeoutSeconds: number) =>
  new StateMachine(
    {
      StartAt: 'Work',
      States: {
        Work: {
          Type: 'Task',
          Resource: 'arn:aws:lambda:us-east-1:000000000000:function:work',
          TimeoutSeconds: timeoutSeconds,
          End: true,
        },
      },
    },
    { validationOptions: { noValidate: true } },
  );

describe('the vendored interpreter on this Node', () => {
  it("returns a Task's result when it answers before its TimeoutSeconds", async () => {
    const run = oneTask(60).run(
      { n: 1 },
      { overrides: { taskResourceLocalHandlers: { Work: async (input) => ({ n: (input as { n: number }).n + 1 }) } } },
    );
    await expect(run.result).resolves.toEqual({ n: 2 });
  });

  it('fails a Task that outlasts its TimeoutSeconds with States.Timeout', async () => {
    const never = () => new Promise<never>(() => undefined);
    const run = oneTask(1).run({}, { overrides: { taskResourceLocalHandlers: { Work: never } } });
    const failure = await run.result.catch((error: Error & { cause?: Error }) => error);
    expect((failure as Error & { cause?: Error }).cause?.name).toBe('States.Timeout');
  });
});
