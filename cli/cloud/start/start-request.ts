import { createHash } from 'node:crypto';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';

/** The execution input `start` sends: the one request type (a key, or a folder's prefix). */
export type StartRequest = ImportRequest;

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
