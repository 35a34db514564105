import { CorruptSourceError } from '../contract/errors.js';
import type { Compression } from './compression.js';
import { decompressedFrom, type Damage } from './decompressed-reader.js';
import type { ReadFrom } from './source-object.js';

/** The error for damaged compressed data: which object, which codec, and where its good data ends. */
export function corruptSourceError(
  where: string,
  compression: Compression,
  damage: Damage,
  landed?: string,
): CorruptSourceError {
  return new CorruptSourceError(
    `${where} is truncated or corrupt (${compression}: ${damage.message}) at about decompressed byte ${damage.offset}, ` +
      `line ${damage.line}${landed ? `; ${landed}` : ''}`,
  );
}

/**
 * An object's data from a (decompressed) offset, for preflight: a plain object's range reads as they are; a
 * compressed one decompressed from its start (`readObject(0)`), its output skipped up to the offset. Damaged
 * compressed data fails with CorruptSourceError once the good data before it has been read. `lineAt` is the
 * line at the offset, for the error's line number.
 */
export function objectData(
  readObject: ReadFrom,
  compression: Compression,
  where: string,
): (offset: number, lineAt?: number) => AsyncIterable<Buffer> {
  if (compression === 'none') return readObject;
  return async function* read(offset, lineAt = 1) {
    const stream = decompressedFrom(readObject(0), compression, { offset, line: lineAt }, where);
    yield* stream;
    if (stream.damage) throw corruptSourceError(where, compression, stream.damage);
  };
}

/** The first bytes of a stream (up to `max`), and whether the stream ended within them. */
export async function peek(read: AsyncIterable<Buffer>, max: number): Promise<{ bytes: Buffer; ended: boolean }> {
  const parts: Buffer[] = [];
  let length = 0;
  for await (const buf of read) {
    parts.push(buf);
    length += buf.length;
    if (length > max) return { bytes: Buffer.concat(parts), ended: false };
  }
  return { bytes: Buffer.concat(parts), ended: true };
}
