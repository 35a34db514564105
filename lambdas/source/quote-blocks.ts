import { RECORD_END, STATE_MASK, STATES, transitionTable, type DfaDialect } from './quote-dfa.js';

/**
 * The quote automaton (quote-dfa.ts) four and eight bytes at a time, for the RecordScanner's quote-dense path
 * (block-scan.ts walks these tables).
 *
 * Walking the byte table is one chain of dependent loads (the next state needs the previous one's entry): about
 * 5-7 cycles a byte whatever the CPU's width. The automaton only tells four kinds of byte apart (LF, quote,
 * delimiter, other), so four bytes make an 8-bit class index, computed from the data alone, off that chain: one
 * 32-bit load, each 16-bit half looked up in a 64 KiB pair-class table. Per class index, `moves` gives the state
 * four bytes later for each of the four states at once (2 bits each); `steps` does the same for eight bytes (two
 * indexes, 128 KiB), so the chain is one shift and a mask per eight bytes; `blocks` gives, for a state and an
 * index, which bytes ended a record, looked up only when one did. Exact by construction: every entry is the byte
 * table walked over the bytes.
 */

/** Bits of a `moves` entry: 0-7 the state after the block per start state, 8-11 "a record ended" per start state. */
const MOVES_ENDED_SHIFT = 8;
/** Bits 12-14 of a `moves` entry: the block's LFs (in quotes or not: every LF counts as a line). */
const MOVES_LFS_SHIFT = 12;
/** Bits 2-5 of a `blocks` entry: which of the four bytes was a LF ending a record, the first byte lowest. */
const BLOCKS_ENDS_SHIFT = 2;
/** `lfsUpTo`: 4 bits per byte of a block (0-4 LFs in a block; the scan adds two blocks' fields, 0-8). */
const LFS_FIELD_BITS = 4;

/** The tables of a quoting dialect, indexed by the class index of a four-byte block (bytes 0-3: bits 0-7). */
export interface BlockTables {
  /** Two bytes as a little-endian 16-bit value (first byte low) to their classes (4 bits, first byte low). */
  readonly pairs: Uint8Array;
  /** Class index to: the state after the block from each state, whether a record ended, the LFs (bits above). */
  readonly moves: Uint16Array;
  /** `moves` of eight bytes, indexed by two class indexes (`low | high << 8`); the LFs (0-8) in bits 12-15. */
  readonly steps: Uint16Array;
  /** `state << 8 | index` to: the state after (bits 0-1), which bytes ended a record (bits 2-5). */
  readonly blocks: Uint8Array;
  /** Class index to the LFs among its bytes 0..k, in 4-bit field k: the lines at an end inside the block. */
  readonly lfsUpTo: Uint16Array;
}

const cache = new Map<string, BlockTables>();

/** The block tables of a quoting dialect (cached: a handful of dialects exist per process). */
export function blockTables(dialect: DfaDialect): BlockTables {
  const id = `${dialect.delimiter}/${dialect.quote ?? ''}`;
  let tables = cache.get(id);
  if (!tables) {
    const { classes, representatives } = classesOf(dialect);
    const pairs = new Uint8Array(1 << 16);
    // Little-endian: the first byte in memory is the low one (record-ends.ts walks big-endian memory by bytes).
    for (let pair = 0; pair < 1 << 16; pair++) pairs[pair] = classes[pair & 0xff] | (classes[pair >> 8] << 2);
    const entries = blockEntries(transitionTable(dialect), representatives);
    tables = { pairs, ...entries, steps: stepEntries(entries.moves) };
    cache.set(id, tables);
  }
  return tables;
}

/** One byte of each class (other, LF, quote, delimiter), and the class of every byte. */
function classesOf(dialect: DfaDialect): { classes: Uint8Array; representatives: number[] } {
  const other = [0, 1, 2].find((byte) => byte !== dialect.delimiter && byte !== dialect.quote) ?? 3;
  const representatives = [other, 0x0a, dialect.quote ?? 0x0a, dialect.delimiter];
  // The first class whose byte it is: the byte table's own order (LF, then quote, then delimiter).
  const classes = Uint8Array.from(
    { length: 256 },
    (_, byte) => [1, 2, 3].find((k) => representatives[k] === byte) ?? 0,
  );
  return { classes, representatives };
}

/** `moves`, `blocks` and `lfsUpTo`: the byte table walked over the four representative bytes of each index. */
function blockEntries(byteTable: Uint8Array, representatives: number[]): Omit<BlockTables, 'pairs' | 'steps'> {
  const moves = new Uint16Array(256);
  const blocks = new Uint8Array(STATES << 8);
  const lfsUpTo = new Uint16Array(256);
  for (let index = 0; index < 256; index++) {
    for (let state = 0; state < STATES; state++) {
      let at = state;
      let ends = 0;
      let lfs = 0;
      for (let k = 0; k < 4; k++) {
        const entry = byteTable[(at << 8) | representatives[(index >> (2 * k)) & 3]];
        if ((entry & RECORD_END) !== 0) ends |= 1 << k;
        if (entry > STATE_MASK) lfs++;
        if (state === 0) lfsUpTo[index] |= lfs << (LFS_FIELD_BITS * k);
        at = entry & STATE_MASK;
      }
      blocks[(state << 8) | index] = at | (ends << BLOCKS_ENDS_SHIFT);
      moves[index] |= (at << (2 * state)) | (ends !== 0 ? 1 << (MOVES_ENDED_SHIFT + state) : 0);
      moves[index] |= lfs << MOVES_LFS_SHIFT; // the same for every state
    }
  }
  return { moves, blocks, lfsUpTo };
}

/** `steps`: two `moves` entries composed, for every pair of class indexes. */
function stepEntries(moves: Uint16Array): Uint16Array {
  const steps = new Uint16Array(1 << 16);
  for (let index = 0; index < 1 << 16; index++) {
    const low = moves[index & 0xff];
    const high = moves[index >> 8];
    let entry = ((low >> MOVES_LFS_SHIFT) + (high >> MOVES_LFS_SHIFT)) << MOVES_LFS_SHIFT;
    for (let state = 0; state < STATES; state++) {
      const mid = (low >> (2 * state)) & STATE_MASK;
      entry |= ((high >> (2 * mid)) & STATE_MASK) << (2 * state);
      if ((((low >> state) | (high >> mid)) & (1 << MOVES_ENDED_SHIFT)) !== 0)
        entry |= 1 << (MOVES_ENDED_SHIFT + state);
    }
    steps[index] = entry;
  }
  return steps;
}
