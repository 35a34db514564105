import type { S3Client } from '@aws-sdk/client-s3';
import { basename, resolve } from 'node:path';
import type { Output } from '../../output/summary.js';
import { createProgressRenderer } from '../../progress/renderer.js';
import { CloudCommandError } from '../aws/clients.js';
import { watchedPrefixOf, type StackTarget } from '../aws/stack-outputs.js';
import type { Source } from '../source/source.js';
import { uploadFiles } from '../source/upload.js';

/** Where `start` points the request, and where a local source is uploaded. */
export interface Located {
  readonly location: { readonly bucket: string } & ({ readonly key: string } | { readonly prefix: string });
  /** For a local source: the key prefix the files are uploaded under. */
  readonly uploadPrefix?: string;
}

/**
 * Where the request points. A local source goes under the upload prefix of the stack's bucket, which must not
 * be a watched prefix: there the bucket's own rule would start a second import of the same upload.
 */
export function locateStart(source: Source, target: StackTarget, uploadPrefix: string): Located {
  if (source.kind === 's3-object') return { location: { bucket: source.bucket, key: source.key } };
  if (source.kind === 's3-prefix') return { location: { bucket: source.bucket, prefix: source.prefix } };
  if (!target.bucketName) {
    throw new CloudCommandError(
      "a local source is uploaded to the stack's bucket: name the stack with --stack NAME, or give --bucket B with --state-machine",
    );
  }
  const folderPrefix = source.folder ? `${uploadPrefix}${basename(resolve(source.root))}/` : uploadPrefix;
  for (const file of source.files) {
    const watched = watchedPrefixOf(`${folderPrefix}${file.name}`, target.watchedPrefixes);
    if (watched) {
      throw new CloudCommandError(
        `the upload key ${folderPrefix}${file.name} is under the watched prefix ${JSON.stringify(watched)}, whose rule would ` +
          `start an import of its own: give another --upload-prefix, or upload with \`aws s3 cp\` and let the watch import it`,
      );
    }
  }
  const bucket = target.bucketName;
  const location = source.folder
    ? { bucket, prefix: folderPrefix }
    : { bucket, key: `${folderPrefix}${source.files[0].name}` };
  return { location, uploadPrefix: folderPrefix };
}

/** Uploads a local source where locateStart put it, drawing the upload's progress. */
export async function uploadLocalSource(
  s3: S3Client,
  source: Extract<Source, { kind: 'local' }>,
  located: Located,
  { partBytes, target }: { partBytes: number; target: StackTarget },
  output: Output,
): Promise<void> {
  const renderer = createProgressRenderer(output);
  await uploadFiles(s3, located.location.bucket, located.uploadPrefix ?? '', source.files, {
    partBytes,
    kmsKeyArn: target.bucketKmsKeyArn,
    onProgress: (loaded, total) => renderer.render({ phase: 'uploading', upload: { loaded, total } }),
  });
  renderer.done();
}
