/**
 * Rejects of a chunk that found its own first record (a chunk without `line`) carry lines counted from that
 * record, so they are written under `<execution folder>/relative/<chunk index>-<name>.csv`; Summarize, which
 * knows every chunk's line count, rewrites each as `<execution folder>/<name>.csv` with absolute lines and
 * deletes it. The one place both sides take the name from.
 */
export const RELATIVE_REJECTS_FOLDER = 'relative';

/** The key of a chunk's rejects file with chunk-relative lines. */
export function relativeRejectsKey(executionFolder: string, chunkIndex: number, name: string): string {
  return `${executionFolder}/${RELATIVE_REJECTS_FOLDER}/${chunkIndex}-${name}.csv`;
}

/** The chunk index and final key of a relative rejects file, or null for a key that is not one. */
export function parseRelativeRejectsKey(
  executionFolder: string,
  key: string,
): { readonly chunkIndex: number; readonly finalKey: string } | null {
  const match = new RegExp(`^${escape(executionFolder)}/${RELATIVE_REJECTS_FOLDER}/(\\d+)-(.+\\.csv)$`).exec(key);
  return match ? { chunkIndex: Number(match[1]), finalKey: `${executionFolder}/${match[2]}` } : null;
}

/**
 * How every row of one object's rejects file ends (import/rejects.ts): `,"<object key, quotes doubled>"` and an LF.
 * Inside a quoted field every quote is doubled, so this cannot occur before a row's end: a `"` after a comma and
 * before the key's first character opens a field, and the `"` before the LF closes the row's last field. Summarize
 * finds row ends by it (summarize/absolute-lines.ts), with no need to look at each quote of a record.
 */
export function rejectsRowEnding(objectKey: string): Buffer {
  return Buffer.from(`,"${objectKey.replace(/"/g, '""')}"\n`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
