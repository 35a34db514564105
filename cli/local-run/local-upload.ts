import type { S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { mapAtMost } from '../../lambdas/async/map-at-most.js';
import { MANIFEST_SUMMARY } from '../../lambdas/source/dynamodb-export.js';
import { uploadFile } from '../cloud/source/upload.js';
import { CliError } from '../output/cli-error.js';

/**
 * Files uploaded at once from a folder, and parts in flight for each: a file over one part (16 MiB) goes up as a
 * multipart upload, as S3 needs past 5 GB, and each upload holds its parts in flight in memory: at most
 * 4 x 2 x 16 MiB here.
 */
const UPLOADS_AT_ONCE = 4;
const PARTS_IN_FLIGHT = 2;

/** What `local` uploads and where: the request's `key` or `prefix`, and each file's key. */
export interface UploadPlan {
  readonly location: { readonly key: string } | { readonly prefix: string };
  readonly files: readonly { readonly path: string; readonly key: string }[];
}

/** The file or folder `local` was given does not exist: said before any server starts. */
export class LocalSourceNotFoundError extends CliError {
  override readonly name = 'LocalSourceNotFoundError';
  constructor(path: string) {
    super(
      `no file or folder at ${path}: give the path of the file to import (CSV/TSV, JSON Lines, DynamoDB JSON, ` +
        'plain, .gz or .zst; or Parquet), a folder of such files, or a DynamoDB export folder',
    );
  }
}

/**
 * Where `local` puts its source in the local S3, decided before any server starts (so the request is resolved
 * once, with its real key): a file as imports/<name> (a `.gz` or `.zst` one too), a folder under
 * imports/<name>-<8 hex>/ keeping relative paths (a fresh prefix each run, so that an earlier upload of a folder
 * of that name, on servers kept between runs, is never imported too; a DynamoDB export's folder is one), and an
 * export's manifest-summary.json as its folder's key of that name. Throws LocalSourceNotFoundError.
 */
export async function planUpload(path: string): Promise<UploadPlan> {
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ENOENT' ? new LocalSourceNotFoundError(path) : error;
  });
  if (found.isDirectory()) {
    const prefix = folderPrefix(path);
    return { location: { prefix }, files: await filesUnder(path, prefix) };
  }
  if (basename(path) === MANIFEST_SUMMARY) {
    const prefix = folderPrefix(dirname(path));
    return { location: { key: `${prefix}${MANIFEST_SUMMARY}` }, files: await filesUnder(dirname(path), prefix) };
  }
  const key = `imports/${basename(path)}`;
  return { location: { key }, files: [{ path, key }] };
}

/**
 * Uploads the plan's files into the bucket, a few at once, each as `start` uploads a file (cloud/source/upload.ts):
 * one PutObject up to one part, a multipart upload past it. The local engine takes a single PutObject of any size;
 * S3 takes 5 GB at most, and `local` does what S3 takes.
 */
export async function uploadPlanned(s3: S3Client, bucket: string, plan: UploadPlan): Promise<void> {
  await mapAtMost([...plan.files], UPLOADS_AT_ONCE, async ({ path, key }) => {
    const { size } = await stat(path);
    await uploadFile(s3, bucket, key, { path, size }, { partsInFlight: PARTS_IN_FLIGHT });
  });
}

const folderPrefix = (dir: string) => `imports/${basename(dir)}-${randomUUID().slice(0, 8)}/`;

/** Every file under `dir`, in a stable order, with its key under `prefix`. */
async function filesUnder(dir: string, prefix: string): Promise<{ path: string; key: string }[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath ?? e.path, e.name)))
    .sort()
    .map((file) => ({ path: join(dir, file), key: prefix + file.split(sep).join('/') }));
}
