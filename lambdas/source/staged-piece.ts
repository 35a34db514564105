/**
 * The key of the staged piece of object `object` (its index in the import's objects) that starts at decompressed
 * byte `start`: `<stagingPrefix>/<execution>/<object>-<start>`. Preflight writes it, the chunk's import reads and
 * then deletes it; a lifecycle rule on the staging prefix removes what a failed import leaves.
 */
export function stagedPieceKey(staging: string, object: number, start: number): string {
  return `${staging}/${object}-${start}`;
}
