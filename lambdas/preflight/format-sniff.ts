import type { ImportRequest } from '../contract/import-request.js';
import type { SourceSet } from '../contract/workflow-payloads.js';
import { namesFormat, PARQUET_MAGIC } from '../request/detect-format.js';
import { peek } from '../source/object-data.js';
import { sourceObject } from '../source/source-set.js';
import type { FooterIo } from './parquet-objects.js';

const MAGIC_BYTES = PARQUET_MAGIC.length;

/**
 * The request to resolve, with `format.type: "parquet"` when the request names no format, the first object's key
 * names none either (`part-00000`, `data.bin`: it would be read as CSV) and its first 4 bytes are Parquet's magic
 * `PAR1`. One small range GET of an object the header step reads anyway; a request that names a format, or a key
 * whose extension does, is taken at its word.
 */
export async function withSniffedFormat(
  input: ImportRequest,
  sources: SourceSet,
  formatKey: string,
  io: FooterIo,
): Promise<ImportRequest> {
  const first = sources.objects[0];
  if (input.format?.type !== undefined || namesFormat(formatKey) || first.size < MAGIC_BYTES) return input;
  const source = sourceObject(input.bucket, sources, 0);
  const { bytes } = await peek(io.readFrom(source, MAGIC_BYTES)(0), MAGIC_BYTES);
  if (bytes.subarray(0, MAGIC_BYTES).toString('latin1') !== PARQUET_MAGIC) return input;
  return { ...input, format: { ...input.format, type: 'parquet' } };
}
