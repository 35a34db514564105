import { gzipSync } from 'node:zlib';
import type { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import { expectTableMatches } from '../faults/fixture.js';
import { createBucket, createTable, listKeys, putText, runImport } from '../harness.js';
import { letterFile, NGRAM_TYPES } from '../sources/letters.js';

/** The account the partner bucket must belong to; the engine answers for any (it models no accounts). */
const PARTNER_ACCOUNT = '222222222222';

interface Sent {
  readonly command: string;
  readonly bucket: string;
  readonly owner: string | undefined;
}

/** Records every request `s3` sends as serialized (build step): its command, bucket and owner header. */
function recordOwners(s3: S3Client): Sent[] {
  const sent: Sent[] = [];
  type Next = (args: { input: { Bucket?: string }; request?: unknown }) => Promise<unknown>;
  const middleware = (next: Next, context: { commandName?: string }) => (args: Parameters<Next>[0]) => {
    const { headers } = args.request as { headers: Record<string, string> };
    const owner = headers['x-amz-expected-bucket-owner'];
    sent.push({ command: context.commandName ?? '', bucket: args.input.Bucket ?? '', owner });
    return next(args);
  };
  s3.middlewareStack.add(middleware as never, { step: 'build', priority: 'low', name: 'owner-recorder' } as never);
  return sent;
}

/** The functions' wiring as a deployed stack with `sources` configures it (BUCKET_NAME, SOURCE_BUCKETS). */
function deployedWiring(own: string, partner: string) {
  const sourceBuckets = [{ bucket: partner, expectedOwner: PARTNER_ACCOUNT }];
  const config = { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, bucketName: own, sourceBuckets };
  const wiring = createWiring({ config });
  return { wiring, sent: recordOwners(wiring.s3) };
}

describe('an import from a second bucket (issue 38, sources)', () => {
  it('lands item by item; every call on it names its owner; rejects, report and staged pieces go to the stack bucket', async () => {
    const [own, partner] = [await createBucket(), await createBucket()];
    const file = letterFile('p', 6000); // ~170 KB of TSV, gzipped so preflight stages it as plain pieces
    await putText(partner, 'exports/p.tsv.gz', gzipSync(`${file.text}bad\tnot-a-year\t1\t1\n`));
    const table = await createTable(['ngram', 'S'], ['year', 'N']);
    const { wiring, sent } = deployedWiring(own, partner);

    const request = { bucket: partner, key: 'exports/p.tsv.gz', table, types: NGRAM_TYPES, chunkMiB: 0.05 };
    const { summary } = await runImport(request, { wiring, maxConcurrency: 2, executionName: 'second-bucket-1' });

    expect(summary).toMatchObject({ bucket: partner, outputBucket: own, written: 6000, rejected: 1 });
    await expectTableMatches(table, file.rows);
    // More than one chunk of a gzip object: it was staged as plain pieces (in the stack bucket, below).
    expect(summary.chunks).toBeGreaterThan(1);
    expect(sent.filter((s) => s.command === 'PutObjectCommand' && s.bucket === own).length).toBeGreaterThan(2);
    const onPartner = sent.filter((s) => s.bucket === partner);
    expect(new Set(onPartner.map((s) => s.command))).toEqual(new Set(['HeadObjectCommand', 'GetObjectCommand']));
    for (const call of onPartner) expect(call.owner, call.command).toBe(PARTNER_ACCOUNT);
    // Nothing is written to the source: it is read only (its grants are reads).
    expect(sent.filter((s) => s.bucket === partner && !/^(Head|Get|List)/.test(s.command))).toEqual([]);
    expect(sent.filter((s) => s.bucket === own).every((s) => s.owner === undefined)).toBe(true);
    const outputs = await listKeys(own, `${DEFAULT_REJECTS_PREFIX}/second-bucket-1/`);
    expect(outputs).toContain(`${DEFAULT_REJECTS_PREFIX}/second-bucket-1/report.json`);
    expect(outputs.some((k) => k.endsWith('.csv'))).toBe(true);
  }, 120_000);

  it('lists a folder of it with the owner header too, and lands every object item by item', async () => {
    const [own, partner] = [await createBucket(), await createBucket()];
    const files = ['a', 'b'].map((letter) => ({ key: `drop/${letter}.tsv`, file: letterFile(letter, 200) }));
    for (const { key, file } of files) await putText(partner, key, file.text);
    const table = await createTable(['ngram', 'S'], ['year', 'N']);
    const { wiring, sent } = deployedWiring(own, partner);

    const request = { bucket: partner, prefix: 'drop/', table, types: NGRAM_TYPES };
    const { summary } = await runImport(request, { wiring, executionName: 'second-bucket-2' });

    expect(summary).toMatchObject({ bucket: partner, objects: 2, written: 400, rejected: 0 });
    await expectTableMatches(
      table,
      files.flatMap(({ file }) => file.rows),
    );
    const onPartner = sent.filter((s) => s.bucket === partner);
    expect(new Set(onPartner.map((s) => s.command))).toContain('ListObjectsV2Command');
    for (const call of onPartner) expect(call.owner, call.command).toBe(PARTNER_ACCOUNT);
  }, 120_000);

  it('fails when the request names a bucket that is not among the sources, before any S3 call, naming those it may use', async () => {
    const [own, partner, stranger] = [await createBucket(), await createBucket(), await createBucket()];
    await putText(stranger, 'x.tsv', letterFile('x', 10).text);
    const { wiring, sent } = deployedWiring(own, partner);

    const request = { bucket: stranger, key: 'x.tsv', table: 'any', types: NGRAM_TYPES };
    const failure = await runImport(request, { wiring }).catch((error: Error) => error);

    expect(failure).toMatchObject({ name: 'InvalidRequestError' });
    expect((failure as Error).message).toContain(
      `bucket: "${stranger}" is not a bucket this deployment reads (${own}, ${partner})`,
    );
    expect(sent).toEqual([]);
  });
});
