import { GetObjectCommand, paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { RELATIVE_REJECTS_FOLDER } from '../../lambdas/contract/relative-rejects.js';
import type { ImportSummary } from '../../lambdas/contract/workflow-payloads.js';
import { firstReasons } from './reject-reasons.js';
import type { Output } from './summary.js';

/**
 * Copies the rejected rows and the report to ./s3-ddb-import-rejects/<execution>/ and says so, with the first
 * rejected rows of distinct kinds (line and reason), so the reason is on the terminal, not only in the files.
 * Returns the folder.
 */
export async function keepRejects(s3: S3Client, summary: ImportSummary, output: Output): Promise<string> {
  const dir = resolve(join('s3-ddb-import-rejects', summary.rejectsKey!.split('/').filter(Boolean).pop() ?? 'rejects'));
  // The rejects lie in the stack bucket, also when the import read another source (summary.outputBucket).
  // A dry run's diff files lie under the same prefix: keepDiff (diff-copy.ts) copies them to their own folder.
  const { diffKey } = summary;
  const notDiff = (key: string) => diffKey === undefined || !key.startsWith(diffKey);
  const files = await downloadPrefix(s3, summary.outputBucket ?? summary.bucket, summary.rejectsKey!, dir, notDiff);
  output.err(`${summary.rejected} rejected rows: ${files.length} files in ${dir}`);
  for (const { line, object, reason } of await firstReasons(files.sort()))
    output.err(`  ${object ? `${object} ` : ''}line ${line}: ${reason}`);
  return dir;
}

/** Copies every object under `prefix` into `dir` (local S3 stops with the command; a deployed bucket's rejects come home). */
export async function downloadPrefix(
  s3: S3Client,
  bucket: string,
  prefix: string,
  dir: string,
  wanted: (key: string) => boolean = () => true,
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  // A deployed import of 1,000 chunks can leave more rejects files than one page of 1,000 keys.
  for await (const listed of paginateListObjectsV2({ client: s3 }, { Bucket: bucket, Prefix: prefix })) {
    for (const object of listed.Contents ?? []) {
      if (!wanted(object.Key ?? '')) continue;
      const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }));
      const target = join(dir, basename(object.Key ?? 'object'));
      await writeFile(target, await response.Body!.transformToByteArray());
      files.push(target);
    }
  }
  return files;
}

/**
 * After an import failed (a TooManyRejectsError, a failing chunk): copies what it rejected before it stopped from
 * `s3://<bucket>/<executionFolder>/` to ./s3-ddb-import-rejects/<execution>/, with the first reasons, as
 * {@link keepRejects} does for a finished import; the local engine's bucket goes when the command ends. Summarize did
 * not run, so a file under `relative/` counts its lines from its chunk's first record (contract/relative-rejects.ts),
 * and the line says so. Returns the line that tells where, or null when nothing was rejected.
 *
 * @example
 * await keepRejectsOfFailure(s3, 's3-ddb-import-local', 's3-ddb-import/rejects/4f1c...', output);
 * // 'rejected rows before the failure (line, byte offset, reason, record): /home/me/s3-ddb-import-rejects/4f1c...'
 */
export async function keepRejectsOfFailure(
  s3: S3Client,
  bucket: string,
  executionFolder: string,
  output: Output,
): Promise<string | null> {
  const dir = resolve(join('s3-ddb-import-rejects', executionFolder.split('/').filter(Boolean).pop() ?? 'rejects'));
  let relative = false;
  const noteRelative = (key: string) => ((relative ||= key.includes(`/${RELATIVE_REJECTS_FOLDER}/`)), true);
  const files = await downloadPrefix(s3, bucket, `${executionFolder}/`, dir, noteRelative);
  if (files.length === 0) {
    await rm(dir, { recursive: true, force: true });
    return null;
  }
  for (const { line, object, reason } of await firstReasons(files.sort()))
    output.err(`  ${object ? `${object} ` : ''}line ${line}: ${reason}`);
  // The byte offsets are the object's either way.
  const lines = relative
    ? " (lines count from each chunk's first record: the import stopped before numbering them)"
    : '';
  return `rejected rows before the failure (line, byte offset, reason, record): ${dir}${lines}`;
}
