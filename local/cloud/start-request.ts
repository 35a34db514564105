import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolveImportRequest, type ImportRequest } from '../../lambdas/request/import-request.js';
import type { RequestFlags } from '../cli-args.js';
import { CloudCommandError } from './clients.js';

/**
 * The execution input `start` sends: the request type every runner shares, naming either one object (`key`)
 * or every object under a folder (`prefix`, the sources' request field).
 */
export type StartRequest = Omit<ImportRequest, 'key'> & { readonly key?: string; readonly prefix?: string };

/** Where the objects are: filled in by the CLI over whatever a request file says. */
export type Location = { readonly bucket: string } & ({ readonly key: string } | { readonly prefix: string });

/** Reads `--request req.json`: a JSON object, as a user would pass to StartExecution. */
export async function readRequestFile(path: string): Promise<Record<string, unknown>> {
  const text = await readFile(path, 'utf8').catch((error: Error) => {
    throw new CloudCommandError(`--request ${path}: ${error.message}`);
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CloudCommandError(`--request ${path}: not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CloudCommandError(
      `--request ${path}: must hold a JSON object (the request), got ${JSON.stringify(value)?.slice(0, 40)}`,
    );
  }
  return value as Record<string, unknown>;
}

/**
 * The request: a request file's fields, then the flags given on the command line over them, then the
 * source's bucket and key (or prefix), which always win. Validated with the handlers' own validator, so a bad
 * request fails here, before anything is uploaded or started.
 */
export function buildStartRequest(
  flags: RequestFlags,
  file: Record<string, unknown>,
  location: Location,
): StartRequest {
  const { key: _key, prefix: _prefix, bucket: _bucket, ...fromFile } = file;
  const fileFormat = typeof file.format === 'object' && file.format !== null ? file.format : {};
  const fileTypes = typeof file.types === 'object' && file.types !== null ? file.types : {};
  const format = { ...fileFormat, ...flags.format };
  const types = { ...fileTypes, ...flags.types };
  const request = {
    ...fromFile,
    ...location,
    table: flags.table ?? file.table,
    ...(Object.keys(format).length > 0 ? { format } : {}),
    ...(Object.keys(types).length > 0 ? { types } : {}),
    ...(flags.chunkMiB !== undefined ? { chunkMiB: flags.chunkMiB } : {}),
    ...(flags.maxWriteRate > 0 ? { maxWriteRate: flags.maxWriteRate } : {}),
    ...(flags.spread ? { spread: true } : {}),
  } as StartRequest;
  if (request.table === undefined)
    throw new CloudCommandError('--table is required (or a "table" in the --request file)');
  checkRequest(request);
  return request;
}

/**
 * The handlers' validator names every wrong field (InvalidRequestError). A folder request is checked as if it
 * named one object under the folder: the other fields are the same, and `prefix` is the sources' field.
 */
function checkRequest(request: StartRequest): void {
  const { prefix, ...rest } = request;
  resolveImportRequest(prefix === undefined ? rest : { ...rest, key: rest.key ?? `${prefix}object` });
}

/** `20250314-092653`: the UTC second, sortable, and valid in execution names and S3 keys. */
export function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * A readable execution name that says what is imported where and when:
 * `<table>-<object name>-<UTC second>-<6 hex of the input>`, e.g. `ngrams-googlebooks-1gram-20250314-092653-3fa9c1`.
 * Only 0-9, A-Z, a-z, - and _ (what Step Functions asks of names when logging to CloudWatch Logs), at most 80
 * characters (https://docs.aws.amazon.com/step-functions/latest/apireference/API_StartExecution.html). The
 * same request started twice in one second gets the same name, and StartExecution then returns the running
 * execution instead of starting a second one; anything else gets a name of its own.
 */
export function executionName(request: StartRequest, at: Date): string {
  const object = (request.key ?? request.prefix ?? '').split('/').filter(Boolean).pop() ?? 'import';
  const stem = object.replace(/\.[^.]*$/, '') || object;
  const hash = createHash('sha256').update(JSON.stringify(request)).digest('hex').slice(0, 6);
  return [slug(request.table, 24), slug(stem, 24), stamp(at), hash].filter(Boolean).join('-');
}

function slug(text: string, max: number): string {
  return text
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
}
