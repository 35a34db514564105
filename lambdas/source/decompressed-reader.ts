import { Readable } from 'node:stream';
import { createDecompressor, type Compression } from './compression.js';

const LF = 0x0a;
/**
 * A line longer than this is passed on without waiting for its end: the importer rejects any record over
 * 4 MiB by byte range anyway (import/chunk-importer.ts MAX_RECORD_BYTES), so holding more back buys nothing.
 */
const MAX_HELD_BYTES = 8 * 1024 * 1024;

/** Where the good data of a damaged (truncated or corrupt) compressed object ends. */
export interface Damage {
  /** Decompressed byte offset of the end of the last whole line before the damage. */
  readonly offset: number;
  /** 1-based line that would have started there. */
  readonly line: number;
  /** The decompressor's own words, e.g. "unexpected end of file". */
  readonly message: string;
}

/** A decompressed view of an object from a (decompressed) offset; `damage` is set once reading hit bad data. */
export interface DecompressedStream extends AsyncIterable<Buffer> {
  readonly damage: Damage | null;
}

/**
 * Decompresses `compressed` (the whole object, as range GETs stream it) and yields the decompressed bytes from
 * `from.offset` on: a compressed object cannot be read from the middle, so resuming at a checkpoint means
 * decompressing again from the start and skipping. Output is cut at line ends: should the data turn out
 * truncated or corrupt, the partial line before the damage is dropped (never imported as a short record), the
 * stream ends cleanly and `damage` tells where. Errors of the source itself (a changed or missing object) are
 * thrown as they are.
 */
export function decompressedFrom(
  compressed: AsyncIterable<Buffer>,
  compression: Exclude<Compression, 'none'>,
  from: { readonly offset: number; readonly line: number },
  where: string,
): DecompressedStream {
  const stream = {
    damage: null as Damage | null,
    [Symbol.asyncIterator]: () => generate(compressed, compression, from, where, (damage) => (stream.damage = damage)),
  };
  return stream;
}

async function* generate(
  compressed: AsyncIterable<Buffer>,
  compression: Exclude<Compression, 'none'>,
  from: { offset: number; line: number },
  where: string,
  onDamage: (damage: Damage) => void,
): AsyncGenerator<Buffer> {
  const source = Readable.from(compressed, { objectMode: false });
  const inflate = createDecompressor(compression, where);
  let sourceError: unknown;
  source.on('error', (error) => {
    sourceError = error;
    inflate.destroy(error);
  });
  source.pipe(inflate);
  let position = 0; // decompressed bytes seen
  let delivered = from.offset; // decompressed offset up to which whole lines were yielded
  let lines = 0;
  let held: Buffer[] = [];
  let heldBytes = 0;
  try {
    for await (const out of inflate as AsyncIterable<Buffer>) {
      const skip = Math.max(0, Math.min(out.length, from.offset - position));
      position += out.length;
      if (skip === out.length) continue;
      const fresh = skip > 0 ? out.subarray(skip) : out;
      const lastLf = fresh.lastIndexOf(LF);
      if (lastLf === -1 && heldBytes + fresh.length <= MAX_HELD_BYTES) {
        held.push(fresh);
        heldBytes += fresh.length;
        continue;
      }
      const cut = lastLf === -1 ? fresh.length : lastLf + 1;
      const whole = held.length > 0 ? Buffer.concat([...held, fresh.subarray(0, cut)]) : fresh.subarray(0, cut);
      held = cut < fresh.length ? [fresh.subarray(cut)] : [];
      heldBytes = fresh.length - cut;
      lines += countLineFeeds(whole);
      delivered += whole.length;
      yield whole;
    }
    if (heldBytes > 0) yield Buffer.concat(held); // the last line may lack its line feed
  } catch (error) {
    if (sourceError !== undefined) throw sourceError; // the object itself failed: not the data's fault
    onDamage({ offset: delivered, line: from.line + lines, message: (error as Error).message });
  } finally {
    source.destroy();
    inflate.destroy();
  }
}

function countLineFeeds(buf: Buffer): number {
  let count = 0;
  for (let at = buf.indexOf(LF); at !== -1; at = buf.indexOf(LF, at + 1)) count++;
  return count;
}
