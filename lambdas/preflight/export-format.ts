import { InvalidRequestError } from '../contract/errors.js';
import type { ImportRequest } from '../contract/import-request.js';
import { EXPORT_FORMATS, type ExportFormat } from '../source/dynamodb-export.js';

/**
 * The request with the format a DynamoDB export's manifest names (`outputFormat`), to be resolved again: an
 * export's data files are read in that format whatever their names say (AWS's own example names them
 * `*.json.gz` for either format, https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html).
 * A request that asks for another `format.type` fails before any write. Other sources: the request as it is.
 */
export function withExportFormat(input: ImportRequest, exportFormat: ExportFormat | undefined): ImportRequest {
  if (exportFormat === undefined) return input;
  const type = EXPORT_FORMATS[exportFormat];
  const asked = input.format?.type;
  if (asked !== undefined && asked !== type) {
    throw new InvalidRequestError([
      `format.type: ${JSON.stringify(asked)}, but the export's manifest-summary.json says outputFormat ` +
        `${exportFormat}, which is read as ${JSON.stringify(type)} (leave format.type out for an export)`,
    ]);
  }
  return { ...input, format: { ...input.format, type } };
}
