import type { RowMark } from './item-sink.js';

/** What a row read ahead becomes: a row of its own (an entry), or a row combined into an earlier held row of its key. */
export interface Carrier {
  /** Acknowledged by the table. @default false */
  written?: boolean;
  /** Combined into another held entry (the one that now carries its rows). */
  into?: Carrier;
}

/** One row the lane read, in file order: where it is and what carries it to the table. */
interface SpanRow {
  readonly at: RowMark;
  readonly carrier: Carrier;
  /** The row that made its carrier (it counts as written); false for a row combined into an earlier one. */
  readonly own: boolean;
}

/** The carrier that finally carries `carrier`'s rows (a row combined into a row later combined again). */
function rootOf(carrier: Carrier): Carrier {
  let root = carrier;
  while (root.into) root = root.into;
  return root;
}

/**
 * The rows a lane read ahead of its first unwritten row, in file order: what lets a lane that stops (a pause, its
 * deadline) give back a checkpoint whose earlier records are all written, and the rows it had read after it to be
 * read again. Rows before the first unwritten one leave the span and are counted: each as written (its own entry was
 * acknowledged) or as combined into a written row. Memory: one small record per row between the first unwritten row
 * and the last row read (the windowed sender bounds both in rows and bytes).
 *
 * @example
 * ```ts
 * const span = new ReadSpan();
 * span.push(mark, entry, true); // as each row is read
 * entry.written = true; span.advance(); // as replies come
 * span.first(); // the mark to resume from, or undefined when every row read is written
 * ```
 */
export class ReadSpan {
  /** Rows that left the span as written entries. */
  written = 0;
  /** Rows that left the span combined into a written entry. */
  combined = 0;
  /** Record bytes of the rows in the span (RowMark.bytes). */
  bytes = 0;
  private rows: SpanRow[] = [];
  private head = 0;

  /** Rows in the span: from the first unwritten row to the last read. */
  get length(): number {
    return this.rows.length - this.head;
  }

  /** A row read: `own` when it made its carrier, false when it was combined into an earlier row of its key. */
  push(at: RowMark, carrier: Carrier, own: boolean): void {
    this.rows.push({ at, carrier, own });
    this.bytes += at.bytes;
  }

  /** Lets the written rows at the front leave the span. */
  advance(): void {
    const { rows } = this;
    while (this.head < rows.length) {
      const row = rows[this.head];
      if (!rootOf(row.carrier).written) break;
      if (row.own && row.carrier.into === undefined) this.written++;
      else this.combined++;
      this.bytes -= row.at.bytes;
      this.head++;
    }
    // Drop the front once it is most of the array: amortized O(1) per row, and the array stays near the span's size.
    if (this.head > 1024 && this.head * 2 > rows.length) [this.rows, this.head] = [rows.slice(this.head), 0];
  }

  /** The carriers of the rows in the span, oldest first (a carrier repeats for each row it carries). */
  *carriers(): Generator<Carrier> {
    for (let i = this.head; i < this.rows.length; i++) yield rootOf(this.rows[i].carrier);
  }

  /** The first row not yet written (where a stopping lane resumes), or undefined when every row read is written. */
  first(): RowMark | undefined {
    return this.head < this.rows.length ? this.rows[this.head].at : undefined;
  }
}
