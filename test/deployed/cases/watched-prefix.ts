import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { ensureNgramTable, s3, scanSorted, sortItems, stackOutputs } from '../aws.js';
import { cloudCli, jsonOut } from '../cli.js';
import { executionsOf, waitFor } from '../executions.js';
import { ngramFileWithBadRows } from '../ngram-file.js';

/**
 * The watched prefix of test/deployed/cdk.json holds a space; the key adds "+" and non-ASCII letters, which S3
 * event notifications URL-encode (issue 26 risk 12). AWS documents the EventBridge event's `detail.object.key`
 * without saying whether it is encoded (https://docs.aws.amazon.com/AmazonS3/latest/userguide/ev-events.html);
 * preflight takes the key as sent and, when no object has it, its URL-decoded form (test/e2e/event-key.test.ts).
 */
const PREFIX = 'watched/in box/';
const KEY = `${PREFIX}Zürich + 東京 1gram.tsv`;

describe('an upload under a watched prefix, imported by the deployed EventBridge rule', () => {
  it('starts one import of the key with a space, "+" and non-ASCII, and every good row lands as its item', async () => {
    const table = 'watched';
    await ensureNgramTable(table);
    const file = ngramFileWithBadRows(600, 11);
    const { BucketName, WatchedPrefixes } = await stackOutputs();
    expect(WatchedPrefixes).toContain(PREFIX);

    await s3.send(new PutObjectCommand({ Bucket: BucketName, Key: KEY, Body: file.text }));

    const [execution] = await waitFor('the rule to start an import', async () => {
      const found = await executionsOf(KEY);
      return found.length > 0 ? found : undefined;
    });
    const run = await cloudCli(['status', execution.arn, '--follow', '--poll-s', '1', '--json']);
    expect(run.code, run.stderr).toBe(2);
    expect(jsonOut(run)).toMatchObject({
      status: 'SUCCEEDED_WITH_REJECTS',
      written: 600,
      rejected: file.rejects.length,
      table,
    });
    expect(await scanSorted(table)).toEqual(sortItems(file.items));
    // One upload, one import; the rule passed the key as stored (the engine does not URL-encode it either way).
    expect(await executionsOf(KEY)).toEqual([expect.objectContaining({ status: 'SUCCEEDED' })]);
  });
});
