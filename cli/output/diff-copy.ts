import type { S3Client } from '@aws-sdk/client-s3';
import { join, resolve } from 'node:path';
import type { ImportSummary } from '../../lambdas/contract/workflow-payloads.js';
import { downloadPrefix, keepRejects } from './rejects-copy.js';
import type { Output } from './summary.js';

/** Where an import's rejects and a dry run's diff were copied: null for what it did not leave. */
export interface KeptOutputs {
  readonly rejectsDir: string | null;
  readonly diffDir: string | null;
}

/**
 * Copies what an import left in the bucket for the user (`local`, `start --follow`): its rejects to
 * ./s3-ddb-import-rejects/<execution>/, a dry run's diff files to ./s3-ddb-import-diff/<execution>/.
 */
export async function keepOutputs(s3: S3Client, summary: ImportSummary, output: Output): Promise<KeptOutputs> {
  const rejectsDir = summary.rejectsKey ? await keepRejects(s3, summary, output) : null;
  const diffDir = summary.diffKey ? await keepDiff(s3, summary, summary.diffKey, output) : null;
  return { rejectsDir, diffDir };
}

/**
 * Copies a dry run's diff files (lambdas/sync-compare/diff-lines.ts: JSON Lines of what it would add, change or
 * delete) from `<execution folder>/diff/` to ./s3-ddb-import-diff/<execution>/, and says so; returns the folder.
 */
export async function keepDiff(s3: S3Client, summary: ImportSummary, diffKey: string, output: Output): Promise<string> {
  const execution = diffKey.split('/').filter(Boolean).at(-2) ?? 'diff';
  const dir = resolve(join('s3-ddb-import-diff', execution));
  const files = await downloadPrefix(s3, summary.outputBucket ?? summary.bucket, diffKey, dir);
  const { added, changed, deleted } = summary;
  output.err(`would add ${added}, change ${changed}, delete ${deleted}: ${files.length} diff files in ${dir}`);
  return dir;
}
