import { beforeAll, describe, expect, it } from 'vitest';
import { listPages, listSourceObjects, skipReason } from '../../../lambdas/source/s3-listing.js';
import { createBucket, putText, s3 } from '../../e2e/harness.js';

const OWN = ['s3-ddb-import/rejects', 's3-ddb-import/staging'];

describe.each([
  // What part files and their tools leave next to the data.
  { key: 'in/part-00000.csv', size: 10, reason: null },
  { key: 'in/sub/part-00001.csv.gz', size: 10, reason: null },
  { key: 'in/', size: 0, reason: 'folder marker' },
  { key: 'in/sub/', size: 0, reason: 'folder marker' },
  { key: 'in/_SUCCESS', size: 0, reason: 'marker or hidden file' },
  { key: 'in/_committed_123', size: 50, reason: 'marker or hidden file' },
  { key: 'in/_temporary/0/part-00000.csv', size: 10, reason: 'marker or hidden file' },
  { key: 'in/.part-00000.csv.crc', size: 12, reason: 'marker or hidden file' },
  { key: 'in/.DS_Store', size: 12, reason: 'marker or hidden file' },
  { key: 'in/empty.csv', size: 0, reason: 'empty object' },
])('skipReason($key) under prefix "in/"', ({ key, size, reason }) => {
  it(reason ? `skips it: ${reason}` : 'imports it', () => {
    expect(skipReason(key, size, 'in/', OWN)).toBe(reason);
  });
});

describe('skipReason', () => {
  it('judges only what lies past the prefix: a prefix may itself name a "_" folder', () => {
    expect(skipReason('_data/part-0.csv', 10, '_data/', OWN)).toBeNull();
    expect(skipReason('in/part-0.csv', 10, 'in/part-', OWN)).toBeNull();
  });

  it("skips the pipeline's own rejects and staged pieces when a prefix covers them", () => {
    expect(skipReason('s3-ddb-import/staging/run-1/0-28', 10, 's3-ddb-import/', OWN)).toBe("the pipeline's own output");
    expect(skipReason('s3-ddb-import/stagingx/a.csv', 10, 's3-ddb-import/', OWN)).toBeNull();
  });
});

describe('listSourceObjects against the local engine', () => {
  let bucket: string;
  // Seven keys a page: the 23 keys below take four pages, so following the continuation token is exercised.
  const send = listPages(s3, 7);
  const parts = Array.from({ length: 20 }, (_, i) => `in/part-${String(i).padStart(5, '0')}.csv`);

  beforeAll(async () => {
    bucket = await createBucket();
    await Promise.all(
      [...parts, 'in/_SUCCESS', 'in/.part-00000.csv.crc', 'in/'].map((key) =>
        putText(bucket, key, key.endsWith('/') || key.endsWith('_SUCCESS') ? '' : 'a,b\n1,2\n'),
      ),
    );
  });

  it('lists every importable object across pages, in key order, with size and ETag', async () => {
    const listed = await listSourceObjects(send, bucket, 'in/', { max: 500, ownPrefixes: OWN });
    expect(listed.objects.map((o) => o.key)).toEqual(parts);
    expect(listed.objects.every((o) => o.size === 8 && /^"[0-9a-f]{32}"$/.test(o.etag))).toBe(true);
    expect(listed.skipped).toEqual({ 'folder marker': 1, 'marker or hidden file': 2 });
    expect(listed.overMax).toBe(false);
  });

  it('stops as soon as it has found more than the most it may take', async () => {
    const listed = await listSourceObjects(send, bucket, 'in/', { max: 5, ownPrefixes: OWN });
    expect(listed).toMatchObject({ overMax: true });
    expect(listed.objects).toHaveLength(6);
  });

  it('finds nothing under a prefix that lists no keys', async () => {
    expect(await listSourceObjects(send, bucket, 'nothing/', { max: 500, ownPrefixes: OWN })).toEqual({
      objects: [],
      skipped: {},
      overMax: false,
    });
  });
});
