/**
 * The quote-aware record reader as a four-state automaton over bytes, as csv-parse with `relax_quotes` reads a
 * record: a quote opens a quoted field only at a field start, `""` inside one is an escaped quote, and a LF
 * outside quotes ends the record. One table lookup per byte (`table[state << 8 | byte]`) gives the next state
 * and, in two flag bits, whether the byte was a LF and whether that LF ended a record. The RecordScanner walks
 * it forward; a lane that starts mid-object runs it from every state at once to learn the state at its start
 * (record-start.ts).
 */

/** Outside quotes, at the start of a field (after a delimiter or a record end): a quote here opens a quoted field. */
export const FIELD_START = 0;
/** Outside quotes, inside an unquoted field: a quote here is a literal byte. */
export const IN_FIELD = 1;
/** Inside a quoted field: a LF here is data. */
export const QUOTED = 2;
/** Inside a quoted field, just after a quote: a second quote makes `""`, anything else closed the field. */
export const QUOTE_IN_QUOTED = 3;
/** How many states there are. */
export const STATES = 4;

/** Flag bit in a table entry: the byte was a LF that ended a record. */
export const RECORD_END = 4;
/** Flag bit in a table entry: the byte was a LF inside a quoted field (data, counted as a line all the same). */
export const QUOTED_LF = 8;
/** Masks the state out of a table entry. */
export const STATE_MASK = 3;

const LF = 0x0a;

/** The dialect bytes the table is built from; `quote` undefined: quoting off (the automaton never leaves 0/1). */
export interface DfaDialect {
  readonly delimiter: number;
  readonly quote: number | undefined;
}

/** Next state of `state` on a byte of one of the four kinds the automaton tells apart, with the LF flags. */
function step(state: number, kind: 'lf' | 'quote' | 'delimiter' | 'other'): number {
  if (state === QUOTED) {
    if (kind === 'quote') return QUOTE_IN_QUOTED;
    return kind === 'lf' ? QUOTED | QUOTED_LF : QUOTED;
  }
  if (state === QUOTE_IN_QUOTED && kind === 'quote') return QUOTED; // `""`: an escaped quote, still inside
  // Outside quotes (a quote just closed a quoted field counts as outside, mid-field).
  if (kind === 'lf') return FIELD_START | RECORD_END;
  if (kind === 'delimiter') return FIELD_START;
  if (kind === 'quote' && state === FIELD_START) return QUOTED;
  return IN_FIELD;
}

const tables = new Map<string, Uint8Array>();

/** The 4 x 256 transition table of a dialect (cached: a handful of dialects exist per process). */
export function transitionTable(dialect: DfaDialect): Uint8Array {
  const id = `${dialect.delimiter}/${dialect.quote ?? ''}`;
  let table = tables.get(id);
  if (table) return table;
  table = new Uint8Array(STATES * 256);
  for (let state = 0; state < STATES; state++) {
    for (let byte = 0; byte < 256; byte++) {
      const kind =
        byte === LF ? 'lf' : byte === dialect.quote ? 'quote' : byte === dialect.delimiter ? 'delimiter' : 'other';
      table[(state << 8) | byte] = step(state, kind);
    }
  }
  tables.set(id, table);
  return table;
}

/**
 * Runs the automaton from every state at once over `buf[from, to)`: `states[i]` starts as the state a run is in
 * and ends as where that run is. Stops early once all runs agree (from then on they stay together). Returns
 * true when they agree.
 */
export function runAll(table: Uint8Array, buf: Uint8Array, from: number, to: number, states: number[]): boolean {
  let [a, b, c, d] = states;
  for (let i = from; i < to; i++) {
    const byte = buf[i];
    a = table[(a << 8) | byte] & STATE_MASK;
    b = table[(b << 8) | byte] & STATE_MASK;
    c = table[(c << 8) | byte] & STATE_MASK;
    d = table[(d << 8) | byte] & STATE_MASK;
    if (a === b && a === c && a === d) {
      states.fill(a);
      return runOne(table, buf, i + 1, to, states);
    }
  }
  states[0] = a;
  states[1] = b;
  states[2] = c;
  states[3] = d;
  return a === b && a === c && a === d;
}

/** All runs agree: walks the one state over the rest of the window. */
function runOne(table: Uint8Array, buf: Uint8Array, from: number, to: number, states: number[]): true {
  let state = states[0];
  for (let i = from; i < to; i++) state = table[(state << 8) | buf[i]] & STATE_MASK;
  states.fill(state);
  return true;
}

/**
 * From a known `state` at `buf[from]`, the index just past the first LF that ends a record, or -1 when `buf`
 * ends first; `at.state` is updated to the state where the walk stopped.
 */
export function nextRecordEnd(table: Uint8Array, buf: Uint8Array, from: number, at: { state: number }): number {
  let state = at.state;
  for (let i = from; i < buf.length; i++) {
    const entry = table[(state << 8) | buf[i]];
    state = entry & STATE_MASK;
    if ((entry & RECORD_END) !== 0) {
      at.state = state;
      return i + 1;
    }
  }
  at.state = state;
  return -1;
}
