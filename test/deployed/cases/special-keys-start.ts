import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { DescribeExecutionCommand } from '@aws-sdk/client-sfn';
import { ensureNgramTable, s3, scanSorted, sfn, sortItems, stackOutputs } from '../aws.js';
import { jsonOut, startFollowed } from '../cli.js';
import { ngramFileWithBadRows } from '../ngram-file.js';

/**
 * Issue 38 risk 6 through `start`, next to the rule's case (watched-prefix.ts): a key with a space, "+", "%25" (which
 * URL-decodes to "%") and non-ASCII. `start` takes the text after `s3://bucket/` as the key, literally, as the AWS CLI
 * does; the SDK encodes it on the wire once. Were anything on the way to URL-decode it, the key would become
 * "in/sp ace plus% é 1gram.tsv", which holds nothing: the import would fail SourceObjectNotFoundError.
 */
const KEY = 'in/sp ace+plus%25 é 1gram.tsv';
const TABLE = 'special-keys';

describe('start of a key with a space, +, % and non-ASCII, through the deployed stack', () => {
  it('start s3://bucket/<that key> --follow lands every good row as its item, the key named as stored', async () => {
    await ensureNgramTable(TABLE);
    const file = ngramFileWithBadRows(600, 19);
    const { BucketName } = await stackOutputs();
    await s3.send(new PutObjectCommand({ Bucket: BucketName, Key: KEY, Body: file.text }));

    const source = `s3://${BucketName}/${KEY}`;
    const run = await startFollowed(source, TABLE);

    expect(run.code, run.stderr).toBe(2);
    const summary = jsonOut(run);
    expect(summary).toMatchObject({ status: 'SUCCEEDED_WITH_REJECTS', written: 600, rejected: file.rejects.length });
    // The execution read the key as stored (its output names it; --json prints counts only).
    const { output } = await sfn.send(new DescribeExecutionCommand({ executionArn: summary.executionArn }));
    expect(JSON.parse(output ?? '{}')).toMatchObject({ bucket: BucketName, key: KEY, table: TABLE });
    expect(await scanSorted(TABLE)).toEqual(sortItems(file.items));
  });
});
