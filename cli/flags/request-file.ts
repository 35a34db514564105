import { readFile } from 'node:fs/promises';
import { resolveImportRequest } from '../../lambdas/request/resolve-request.js';
import { type ImportRequest } from '../../lambdas/contract/import-request.js';
import type { RequestFlags } from './cli-args.js';

/** The --request file cannot be read or is not JSON (a bad payload is an InvalidRequestError, as in the cloud). */
export class RequestFileError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RequestFileError';
  }
}

/** Where the objects are: filled in by the CLI over whatever a request file says. */
export type Location = { readonly bucket: string } & ({ readonly key: string } | { readonly prefix: string });

/** Reads `--request req.json`: a JSON object, as a user would pass to StartExecution. */
export async function readRequestFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new RequestFileError(`cannot read --request ${path}: ${(error as Error).message}`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RequestFileError(`--request ${path} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RequestFileError(
      `--request ${path} must hold a JSON object (the request), got ${JSON.stringify(value)?.slice(0, 40)}`,
    );
  }
  return value as Record<string, unknown>;
}

/**
 * The request every CLI command runs (`local`, `start`, `estimate`): a request file's fields, then the flags
 * given on the command line over them, then the source's bucket and key (or prefix), which always win.
 * Checked with the handlers' own validator, so a bad request fails here, before anything is uploaded or
 * started, naming each field (InvalidRequestError, as a deployed execution would).
 */
export function buildRequest(
  flags: Omit<RequestFlags, 'json'>,
  file: Record<string, unknown>,
  location: Location,
): ImportRequest {
  const { key: _key, prefix: _prefix, bucket: _bucket, ...fromFile } = file;
  const fileFormat = typeof file.format === 'object' && file.format !== null ? file.format : {};
  const fileTypes = typeof file.types === 'object' && file.types !== null ? file.types : {};
  const format = { ...fileFormat, ...flags.format };
  const types = { ...fileTypes, ...flags.types };
  const fileAttributes = typeof file.attributes === 'object' && file.attributes !== null ? file.attributes : {};
  const attributes = { ...fileAttributes, ...flags.attributes };
  const request = {
    ...fromFile,
    ...location,
    ...(flags.table !== undefined ? { table: flags.table } : {}),
    ...(Object.keys(format).length > 0 ? { format } : {}),
    ...(Object.keys(types).length > 0 ? { types } : {}),
    ...(flags.chunkMiB !== undefined ? { chunkMiB: flags.chunkMiB } : {}),
    ...(flags.maxWriteRate > 0 ? { maxWriteRate: flags.maxWriteRate } : {}),
    ...(flags.spread ? { spread: true } : {}),
    ...(flags.warmThroughput !== undefined ? { warmThroughput: flags.warmThroughput } : {}),
    ...(flags.mode !== undefined ? { mode: flags.mode } : {}),
    ...(flags.dryRun ? { dryRun: true } : {}),
    ...(flags.attributes !== undefined ? { attributes } : {}),
    ...(flags.exclude !== undefined ? { exclude: flags.exclude } : {}),
    ...(flags.allowWithoutBackup ? { allowWithoutBackup: true } : {}),
  } as ImportRequest;
  resolveImportRequest(request);
  return request;
}
