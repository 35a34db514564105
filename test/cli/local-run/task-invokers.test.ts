import { describe, expect, it } from 'vitest';
import { stepProcesses } from '../../../bench/step-processes.js';
import { handlerBundlePath } from '../../../cli/local-run/handler-bundles.js';
import { createBucket, createTable, putText, runImport, scanAll } from '../../e2e/harness.js';
import { fillTable } from '../../e2e/mirror/mirror-harness.js';

const id = (i: number) => `k${String(i).padStart(4, '0')}`;

describe('LocalRunOptions.invokers: tasks run outside the runner, each invocation a process of its own', () => {
  it('runs a sync mirror with ImportChunk, MirrorScan and MirrorParts in bare node processes: the table ends as the file', async () => {
    const bucket = await createBucket();
    const table = await createTable(['id', 'S']);
    const ids = Array.from({ length: 400 }, (_, i) => i);
    await fillTable(
      table,
      ids.map((i) => ({ id: { S: id(i) }, v: { S: `v${i}` } })),
    );
    const kept = ids.filter((i) => i % 10 !== 3); // 40 dropped
    const changed = (i: number) => (i % 7 === 0 ? `w${i}` : `v${i}`);
    await putText(bucket, 'in/rows.csv', `id,v\n${kept.map((i) => `${id(i)},${changed(i)}`).join('\n')}\n`);
    const { invokers, peaks } = stepProcesses(['ImportChunk', 'MirrorScan', 'MirrorParts']);
    const request = {
      bucket,
      key: 'in/rows.csv',
      table,
      mode: 'sync' as const,
      mirror: true,
      allowWithoutBackup: true,
    };
    const { summary } = await runImport({ ...request, chunkMiB: 0.002 }, { invokers, maxConcurrency: 4 });
    expect(summary).toMatchObject({
      status: 'SUCCEEDED',
      deleted: 40,
      changed: kept.filter((i) => i % 7 === 0).length,
    });
    const items = new Map((await scanAll(table)).map((item) => [item.id.S!, item]));
    expect(items.size).toBe(kept.length);
    for (const i of kept) expect(items.get(id(i))).toEqual({ id: { S: id(i) }, v: { S: changed(i) } });
    // Every step of the three functions ran in a child (a chunk of ~2 KB each, 4 Scan segments, 16 parts twice).
    expect(peaks.ImportChunk!.invocations).toBeGreaterThan(1);
    expect(peaks.MirrorScan!.invocations).toBeGreaterThanOrEqual(5); // MirrorPlan and the 4 segments
    expect(peaks.MirrorParts!.invocations).toBeGreaterThanOrEqual(32);
    for (const task of ['ImportChunk', 'MirrorScan', 'MirrorParts'] as const) {
      expect(peaks[task]!.peakRssMiB).toBeGreaterThan(20); // a node process's RSS, read from the child itself
    }
  });

  it('rejects with the name and message the handler threw in the child, as in process', async () => {
    const { invokers } = stepProcesses(['ImportChunk']);
    const event = { job: null, chunk: null, chunkIndex: 0 } as never;
    const { handler } = (await import(handlerBundlePath('ImportChunk'))) as {
      handler: (event: unknown, context: unknown) => Promise<unknown>;
    };
    const inProcess = await handler(event, { getRemainingTimeInMillis: () => 60_000 }).catch((error: Error) => error);
    expect(inProcess).toBeInstanceOf(Error);
    const inChild = await invokers.ImportChunk!(event, 60_000).catch((error: Error) => error);
    expect(inChild).toMatchObject({ name: (inProcess as Error).name, message: (inProcess as Error).message });
  });
});
