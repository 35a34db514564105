import { text } from 'node:stream/consumers';
import { startsWithParquetMagic } from './format-sniff.js';
import { InvalidRequestError, NoSourceObjectsError, SourceObjectNotFoundError } from '../contract/errors.js';
import { MAX_SOURCE_OBJECTS } from '../contract/limits.js';
import type { SourceSet } from '../contract/workflow-payloads.js';
import type { ImportTarget } from '../request/request-target.js';
import type { FoundSource } from '../request/resolve-request.js';
import {
  EXPORT_FORMATS,
  MANIFEST_FILES,
  type ExportFormat,
  candidateKeys,
  folderOf,
  isManifestSummary,
  parseManifestFiles,
  parseManifestSummary,
  resolveDataFiles,
} from '../source/dynamodb-export.js';
import { listSourceObjects, type ListPages } from '../source/s3-listing.js';
import type { ReadFrom, SourceObject } from '../source/source-object.js';
import { objectKey, s3Url, sourceSet, type ListedObject } from '../source/source-set.js';

/** The S3 calls that find an import's objects. */
export interface SourceIo {
  headObject(bucket: string, key: string): Promise<{ size: number; etag: string }>;
  listPages: ListPages;
  /** Streams the object from an offset to `size`, its end. */
  readFrom(source: SourceObject, size: number): ReadFrom;
}

/** The objects of an import, and what they say about the request (resolve-request.ts resolves it with that). */
export interface FoundSources {
  readonly sources: SourceSet;
  readonly found: FoundSource;
}

/**
 * Finds the objects of an import before any write: the request's `key` (HeadObject), every importable object
 * under its `prefix` (ListObjectsV2, see source/s3-listing.ts), or, when either names a DynamoDB export (its
 * manifest-summary.json, or a folder holding one), the data files its manifest lists. Then what they say about the
 * format: the export's manifest, the first object's name, its first bytes (format-sniff.ts).
 */
export async function findSources(
  target: ImportTarget,
  io: SourceIo,
  ownPrefixes: readonly string[],
): Promise<FoundSources> {
  const located = await locateObjects(target, io, ownPrefixes);
  const { sources, exportFormat } = located;
  const parquetMagic = !target.formatNamed && (await startsWithParquetMagic(target.bucket, sources, io));
  const found: FoundSource = {
    ...(located.key === undefined ? {} : { key: located.key }),
    formatKey: objectKey(sources, 0),
    ...(exportFormat ? { export: { outputFormat: exportFormat, type: EXPORT_FORMATS[exportFormat] } } : {}),
    ...(parquetMagic ? { parquetMagic } : {}),
  };
  return { sources, found };
}

interface LocatedObjects {
  /** The request's key as found (URL-decoded when that is what exists); undefined for a prefix. */
  readonly key?: string;
  readonly sources: SourceSet;
  readonly exportFormat?: ExportFormat;
}

async function locateObjects(
  target: ImportTarget,
  io: SourceIo,
  ownPrefixes: readonly string[],
): Promise<LocatedObjects> {
  const { bucket, prefix } = target;
  if (prefix === undefined) {
    const { object, key } = await headSourceObject(io, bucket, target.key!);
    if (isManifestSummary(key)) return { key, ...(await exportSources(io, bucket, key, object)) };
    return { key, sources: sourceSet([{ key, ...object }]) };
  }
  const listed = await listSourceObjects(io.listPages, bucket, prefix, { max: MAX_SOURCE_OBJECTS, ownPrefixes });
  const manifests = listed.objects.filter((o) => isManifestSummary(o.key));
  if (manifests.length > 1) {
    throw new InvalidRequestError([
      `prefix: holds ${manifests.length} DynamoDB exports (${manifests.map((m) => m.key).join(', ')}); ` +
        'name one export folder or its manifest-summary.json',
    ]);
  }
  if (manifests.length === 1) return exportSources(io, bucket, manifests[0].key, manifests[0]);
  if (listed.overMax) throw tooManyObjects(`${s3Url(bucket, prefix)} holds`, MAX_SOURCE_OBJECTS);
  if (listed.objects.length === 0) {
    const skipped = Object.entries(listed.skipped)
      .map(([why, n]) => `${n} ${why}`)
      .join(', ');
    throw new NoSourceObjectsError(
      `no objects to import under ${s3Url(bucket, prefix)}` +
        (skipped ? ` (skipped: ${skipped})` : ' (the prefix lists no keys)'),
    );
  }
  return { sources: sourceSet(listed.objects) };
}

