import { rejectsRowEnding } from '../contract/relative-rejects.js';

/** A row that did not become an item, with where it is in the object and why. */
export interface RejectedRow {
  readonly line: number;
  readonly offset: number;
  readonly reason: string;
  /** The record's bytes as in the file (line ending removed), or null when too large to copy. */
  readonly raw: Buffer | null;
  /** The record's length in bytes in the object. */
  readonly length: number;
}

const QUOTE = Buffer.from('"');

/** CSV field: quoted, quotes doubled. Works on bytes so an invalid-UTF-8 record is kept as it was. */
function csvField(bytes: Buffer): Buffer {
  const parts: Buffer[] = [QUOTE];
  let from = 0;
  for (let at = bytes.indexOf(0x22); at !== -1; at = bytes.indexOf(0x22, at + 1)) {
    parts.push(bytes.subarray(from, at + 1), QUOTE);
    from = at + 1;
  }
  parts.push(bytes.subarray(from), QUOTE);
  return Buffer.concat(parts);
}

/** Strips the record's own line ending so the rejects file holds one CSV row per rejected record. */
function withoutLineEnding(raw: Buffer): Buffer {
  let end = raw.length;
  if (end > 0 && raw[end - 1] === 0x0a) end--;
  if (end > 0 && raw[end - 1] === 0x0d) end--;
  return raw.subarray(0, end);
}

/** The rejects file's header row. */
export const REJECTS_HEADER = 'line,byte_offset,reason,record,object\n';

/** The last field of every row of one object's rejects (with the row's LF). */
export const objectField = rejectsRowEnding;

/** One row of the rejects file (see formatRejects); `object` is objectField(key). */
export function formatRejectRow(row: RejectedRow, object: Buffer): Buffer {
  const record = row.raw
    ? withoutLineEnding(row.raw)
    : Buffer.from(
        `(not copied: ${row.length} bytes at ${row.offset}-${row.offset + row.length - 1} of the source object)`,
      );
  return Buffer.concat([
    Buffer.from(`${row.line},${row.offset},`),
    csvField(Buffer.from(row.reason)),
    Buffer.from(','),
    csvField(record),
    object,
  ]);
}

/**
 * The rejects file: a CSV with `line,byte_offset,reason,record,object`, so a user can fix the records and
 * import the `record` column again. A record too large to copy names its byte range instead. `object` (last, so
 * readers of the first four columns are unaffected) is the key of the object the row came from; line and
 * byte_offset count in that object (in its decompressed data when it is compressed).
 */
export function formatRejects(rows: readonly RejectedRow[], object: string): Buffer {
  const field = objectField(object);
  return Buffer.concat([Buffer.from(REJECTS_HEADER), ...rows.map((row) => formatRejectRow(row, field))]);
}
