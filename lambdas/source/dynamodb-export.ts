import { InvalidRequestError } from '../contract/errors.js';
import type { FormatType } from '../contract/import-request.js';
import type { ListedObject } from './source-set.js';

/**
 * A DynamoDB export to S3, as AWS documents its output
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html):
 *
 *   <export-prefix>/AWSDynamoDB/<ExportId>/manifest-summary.json   summary: outputFormat, manifestFilesS3Key, itemCount
 *   <export-prefix>/AWSDynamoDB/<ExportId>/manifest-files.json     one JSON object a line, each naming a data file:
 *                                                                  {"itemCount":…,"md5Checksum":…,"etag":…,"dataFileS3Key":…}
 *   <export-prefix>/AWSDynamoDB/<ExportId>/data/<name>.json.gz     the items, gzip'd DynamoDB JSON, one `{"Item":…}` a line
 *   <export-prefix>/AWSDynamoDB/<ExportId>/data/<name>.ion.gz      or, with outputFormat ION, gzip'd Ion text, one
 *                                                                  `$ion_1_0 {Item:{…}}` a line
 *   (plus manifest-*.checksum files and an empty `_started` marker)
 *
 * The data-file keys name where the export was written; an export copied elsewhere keeps its layout under
 * the manifest's folder, so a key not found there is looked up relative to it.
 */
export const MANIFEST_SUMMARY = 'manifest-summary.json';
export const MANIFEST_FILES = 'manifest-files.json';

/** True when `key` is an export's summary manifest. */
export const isManifestSummary = (key: string) => key === MANIFEST_SUMMARY || key.endsWith(`/${MANIFEST_SUMMARY}`);

/** The folder of a key, with its trailing slash ("" at the top). */
export const folderOf = (key: string) => key.slice(0, key.lastIndexOf('/') + 1);

/**
 * The export's `outputFormat` (the ExportFormat of ExportTableToPointInTime,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ExportTableToPointInTime.html) and the format
 * type that reads its data files. The manifest names the format, not the data files' extension.
 */
export const EXPORT_FORMATS = { DYNAMODB_JSON: 'dynamodb-json', ION: 'dynamodb-ion' } as const satisfies Record<
  string,
  FormatType
>;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

export interface ManifestSummary {
  readonly manifestFilesS3Key: string | null;
  readonly itemCount: number | null;
  /** DYNAMODB_JSON when the manifest names none (the format's default). */
  readonly outputFormat: ExportFormat;
}

/** Reads manifest-summary.json: a full export in DynamoDB JSON or Ion (incremental exports are refused). */
export function parseManifestSummary(text: string, where: string): ManifestSummary {
  const summary = parseJson(text, where);
  const problems: string[] = [];
  const outputFormat = summary.outputFormat ?? 'DYNAMODB_JSON';
  if (typeof outputFormat !== 'string' || !Object.hasOwn(EXPORT_FORMATS, outputFormat)) {
    problems.push(
      `${where}: outputFormat ${JSON.stringify(outputFormat)}: only ${Object.keys(EXPORT_FORMATS).join(' and ')} ` +
        'exports can be imported',
    );
  }
  if (summary.exportType !== undefined && summary.exportType !== 'FULL_EXPORT') {
    problems.push(`${where}: exportType ${JSON.stringify(summary.exportType)}: only full exports can be imported`);
  }
  if (problems.length > 0) throw new InvalidRequestError(problems);
  return {
    manifestFilesS3Key: typeof summary.manifestFilesS3Key === 'string' ? summary.manifestFilesS3Key : null,
    itemCount: typeof summary.itemCount === 'number' ? summary.itemCount : null,
    outputFormat: outputFormat as ExportFormat,
  };
}

/** Reads manifest-files.json: the data files' keys, in the manifest's order. */
export function parseManifestFiles(text: string, where: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const entry = parseJson(line, `${where} line ${index + 1}`);
      if (typeof entry.dataFileS3Key !== 'string' || entry.dataFileS3Key === '') {
        throw new InvalidRequestError([`${where} line ${index + 1}: no dataFileS3Key`]);
      }
      return entry.dataFileS3Key;
    });
}

/**
 * Where to look for a manifest-named key, in order: as named, then relative to the manifest's folder (the part
 * after the export's own folder name, `<ExportId>/`), then `data/<file name>` under it.
 */
export function candidateKeys(named: string, manifestFolder: string): string[] {
  const exportId = manifestFolder.split('/').at(-2);
  const keys = [named];
  const at = exportId ? `/${named}`.indexOf(`/${exportId}/`) : -1;
  if (at !== -1) keys.push(manifestFolder + named.slice(at + exportId!.length + 1));
  keys.push(`${manifestFolder}data/${named.slice(named.lastIndexOf('/') + 1)}`);
  return [...new Set(keys)];
}

/**
 * Finds each data file the manifest names: in the listing of the manifest's folder, else (a key outside the
 * folder) with `head`. Fails naming every file found nowhere.
 */
export async function resolveDataFiles(
  named: readonly string[],
  manifestFolder: string,
  inFolder: ReadonlyMap<string, ListedObject>,
  head: (key: string) => Promise<ListedObject | null>,
): Promise<ListedObject[]> {
  const missing: string[] = [];
  const found: ListedObject[] = [];
  for (const key of named) {
    let object: ListedObject | null = null;
    for (const candidate of candidateKeys(key, manifestFolder)) {
      object = inFolder.get(candidate) ?? (candidate.startsWith(manifestFolder) ? null : await head(candidate));
      if (object) break;
    }
    if (object) found.push(object);
    else missing.push(key);
  }
  if (missing.length > 0) {
    throw new InvalidRequestError([
      `export ${manifestFolder}${MANIFEST_SUMMARY}: data files not found (as named, nor ` +
        `under ${manifestFolder}): ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? `, and ${missing.length - 5} more` : ''}`,
    ]);
  }
  return found;
}

function parseJson(text: string, where: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new InvalidRequestError([`${where}: not a DynamoDB export manifest (not a JSON object)`]);
}
