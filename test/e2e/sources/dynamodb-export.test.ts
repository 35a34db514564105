import { beforeAll, describe, expect, it } from 'vitest';
import { runPreflight } from '../../../lambdas/preflight/preflight.js';
import { DEFAULT_REJECTS_PREFIX, resolveLambdaConfig } from '../../../lambdas/environment/config.js';
import { WRITE_MODE_TABLE } from '../../../lambdas/write/write-modes.js';
import { CHUNK_LAYOUTS } from '../../../lambdas/chunk-layouts/chunk-layouts.js';
import { SOURCE_FORMATS } from '../../../lambdas/formats/record-formats.js';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';
import type { PlanningState } from '../../../lambdas/contract/workflow-payloads.js';
import { preflightIo } from '../../../lambdas/preflight/preflight-io.js';
import { objectKey } from '../../../lambdas/source/source-set.js';
import { localConcurrency } from '../../../cli/local-run/local-concurrency.js';
import { allTypesItems, fillTable, scanTable, writeExport, type Item } from '../../fixtures/dynamodb-export.js';
import { createBucket, createTable, dynamodb, putText, runImport, s3 } from '../harness.js';

const EXPORT_ID = '01767225600000-a1b2c3d4';

/** Preflight alone, looped to the end of its scan, against the real local engine. */
async function preflight(request: ImportRequest): Promise<PlanningState> {
  const io = preflightIo(s3, dynamodb);
  // The scan alone is under test: a ledger that always has lanes.
  const ledger = { admit: async () => ({ granted: 4, reason: '4 lanes' }) };
  const execution = {
    id: 'arn:aws:states:us-east-1:000000000000:execution:x:export',
    startTime: new Date().toISOString(),
    stateMachineArn: 'arn:x',
  };
  let input: ImportRequest | PlanningState = request;
  for (;;) {
    const state = await runPreflight({ input, executionName: 'export', execution, maxConcurrency: 4 }, io, {
      ...resolveLambdaConfig({ rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null }),
      shouldStop: () => false,
      writeModes: WRITE_MODE_TABLE,
      formats: SOURCE_FORMATS,
      layouts: CHUNK_LAYOUTS,
      control: localConcurrency,
      ledger,
    });
    if (state.scanComplete) return state;
    input = state;
  }
}

describe('a DynamoDB export folder', () => {
  let bucket: string;
  let source: string;
  let items: Item[];
  const folder = `exports/AWSDynamoDB/${EXPORT_ID}/`;
  let dataKeys: string[];

  beforeAll(async () => {
    bucket = await createBucket();
    source = await createTable(['pk', 'S'], ['sk', 'N']);
    await fillTable(dynamodb, source, allTypesItems(120));
    items = await scanTable(dynamodb, source); // as DynamoDB holds them: what the export writes
    dataKeys = await writeExport(s3, bucket, items, { folder, files: 3 });
    // A data file the manifest does not list (from another export into the same folder): never imported.
    await putText(bucket, `${folder}data/stray.json.gz`, 'not listed');
  });

  // No format in the request: the data files' names (`*.json.gz`) say DynamoDB JSON, gzip.
  const detected = {};

  it.each([
    ['its manifest-summary.json', () => ({ key: `${folder}manifest-summary.json` })],
    ['its folder', () => ({ prefix: folder })],
    ['the folder above it', () => ({ prefix: 'exports/' })],
  ])('named by %s, resolves exactly the data files manifest-files.json lists', async (_, names) => {
    const table = await createTable(['pk', 'S'], ['sk', 'N']);
    const state = await preflight({ bucket, table, ...names(), ...detected });

    expect(state.sources.exportManifest).toBe(`${folder}manifest-summary.json`);
    const keys = state.sources.objects.map((_, i) => objectKey(state.sources, i));
    expect(keys).toEqual(dataKeys); // in the manifest's order; the stray file and the manifests are not there
    // Each data file is gzip: imported whole, one lane each (a small export), its chunk past no header; the
    // empty partition's file (a gzip of nothing) holds no data and gets no chunk.
    expect(state.chunks.map((c) => c.object)).toEqual([0, 1, 2]);
    expect(state.chunks.every((c) => c.start === 0 && c.line === 1)).toBe(true);
  });

  it('copied to another prefix, resolves the data files relative to the manifest', async () => {
    const copy = `restored/2026/AWSDynamoDB/${EXPORT_ID}/`;
    const named = await writeExport(s3, bucket, items.slice(0, 30), {
      folder: copy,
      namedFolder: `gone/AWSDynamoDB/${EXPORT_ID}/`,
      files: 2,
    });
    const table = await createTable(['pk', 'S'], ['sk', 'N']);

    const state = await preflight({ bucket, table, key: `${copy}manifest-summary.json`, ...detected });

    const keys = state.sources.objects.map((_, i) => objectKey(state.sources, i));
    expect(keys).toEqual(named.map((key) => key.replace('gone/', 'restored/2026/')));
  });

  it('fails when a data file the manifest lists is nowhere, naming it', async () => {
    const broken = `broken/AWSDynamoDB/${EXPORT_ID}/`;
    const named = await writeExport(s3, bucket, items.slice(0, 10), {
      folder: broken,
      namedFolder: `lost/AWSDynamoDB/${EXPORT_ID}/`,
      files: 1,
    });
    await s3.send(
      new (await import('@aws-sdk/client-s3')).DeleteObjectCommand({
        Bucket: bucket,
        Key: named[0].replace('lost/', 'broken/'),
      }),
    );
    const table = await createTable(['pk', 'S'], ['sk', 'N']);

    await expect(
      preflight({ bucket, table, key: `${broken}manifest-summary.json`, ...detected }),
    ).rejects.toMatchObject({
      name: 'InvalidRequestError',
      message: expect.stringContaining(`data files not found (as named, nor under ${broken}): ${named[0]}`),
    });
  });

  it('imports into a second table, item by item, every attribute type', async () => {
    const target = await createTable(['pk', 'S'], ['sk', 'N']);

    const { summary } = await runImport({ bucket, key: `${folder}manifest-summary.json`, table: target });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: items.length, written: items.length, objects: 4 });
    const landed = await scanTable(dynamodb, target);
    const byKey = (list: Item[]) => new Map(list.map((item) => [`${item.pk.S}|${item.sk.N}`, item]));
    expect(byKey(landed)).toEqual(byKey(items));
  });
});
