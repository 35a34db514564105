import { isUtf8 } from 'node:buffer';

/** Offset of the first byte that does not start a valid UTF-8 character (only runs on bad records). */
export function firstInvalidUtf8(raw: Buffer): number {
  for (let i = 0; i < raw.length;) {
    const lead = raw[i];
    const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (!isUtf8(raw.subarray(i, i + length))) return i;
    i += length;
  }
  return raw.length;
}
