import { afterEach, describe, expect, it, vi } from 'vitest';
import { readLambdaConfig } from '../../../lambdas/environment/config.js';
import { createWiring, type Wiring } from '../../../lambdas/wiring/wiring.js';
import { generateNgrams } from '../../fixtures/ngrams.js';
import { throttleError } from '../faults/fixture.js';
import { faultBatchWrites, removeFaultsFrom } from '../faults/inject.js';
import { createBucket, createTable, putText, runImport } from '../harness.js';
import { parseEmf, type EmfMetric } from './emf.js';

/** The name in `$$.StateMachine.Name` when the local runner runs the workflow (cli/local-run/runner.ts). */
const LOCAL_STATE_MACHINE = 's3-ddb-import-local';
const THROTTLES = 4;
const PARTIAL_REPLIES = 3;

/** Runs `body` while recording every stdout line that holds an `_aws` member; other output passes through. */
async function captureEmfLines(body: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
    const text = String(chunk);
    if (!text.includes('"_aws"')) return write(chunk, ...rest);
    lines.push(...text.split('\n').filter(Boolean));
    return true;
  }) as typeof process.stdout.write);
  try {
    await body();
  } finally {
    spy.mockRestore();
  }
  return lines;
}

const total = (metrics: EmfMetric[], name: string) =>
  metrics.filter((m) => m.name === name).reduce((sum, m) => sum + m.value, 0);

describe("the import Lambda's metrics (embedded metric format on stdout)", () => {
  let wiring: Wiring | undefined;
  afterEach(() => wiring && removeFaultsFrom(wiring));

  it('writes one valid EMF line per ImportChunk invocation whose counts add up to the summary', async () => {
    // 3,000 rows in ~30 KiB chunks (about 3 chunks) and two rows whose match_count is no number.
    const { text } = generateNgrams(3000);
    const bucket = await createBucket();
    await putText(bucket, 'in/1gram.tsv', `${text}bad_1\t1900\tmany\t1\nbad_2\t1901\tsome\t1\n`);
    const table = await createTable(['ngram', 'S'], ['year', 'N']);
    wiring = createWiring({ config: { ...readLambdaConfig(), emitMetrics: true } });
    // The first 4 BatchWriteItem calls are throttled, the next 3 write only their first item.
    let calls = 0;
    faultBatchWrites(
      table,
      'initialize',
      async (input, send) => {
        const call = ++calls;
        if (call <= THROTTLES) throw throttleError();
        if (call > THROTTLES + PARTIAL_REPLIES) return send(input);
        const [first, ...rest] = input.RequestItems![table];
        const output = await send({ RequestItems: { [table]: [first] } });
        return { ...output, UnprocessedItems: { [table]: rest } };
      },
      wiring,
    );

    let run: Awaited<ReturnType<typeof runImport>> | undefined;
    const lines = await captureEmfLines(async () => {
      run = await runImport(
        { bucket, key: 'in/1gram.tsv', table, types: { match_count: 'N', volume_count: 'N' }, chunkMiB: 0.03 },
        { wiring },
      );
    });
    const { summary, importCalls } = run!;

    expect(summary).toMatchObject({ status: 'SUCCEEDED_WITH_REJECTS', rows: 3002, written: 3000, rejected: 2 });
    expect(summary.chunks).toBeGreaterThanOrEqual(3);
    expect(lines).toHaveLength(importCalls.length);
    const metrics = lines.flatMap(parseEmf);
    for (const metric of metrics) {
      expect(metric).toMatchObject({ namespace: 'S3DdbImport', dimensions: { StateMachine: LOCAL_STATE_MACHINE } });
    }
    expect(new Set(metrics.map((m) => `${m.name}:${m.unit}`))).toEqual(
      new Set([
        'ItemsWritten:Count',
        'ItemsRejected:Count',
        'ThrottledRetries:Count',
        'UnprocessedRetries:Count',
        'InFlightLimit:None',
      ]),
    );
    expect(total(metrics, 'ItemsWritten')).toBe(summary.written);
    expect(total(metrics, 'ItemsRejected')).toBe(summary.rejected);
    expect(total(metrics, 'ThrottledRetries')).toBe(THROTTLES);
    expect(total(metrics, 'UnprocessedRetries')).toBe(PARTIAL_REPLIES);
    for (const { value } of metrics.filter((m) => m.name === 'InFlightLimit')) expect(value).toBeGreaterThanOrEqual(1);
    // The metadata names the work, so Logs Insights can find one chunk's line (Powertools keeps metadata as text).
    const chunksLogged = lines.map((line) => JSON.parse(line)).map(({ table: t, chunk }) => ({ t, chunk }));
    expect(new Set(chunksLogged.map(({ chunk }) => chunk))).toEqual(
      new Set(importCalls.map((c) => String(c.chunkIndex))),
    );
    expect(chunksLogged.every(({ t }) => t === table)).toBe(true);
  });

  it('writes none outside Lambda (the default config), so the CLI stdout stays its own', async () => {
    expect(readLambdaConfig({}).emitMetrics).toBe(false);
    expect(readLambdaConfig({ AWS_LAMBDA_FUNCTION_NAME: 'Import' }).emitMetrics).toBe(true);
    const bucket = await createBucket();
    await putText(bucket, 'in/x.csv', 'id,n\na,1\n');
    const table = await createTable(['id', 'S']);
    const lines = await captureEmfLines(() =>
      runImport({ bucket, key: 'in/x.csv', table }, { wiring: createWiring({ config: readLambdaConfig({}) }) }),
    );
    expect(lines).toEqual([]);
  });
});
