import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { CloudCommandError } from '../aws/clients.js';

/** What `<source>` names: one S3 object, an S3 folder, or a local file or folder (uploaded first). */
export type Source =
  | { readonly kind: 's3-object'; readonly bucket: string; readonly key: string }
  | { readonly kind: 's3-prefix'; readonly bucket: string; readonly prefix: string }
  | { readonly kind: 'local'; readonly root: string; readonly files: readonly LocalFile[]; readonly folder: boolean };

export interface LocalFile {
  readonly path: string;
  /** Path under the folder (or the file's name), with '/' separators: its key under the upload prefix. */
  readonly name: string;
  readonly size: number;
}

/**
 * Reads `<source>`: `s3://bucket/key`, `s3://bucket/folder/` (a trailing slash: every object under it), or a
 * local path. A local folder holds every file beneath it, hidden ones (".name") left out.
 */
export async function resolveSource(text: string): Promise<Source> {
  if (text.startsWith('s3://')) return parseS3Url(text);
  const info = await stat(text).catch(() => null);
  if (!info) throw new CloudCommandError(`${text}: no such file or folder (give a local path or s3://bucket/key)`);
  if (info.isFile())
    return {
      kind: 'local',
      root: text,
      folder: false,
      files: [{ path: text, name: lastSegment(text), size: info.size }],
    };
  const files = await listFiles(text);
  if (files.length === 0) throw new CloudCommandError(`${text}: the folder holds no files to import`);
  return { kind: 'local', root: text, folder: true, files };
}

function parseS3Url(text: string): Source {
  const match = /^s3:\/\/([^/]+)\/(.*)$/.exec(text);
  if (!match || match[2] === '') {
    throw new CloudCommandError(
      `${text}: expected s3://bucket/key or s3://bucket/folder/ (a bucket alone is not an import)`,
    );
  }
  const [, bucket, rest] = match;
  return rest.endsWith('/') ? { kind: 's3-prefix', bucket, prefix: rest } : { kind: 's3-object', bucket, key: rest };
}

async function listFiles(root: string): Promise<LocalFile[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files: LocalFile[] = [];
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name);
    const name = relative(root, path).split(sep).join('/');
    if (!entry.isFile() || name.split('/').some((part) => part.startsWith('.'))) continue;
    files.push({ path, name, size: (await stat(path)).size });
  }
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

function lastSegment(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}
