import { readObjectFooter, type FooterIo } from './parquet-objects.js';
import type { PlannedObject } from './planning-inputs.js';
import type { ByteRange } from './range-planner.js';
import { SourceTooLargeError } from '../contract/errors.js';
import type { ParquetFooter, RowGroupSpan } from '../formats/parquet/parquet-footer.js';

const MIB = 1024 * 1024;
/**
 * An import holds one row group's column chunks (1x its compressed size) and decodes its rows a slice at a time
 * (formats/parquet/row-group-reader.ts): budget 3x the compressed size for the chunks, their decompressed pages
 * and the slice's rows, plus 200 MiB for the runtime, the SDK and the write path.
 */
export const ROW_GROUP_MEMORY_FACTOR = 3;
export const IMPORT_BASE_MIB = 200;

/**
 * Cuts one Parquet object's row groups into chunks: consecutive whole row groups, a chunk closed once it holds
 * `chunkBytes` of compressed data, as a byte-record chunk closes at the first record boundary past it (so the
 * chunk count stays within the budget chunk-budget.ts computed from the objects' sizes). A chunk is the byte range
 * of its row groups and `line` the 1-based number of its first row (see Chunk).
 */
export function planRowGroupChunks(groups: readonly RowGroupSpan[], chunkBytes: number): ByteRange[] {
  const chunks: ByteRange[] = [];
  let open: { start: number; end: number; line: number } | null = null;
  for (const group of groups) {
    if (group.rows === 0) continue;
    open ??= { start: group.start, end: group.start, line: group.firstRow + 1 };
    open.end = group.end;
    if (open.end - open.start >= chunkBytes) {
      chunks.push(open);
      open = null;
    }
  }
  if (open) chunks.push(open);
  return chunks;
}

/**
 * Fails before any write when a row group is too big for the import function's memory: a lane reads a row group
 * whole, so an out-of-memory crash there would fail every retry. Names the row group and its size.
 */
export function checkRowGroupMemory(groups: readonly RowGroupSpan[], importMemoryMb: number, where: string): void {
  for (const group of groups) {
    const compressedMib = (group.end - group.start) / MIB;
    const needMib = ROW_GROUP_MEMORY_FACTOR * compressedMib + IMPORT_BASE_MIB;
    if (needMib > importMemoryMb) {
      throw new SourceTooLargeError(
        `${where}: row group ${group.index} is ${compressedMib.toFixed(1)} MiB compressed; importing it needs about ` +
          `${Math.ceil(needMib)} MB (${ROW_GROUP_MEMORY_FACTOR} x its size + ${IMPORT_BASE_MIB} MB), more than the ` +
          `import function's ${importMemoryMb} MB: give the import function more memory (importMemorySize) or ` +
          'write the file with smaller row groups',
      );
    }
  }
}

/**
 * One Parquet object's chunks, from its footer alone (never its data), after the memory check; `end` is where its
 * data ends, as the final planning checkpoint names it.
 */
export function parquetObjectChunks(
  groups: readonly RowGroupSpan[],
  chunkBytes: number,
  memoryMb: number,
  where: string,
) {
  checkRowGroupMemory(groups, memoryMb, where);
  const last = groups.at(-1);
  const end = { offset: last?.end ?? 0, line: (last ? last.firstRow + last.rows : 0) + 1 };
  return { ranges: planRowGroupChunks(groups, chunkBytes), end };
}

/**
 * Plans one Parquet object from its footer: the one the columns step kept (`footers`, by object index), else read
 * now (an invocation that resumes planning).
 */
export async function planParquetObject(
  object: PlannedObject,
  footers: readonly ParquetFooter[] | undefined,
  chunkBytes: number,
  { importMemoryMb, io }: { readonly importMemoryMb: number; readonly io: FooterIo },
) {
  const footer = footers?.[object.index] ?? (await readObjectFooter(object, io));
  return { ...parquetObjectChunks(footer.rowGroups, chunkBytes, importMemoryMb, object.where), next: null };
}
