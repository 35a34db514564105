import type { DataStart, RecordFormat } from '../formats/record-format.js';
import type { ResolvedRequest } from '../contract/import-request.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import type { Compression } from '../source/compression.js';
import { peek } from '../source/object-data.js';
import type { ReadFrom } from '../source/source-object.js';

/**
 * Of a compressed object, this much is decompressed first to see whether it is empty: its decompressed size is
 * unknown, and an empty .gz must read as an empty file (0 rows), not as a header that never ends.
 */
const PEEK_BYTES = 64 * 1024;
/** Headers read at once when an import has many objects (each read is one GET of the object's start). */
export const HEADER_READS_AT_ONCE = 8;

/** What the header step found at the start of one object, and whether its data could hold any record. */
export interface ObjectStart extends DataStart {
  readonly hasData: boolean;
}

/**
 * Reads the start of one object with its format's own step (a CSV header; for JSON formats the first record,
 * checked against `keys` when given). A compressed object's data is `read` (decompressed
 * from the start); its size is unknown, so its first bytes are peeked at to tell an empty object from one that
 * is not.
 */
export async function readObjectStart(
  format: RecordFormat,
  request: ResolvedRequest,
  read: ReadFrom,
  size: number,
  compression: Compression,
  keys: readonly KeyAttribute[] = [],
): Promise<ObjectStart> {
  // A key computed from `attributes` is not in the record itself (attribute-check.ts checks it).
  const inRecord = keys.filter((key) => !Object.hasOwn(request.attributes ?? {}, key.name));
  if (compression === 'none') {
    const start = await format.readStart(read, size, inRecord);
    return { ...start, hasData: start.dataStart < size };
  }
  const { bytes, ended } = await peek(read(0), PEEK_BYTES);
  const known = ended ? bytes.length : Number.MAX_SAFE_INTEGER;
  const start = await format.readStart(
    ended
      ? async function* () {
          yield bytes;
        }
      : read,
    known,
    inRecord,
  );
  return { ...start, hasData: start.dataStart < known };
}
