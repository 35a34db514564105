import { TooManyRejectsError } from '../contract/errors.js';
import type { Item, ItemSink, RowMark } from '../write/item-sink.js';

/**
 * Without `maxRejects`, a chunk fails when this many rows are read and every one was rejected: 1,000 rows is far
 * past a stray bad line and far below the object (a wrong `types` or format rejects every row from the first).
 */
export const ALL_REJECTED_ROWS = 1_000;
/** The distinct reasons the error quotes: enough to see the pattern, few enough for one line. */
const REASONS_QUOTED = 3;

/** Rows and rejects of this chunk before this invocation (its earlier invocations': the event's progress). */
export interface ChunkCountsBefore {
  readonly rows: number;
  readonly rejected: number;
}

/**
 * One chunk invocation's reject budget, counted over the chunk's invocations. The rule, per chunk (lanes share no
 * counter): with `maxRejects` N, the chunk fails once it has rejected more than N rows; without it, once its
 * first {@link ALL_REJECTED_ROWS} rows were all rejected. The importer stops at its next checkpoint once
 * `spent()`, writes what it sent, stores the rejects, then `check()` throws TooManyRejectsError.
 *
 * @example
 * const budget = new RejectBudget(request.maxRejects, event.progress);
 * const params = { shouldStop: () => budget.spent(), sink: budget.counting(sink), reject: (row) => budget.rejected(row.reason) };
 */
export class RejectBudget {
  private rejects = 0;
  private items = 0;
  private readonly reasons: string[] = [];
  private sink: ItemSink | null = null;

  constructor(
    private readonly maxRejects: number | undefined,
    private readonly before: ChunkCountsBefore = { rows: 0, rejected: 0 },
  ) {}

  /** Counts one rejected row; keeps its reason when it is one of the first few distinct ones. */
  rejected(reason: string): void {
    this.rejects++;
    if (this.reasons.length < REASONS_QUOTED && !this.reasons.includes(reason)) this.reasons.push(reason);
  }

  /** The sink, counting what reaches it (a row that became an item was not rejected). */
  counting(sink: ItemSink): ItemSink {
    this.sink = sink;
    return {
      add: (item: Item, key: string, at?: RowMark) => (this.items++, sink.add(item, key, at)),
      flush: () => sink.flush(),
      get written() {
        return sink.written;
      },
      get heldFrom() {
        return sink.heldFrom;
      },
    };
  }

  /**
   * Rows this invocation has done so far: items the table acknowledged and rows rejected (the lease renewal
   * reports them). Items queued but not yet written are not counted: the count follows the writes.
   */
  rows(): number {
    return (this.sink?.written ?? 0) + this.rejects;
  }

  /** True once the chunk is past its budget. */
  spent(): boolean {
    const rejected = this.before.rejected + this.rejects;
    if (this.maxRejects !== undefined) return rejected > this.maxRejects;
    const noneAccepted = this.items === 0 && this.before.rows === this.before.rejected;
    return noneAccepted && rejected >= ALL_REJECTED_ROWS;
  }

  /** Throws TooManyRejectsError naming the chunk, the rule, the first reasons and where the rejects are. */
  check(where: string, rejectsAt: string): void {
    if (!this.spent()) return;
    const rejected = this.before.rejected + this.rejects;
    const rule =
      this.maxRejects === undefined
        ? `its first ${rejected} rows were all rejected (without maxRejects an import stops there)`
        : `${rejected} rows rejected, more than maxRejects ${this.maxRejects}`;
    const quoted = this.reasons.join(' | '); // a reason quotes values itself: `column "n": not a number: "x"`
    throw new TooManyRejectsError(
      `${where}: ${rule}; first reasons: ${quoted}. Rows written before it stay written; rejects in ${rejectsAt}`,
    );
  }
}
