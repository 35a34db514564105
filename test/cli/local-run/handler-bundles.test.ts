import { readFile } from 'node:fs/promises';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { BatchWriteItemCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import type { TaskStateName } from '../../../lib/workflow-tasks.js';
import { handlerBundlePath, loadHandlerFactories } from '../../../cli/local-run/handler-bundles.js';
import { runLocalImport } from '../../../cli/local-run/runner.js';
import { runningTask } from '../../../cli/local-run/running-task.js';
import { createBucket, createTable, putText, scanAll } from '../../e2e/harness.js';

// These calls are told apart by the task that made them (off unless a test asks: see running-task.ts).
runningTask.track();

/** The command classes of the SDK in node_modules: what the TypeScript sources would construct. */
const SOURCE_SDK_COMMANDS = [
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  BatchWriteItemCommand,
  DescribeTableCommand,
];

type Command = { constructor: { toString(): string } };
type Send = (command: Command) => Promise<unknown>;

/** A wiring whose clients note, per Task, the class of every command a handler sends through them. */
function recordingWiring() {
  const wiring = createWiring();
  const sent = new Map<TaskStateName, Set<Command['constructor']>>();
  for (const client of [wiring.s3, wiring.dynamodb] as unknown as { send: Send }[]) {
    const send = client.send.bind(client);
    client.send = (command) => {
      const task = runningTask.getStore();
      if (task) sent.set(task, (sent.get(task) ?? new Set()).add(command.constructor));
      return send(command);
    };
  }
  return { wiring, sent };
}

describe('local runner', () => {
  it('runs each Task with the factory its bundle exports', async () => {
    const factories = await loadHandlerFactories();
    const bundles = {
      Preflight: await import(handlerBundlePath('Preflight')),
      ImportChunk: await import(handlerBundlePath('ImportChunk')),
      Summarize: await import(handlerBundlePath('Summarize')),
    };
    // Node keeps one instance per module: the bundle's export is the very function the runner calls.
    expect(factories.Preflight).toBe(bundles.Preflight.createPreflightHandler);
    expect(factories.ImportChunk).toBe(bundles.ImportChunk.createImportHandler);
    expect(factories.Summarize).toBe(bundles.Summarize.createSummarizeFunctionHandler);
  });

  it('runs the handlers from dist/: every command they send is a class written in their bundle', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'in.csv', 'id,n\na,1\nb,2\n');
    const table = await createTable(['id', 'S']);
    const { wiring, sent } = recordingWiring();

    const summary = await runLocalImport({ bucket, key: 'in.csv', table, types: { n: 'N' } }, { wiring });

    expect(summary).toMatchObject({ rows: 2, written: 2, rejected: 0 });
    expect(await scanAll(table)).toHaveLength(2);
    expect([...sent.keys()].sort()).toEqual(['ImportChunk', 'Preflight', 'Summarize']);
    for (const [task, classes] of sent) {
      // Minified class text found verbatim in the bundle file proves the code came from that file, and not
      // from the sources (which would construct node_modules' classes, whose text is not minified).
      const bundle = await readFile(handlerBundlePath(task), 'utf8');
      for (const commandClass of classes) {
        expect(SOURCE_SDK_COMMANDS).not.toContain(commandClass);
        expect(bundle, `${task} sent a command not built by its bundle`).toContain(commandClass.toString());
      }
    }
  });
});
