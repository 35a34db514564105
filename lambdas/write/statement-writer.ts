import type {
  BatchExecuteStatementCommandInput,
  BatchExecuteStatementCommandOutput,
  BatchStatementRequest,
} from '@aws-sdk/client-dynamodb';
import { RequestWriter } from './request-writer.js';
import { BATCH_SIZE } from '../retry/batch-retry.js';
import { DEFAULT_MAX_IN_FLIGHT } from './batch-writer.js';
import { ItemWriter, type ItemWriteCalls } from './item-writer.js';
import type { Item, ItemSink } from './item-sink.js';
import { insertStatement, updateStatement } from './partiql-statements.js';
import { sendWithRetries, type AttemptReply } from '../retry/retry-loop.js';
import type { StatementMode } from './statement-mode.js';
import type { WriterOptions } from './writer-options.js';
import { statementOutcomes, type Pending } from './statement-outcomes.js';
import { StatementWriteFailedError } from '../contract/errors.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

/** The calls of the statement modes: batches of PartiQL statements, and single items for the rest. */
export interface StatementWriteCalls extends ItemWriteCalls {
  executeStatements(input: BatchExecuteStatementCommandInput): Promise<BatchExecuteStatementCommandOutput>;
}

export interface StatementWriterOptions extends WriterOptions {
  /** What the mode decides (write/modes/insert.ts, update.ts). */
  readonly mode: StatementMode;
  readonly keys: readonly KeyAttribute[];
  readonly calls: StatementWriteCalls;
}

/**
 * Writes `insert` and `update` items 25 to a request, as PartiQL statements in BatchExecuteStatement: the batch form
 * of a conditional write, which BatchWriteItem lacks. Each statement succeeds or fails alone
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchExecuteStatement.html: "A HTTP 200 response
 * does not mean that all statements in the BatchExecuteStatement succeeded"):
 * - `insert`: INSERT; `DuplicateItem` (an item has the key) counts as skipped, never retried.
 * - `update`: UPDATE, which leaves a missing item missing (`ConditionalCheckFailed`); such an item goes again as its
 *   INSERT, and an INSERT that finds the item created meanwhile (`DuplicateItem`) as its UPDATE. Which goes first
 *   follows what the table answered lately, so an import into an empty table does not pay a failed UPDATE per item.
 * - throttled statements go again after the backoff; any other statement error fails the import, naming it.
 *
 * Against one single-item request per item this costs our lane about a fifth of the CPU per item (docs/performance.md).
 * A batch never holds a key twice (the service refuses it): a repeated key keeps the first row (`insert`, the later
 * count as skipped) or merges into it (`update`, later values win); a key in flight in an earlier batch waits for it.
 * Items that cannot be statements (names too long for one, or an UPDATE it cannot express: partiql-statements.ts) go
 * as single-item requests (ItemWriter) in the same batch's turn.
 */
export class StatementWriter extends RequestWriter implements ItemSink {
  /** Rows combined with an earlier row of their key in the same batch (skipped in insert, merged in update). */
  replaced = 0;
  private statementsWritten = 0;
  private statementsSkipped = 0;
  private batch = new Map<string, Item>();
  /** Items that cannot be statements. */
  private readonly single: ItemWriter;
  /** Positive while UPDATEs have lately found no item: INSERT goes first then (update mode). */
  private missing = 0;

  constructor(private readonly options: StatementWriterOptions) {
    super(options, DEFAULT_MAX_IN_FLIGHT);
    this.single = new ItemWriter(options);
  }

  /** Items written (insert: created; update: applied). */
  get written(): number {
    return this.statementsWritten + this.single.written;
  }

  /** `insert` rows whose key already had an item. */
  get skipped(): number {
    return this.statementsSkipped + this.single.skipped;
  }

  /** Requests sent again after a throttle or another retryable error (the ThrottledRetries metric). */
  get throttledRetries(): number {
    return this.retries.afterError + this.single.throttledRetries;
  }

