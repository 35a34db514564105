import { csvRecordFormat } from './csv/csv-format.js';
import type { RecordFormat } from './record-format.js';
import type { ResolvedFormat } from '../request/import-request.js';
import { InvalidRequestError } from '../runtime/errors.js';

/**
 * The reader and mapper for a request's format. A format without `type` is CSV: workflow state written
 * before formats had types (a redriven execution) holds CSV requests only.
 */
export function createRecordFormat(format: ResolvedFormat): RecordFormat {
  switch (format.type) {
    case 'jsonl':
    case 'dynamodb-json':
      throw new InvalidRequestError([`format.type: ${format.type} cannot be read yet`]);
    default:
      return csvRecordFormat({ ...format, type: 'csv' });
  }
}
