import { buffer } from 'node:stream/consumers';
import type { SourceSet } from '../contract/workflow-payloads.js';
import { namesFormat, PARQUET_MAGIC } from '../request/detect-format.js';
import { objectKey, sourceObject } from '../source/source-set.js';
import type { FooterIo } from '../chunk-layouts/parquet-objects.js';

const MAGIC_BYTES = PARQUET_MAGIC.length;

/**
 * Whether the import's first object is Parquet by its bytes though no name says a format: its key names none
 * (`part-00000`, `data.bin`: it would be read as CSV) and its first 4 bytes are Parquet's magic `PAR1`. One range
 * GET of 4 bytes, made only for such a key; resolve-format.ts reads the object as Parquet unless the request names
 * a `format.type`.
 */
export async function startsWithParquetMagic(bucket: string, sources: SourceSet, io: FooterIo): Promise<boolean> {
  const first = sources.objects[0];
  if (namesFormat(objectKey(sources, 0)) || first.size < MAGIC_BYTES) return false;
  const bytes = await buffer(io.readFrom(sourceObject(bucket, sources, 0), MAGIC_BYTES)(0));
  return bytes.subarray(0, MAGIC_BYTES).toString('latin1') === PARQUET_MAGIC;
}
