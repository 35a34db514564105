import { GetObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { executionOutputPrefix } from '../../../lambdas/contract/workflow-payloads.js';
import { createBucket, createTable, listKeys, putText, runImport, s3, scanAll, uniqueName } from '../harness.js';
import { exitCodeOf, loadCorpus, type HostileCase } from './corpus.js';
import { expectItems } from './expect-items.js';
import { expectRejects, parseRejectsFiles } from './rejects-file.js';

/**
 * The hostile-input corpus: every test/fixtures/hostile/<case>.expect.json runs its file through the
 * whole local workflow (Preflight, ImportChunks, Summarize) against the local engine, and what
 * landed, what was rejected and how the execution ended are compared with the expectation beside it.
 */
const cases = await loadCorpus();

async function getBytes(bucket: string, key: string): Promise<Buffer> {
  const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await response.Body!.transformToByteArray());
}

/** Uploads the case's object into a new bucket and a new table, runs the workflow, and keeps either outcome. */
async function runCase(c: HostileCase) {
  const bucket = await createBucket();
  const table = await createTable(c.table.hash, c.table.range);
  const body = await c.body();
  await putText(bucket, c.objectKey, body);
  const executionName = uniqueName(c.name);
  const request = { ...c.request, bucket, key: c.objectKey, table };
  const outcome = await runImport(request, { executionName }).then(
    (r) => r.summary,
    (error: Error) => error,
  );
  const outputPrefix = `${executionOutputPrefix(DEFAULT_REJECTS_PREFIX, executionName)}/`;
  return { bucket, table, body, outcome, outputPrefix };
}

describe('hostile inputs through the whole workflow', () => {
  it('has a corpus to run', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
  });

  it.each(cases)('$name', async (c) => {
    const { bucket, table, body, outcome, outputPrefix } = await runCase(c);
    const { expect: expected } = c;
    // The CLI's rule: 0 every row landed, 2 rows rejected, 1 the execution failed.
    const shown = outcome instanceof Error ? outcome.stack : JSON.stringify(outcome);
    expect(exitCodeOf(outcome), `outcome: ${shown}`).toBe(expected.exitCode);

    if (expected.error) {
      const error = outcome as Error;
      expect(error.name).toBe(expected.error.name);
      for (const fragment of expected.error.message) expect(error.message).toContain(fragment);
      // Failed before any write: nothing in the table, no rejects and no report.
      expect(await scanAll(table)).toEqual([]);
      expect(await listKeys(bucket, outputPrefix)).toEqual([]);
      return;
    }

    const summary = outcome as Exclude<typeof outcome, Error>;
    expect(summary).toMatchObject(expected.summary!);
    expect(summary.rejectsKey).toBe(summary.rejected > 0 ? outputPrefix : null);

    expectItems(c, await scanAll(table));

    const keys = await listKeys(bucket, outputPrefix);
    expect(keys).toContain(`${outputPrefix}report.json`);
    const report = JSON.parse((await getBytes(bucket, `${outputPrefix}report.json`)).toString('utf8'));
    expect(report).toMatchObject({ rows: summary.rows, written: summary.written, rejected: summary.rejected });
    const rejectFiles = await Promise.all(keys.filter((k) => k.endsWith('.csv')).map((k) => getBytes(bucket, k)));
    expectRejects(body, parseRejectsFiles(rejectFiles), expected.rejects ?? []);
  });
});
