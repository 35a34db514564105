import { readFile } from 'node:fs/promises';
import { resolveImportRequest, type ImportRequest } from '../lambdas/request/import-request.js';

/** The --request file cannot be read or is not JSON (a bad payload is an InvalidRequestError, as in the cloud). */
export class RequestFileError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'RequestFileError';
  }
}

/**
 * The StartExecution payload in `path` as it runs for the uploaded file: `bucket` and `key` replaced by the local
 * upload's, every other field exactly as written. Checked by resolveImportRequest, the validator preflight runs,
 * so a payload refused here is refused by a deployed execution too (InvalidRequestError naming each field).
 */
export async function loadRequestFile(path: string, bucket: string, key: string): Promise<ImportRequest> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new RequestFileError(`cannot read --request ${path}: ${(error as Error).message}`, { cause: error });
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    throw new RequestFileError(`--request ${path} is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const request =
    typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? { ...payload, bucket, key } : payload;
  resolveImportRequest(request);
  return request as ImportRequest;
}
