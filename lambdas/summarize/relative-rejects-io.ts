import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { parseRelativeRejectsKey, RELATIVE_REJECTS_FOLDER } from '../contract/relative-rejects.js';
import type { SummarizeEvent } from '../contract/workflow-payloads.js';
import { deleteObject, putObject, sendGetObject } from '../wiring/aws-io.js';
import { firstLines, renumberRejects } from './absolute-lines.js';
import { chunkResultsOf } from './summarize.js';

/**
 * Rewrites the rejects files that chunks without `line` wrote with lines counted from their first record
 * (contract/relative-rejects.ts) as `<execution folder>/<name>.csv` with the lines of the object, then deletes
 * them. A retried Summarize finds the files not yet deleted and writes the same result again. Rejects are rare,
 * so this reads and writes little.
 */
export async function makeRejectsAbsolute(
  s3: S3Client,
  event: SummarizeEvent,
  folder: string,
  kmsKeyArn: string | null,
): Promise<void> {
  const { bucket } = event.request;
  const first = firstLines(event.chunks, chunkResultsOf(event), event.dataLine);
  const getObject = sendGetObject(s3);
  for (const key of await listAll(s3, bucket, `${folder}/${RELATIVE_REJECTS_FOLDER}/`)) {
    const parsed = parseRelativeRejectsKey(folder, key);
    const line = parsed ? first.get(parsed.chunkIndex) : undefined;
    if (!parsed || line === undefined) continue;
    const response = await getObject({ Bucket: bucket, Key: key });
    const body = Buffer.from(await response.Body!.transformToByteArray());
    await putObject(s3, bucket, parsed.finalKey, renumberRejects(body, line - 1), 'text/csv', kmsKeyArn);
    await deleteObject(s3, bucket, key);
  }
}

async function listAll(s3: S3Client, bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const listed = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    );
    keys.push(...(listed.Contents ?? []).map((o) => o.Key!));
    token = listed.NextContinuationToken;
  } while (token);
  return keys;
}