  /** Queues one item; only the item that completes a batch gets a promise (settled once the batch is sent). */
  add(item: Item, key: string): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    const held = this.batch.get(key);
    if (held) {
      this.replaced++;
      this.batch.set(key, this.options.mode.combine(held, item)); // the key keeps its place
      return undefined;
    }
    this.batch.set(key, item);
    return this.batch.size >= BATCH_SIZE ? this.dispatch() : undefined;
  }

  async flush(): Promise<void> {
    if (this.batch.size > 0) await this.dispatch();
    await this.slots.drain();
    if (this.failure) throw this.failure;
  }

  private async dispatch(): Promise<void> {
    await this.slots.wait();
    if (this.failure) throw this.failure;
    const batch = this.batch;
    this.batch = new Map();
    this.order.send([...batch.keys()], () => this.write(batch));
  }

  private async write(batch: Map<string, Item>): Promise<void> {
    const { mode, keys } = this.options;
    const entries: Pending[] = [];
    for (const [key, item] of batch) {
      entries.push({ item, key, kind: mode.first(item, keys.length, this.missing > 0), switches: 0 });
    }
    let singleFailure: Error | undefined;
    const singles: Promise<void>[] = [];
    const sendAlone = (entry: Pending) =>
      singles.push(this.single.writeNow(entry.item).catch((error: Error) => void (singleFailure ??= error)));
    await this.sendWithRetry(entries, sendAlone);
    await Promise.all(singles);
    if (singleFailure) throw singleFailure;
  }

  /**
   * The statement the entry goes as now, built when first needed (an update's INSERT only once its UPDATE found no
   * item): undefined when it cannot be one (partiql-statements.ts), and the item then goes as a single request.
   */
  private statementOf(entry: Pending): BatchStatementRequest | undefined {
    const { table, keys } = this.options;
    if (entry.kind === 'insert') return (entry.insert ??= insertStatement(table, entry.item));
    return (entry.update ??= updateStatement(table, entry.item, keys));
  }

  /**
   * Sends until every statement is written or skipped, through the writers' one retry loop (retry/retry-loop.ts); an
   * entry whose statement cannot be built goes to `sendAlone`. As in the BatchWriter, only a reply that settled
   * nothing (a request error, every statement throttled) spends the retry budget and climbs the backoff ladder;
   * statements that only switched between UPDATE and INSERT go again at once.
   */
  private sendWithRetry(entries: Pending[], sendAlone: (entry: Pending) => void): Promise<void> {
    const { table, mode, keys } = this.options;
    let pending = entries;
    let statements: BatchStatementRequest[] = [];
    const pendingCount = () => {
      statements = [];
      pending = pending.filter((entry) => {
        const statement = this.statementOf(entry);
        if (statement) statements.push(statement);
        else sendAlone(entry);
        return statement !== undefined;
      });
      return pending.length;
    };
    const attempt = async (): Promise<AttemptReply> => {
      const output = await this.options.calls.executeStatements({ Statements: statements });
      const outcome = statementOutcomes(mode, { table, keyCount: keys.length }, pending, output.Responses ?? []);
      this.statementsWritten += outcome.written;
      this.statementsSkipped += outcome.skipped;
      this.missing = Math.max(-8, Math.min(8, this.missing + outcome.missing - outcome.found));
      const progressed = outcome.next.length < pending.length;
      pending = outcome.next;
      return { pushedBack: pending.some((entry) => entry.throttled), progressed };
    };
    const failed = (error: unknown) => requestFailed(table, error);
    const exhausted = (attempts: number, lastError: unknown) =>
      outOfRetries(table, pending.length, attempts, lastError);
    return sendWithRetries({ pending: pendingCount, attempt, failed, exhausted }, this.retrying, this.retries);
  }
}

function requestFailed(table: string, error: unknown): StatementWriteFailedError {
  const message = `BatchExecuteStatement on ${table} failed: ${(error as Error).message}`;
  return new StatementWriteFailedError(message, { cause: error });
}

function outOfRetries(table: string, left: number, attempts: number, lastError: unknown): StatementWriteFailedError {
  const why = lastError ? `last error: ${(lastError as Error).name}` : 'still throttled';
  const message = `${left} items not written to ${table} after ${attempts} attempts (${why})`;
  return new StatementWriteFailedError(message, { cause: lastError });
}