function tooManyObjects(what: string, found: number | string): InvalidRequestError {
  return new InvalidRequestError([
    `prefix: ${what} more than ${MAX_SOURCE_OBJECTS} objects to import (${found}), the most one import takes: each ` +
      'object is at least one chunk and the object list travels in the workflow state; import sub-prefixes one by one',
  ]);
}

/** The data files an export's manifest lists, each found as named or relative to the manifest's folder. */
async function exportSources(
  io: SourceIo,
  bucket: string,
  manifestKey: string,
  head: { size: number; etag: string },
): Promise<{ sources: SourceSet; exportFormat: ExportFormat }> {
  const folder = folderOf(manifestKey);
  const readText = (key: string, object: { size: number; etag: string }) =>
    text(io.readFrom({ bucket, key, etag: object.etag }, object.size)(0));
  const summary = parseManifestSummary(await readText(manifestKey, head), s3Url(bucket, manifestKey));
  const listed = await listSourceObjects(io.listPages, bucket, folder, {
    max: MAX_SOURCE_OBJECTS + 8,
    ownPrefixes: [],
  });
  if (listed.overMax) throw tooManyObjects(`the export ${s3Url(bucket, folder)} lists`, `over ${MAX_SOURCE_OBJECTS}`);
  const inFolder = new Map(listed.objects.map((o) => [o.key, o]));
  const headOrNull = async (key: string): Promise<ListedObject | null> =>
    io.headObject(bucket, key).then(
      (o) => ({ key, ...o }),
      (error: unknown) => {
        if (error instanceof SourceObjectNotFoundError) return null;
        throw error;
      },
    );
  const filesManifest = await findFirst(
    [...(summary.manifestFilesS3Key ? candidateKeys(summary.manifestFilesS3Key, folder) : []), folder + MANIFEST_FILES],
    inFolder,
    headOrNull,
  );
  if (!filesManifest)
    throw new InvalidRequestError([`export ${s3Url(bucket, manifestKey)}: its ${MANIFEST_FILES} is missing`]);
  const named = parseManifestFiles(await readText(filesManifest.key, filesManifest), s3Url(bucket, filesManifest.key));
  const objects = (await resolveDataFiles(named, folder, inFolder, headOrNull)).filter((o) => o.size > 0);
  if (objects.length > MAX_SOURCE_OBJECTS)
    throw tooManyObjects(`the export ${s3Url(bucket, folder)} lists`, objects.length);
  if (objects.length === 0)
    throw new NoSourceObjectsError(`the export ${s3Url(bucket, manifestKey)} lists no data file with data`);
  return { sources: sourceSet(objects, manifestKey), exportFormat: summary.outputFormat };
}

async function findFirst(
  keys: readonly string[],
  inFolder: ReadonlyMap<string, ListedObject>,
  head: (key: string) => Promise<ListedObject | null>,
): Promise<ListedObject | null> {
  for (const key of new Set(keys)) {
    const found = inFolder.get(key) ?? (await head(key));
    if (found) return found;
  }
  return null;
}

/**
 * HeadObject on the request's key, or on its URL-decoded form when the key is not found and looks
 * encoded: S3 event notifications URL-encode keys ("my file.csv" arrives as "my+file.csv"), and a
 * watched prefix builds the request from such an event. Tried only after a 404, so a key that really
 * holds "+" or "%" is found as it is.
 */
async function headSourceObject(io: SourceIo, bucket: string, key: string) {
  try {
    return { object: await io.headObject(bucket, key), key };
  } catch (error) {
    const decoded = decodeEventKey(key);
    if (!(error instanceof SourceObjectNotFoundError) || decoded === key) throw error;
    return { object: await io.headObject(bucket, decoded).catch(() => Promise.reject(error)), key: decoded };
  }
}

function decodeEventKey(key: string): string {
  try {
    return decodeURIComponent(key.replace(/\+/g, ' '));
  } catch {
    return key; // not valid percent-encoding: it was never encoded
  }
}
