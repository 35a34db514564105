/**
 * A row as JSON text, for the rejects file's `record` column: BigInts as their digits, bytes as base64 (JSON has
 * neither), so a user sees what the row held.
 */
export function parquetRowText(row: Record<string, unknown>): string {
  return JSON.stringify(row, (_key, value: unknown) => {
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
    return value;
  });
}
