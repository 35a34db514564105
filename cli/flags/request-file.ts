import { readFile } from 'node:fs/promises';
import { resolveImportRequest } from '../../lambdas/request/resolve-request.js';
import type { ImportRequest, ResolvedRequest } from '../../lambdas/contract/import-request.js';
import type { RequestFlags } from './request-flags.js';
import { CliError } from '../output/cli-error.js';

/** The --request file cannot be read or is not JSON (a bad payload is an InvalidRequestError, as in the cloud). */
export class RequestFileError extends CliError {
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
 * `--request` (when given) read first, so a bad file is named even when the source is missing too; then the source
 * placed (`place` gives what it made and the bucket and key or prefix the request names); then the request built over
 * both (buildRequest). Returns the request and what `place` made.
 */
export async function readAndBuildRequest<P>(
  flags: RequestFlags,
  path: string | undefined,
  place: () => Promise<{ placed: P; location: Location }>,
): Promise<{ placed: P; request: BuiltRequest }> {
  const file = path ? await readRequestFile(path) : {};
  const { placed, location } = await place();
  return { placed, request: buildRequest(flags, file, location) };
}

/** A request as the CLI sends it (the execution input) and as the handlers' validator resolved it, once. */
export interface BuiltRequest {
  readonly input: ImportRequest;
  readonly resolved: ResolvedRequest;
}

/**
 * The request every CLI command runs (`local`, `start`, `estimate`): a request file's fields, then the flags
 * given on the command line over them, then the source's bucket and key (or prefix), which always win.
 * Resolved with the handlers' own validator, here and only here, so a bad request fails before anything is
 * uploaded or started, naming each field (InvalidRequestError, as a deployed execution would).
 */
export function buildRequest(flags: RequestFlags, file: Record<string, unknown>, location: Location): BuiltRequest {
  const { key: _key, prefix: _prefix, bucket: _bucket, ...fromFile } = file;
  const input = { ...fromFile, ...location, ...flags, ...mergedWithFile(flags, file) } as ImportRequest;
  return { input, resolved: resolveImportRequest(input) };
}

/** `format`, `types` and `attributes` given both ways: the file's entries, the flags' over them. */
function mergedWithFile(flags: RequestFlags, file: Record<string, unknown>): RequestFlags {
  const fromFile = (field: 'format' | 'types' | 'attributes') =>
    typeof file[field] === 'object' && file[field] !== null ? file[field] : {};
  return {
    ...(flags.format ? { format: { ...fromFile('format'), ...flags.format } } : {}),
    ...(flags.types ? { types: { ...fromFile('types'), ...flags.types } } : {}),
    ...(flags.attributes ? { attributes: { ...fromFile('attributes'), ...flags.attributes } } : {}),
  };
}
