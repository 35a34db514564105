import { GetItemCommand, UpdateItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LedgerBusyError } from '../contract/errors.js';
import { decideLanes, type LaneAsk, type LaneDecision, type LaneHolder } from './lane-admission.js';
import { reclaimStale, scanHolders } from './ledger-holders.js';
import { holderOf, importKey, liveSettingsOf, type LiveSettings } from './ledger-items.js';
import { LedgerPool } from './ledger-pool.js';

export type { LiveSettings } from './ledger-items.js';

/**
 * A lane's lease: renewed every few seconds by each running lane (LEASE_RENEW_MS); an import whose lease ran out
 * (its execution ended without releasing, e.g. stopped from the console) is taken off the ledger by the next
 * import that needs its lanes. 15 minutes outlasts any one Lambda invocation, so a live import never loses it.
 */
export const LEASE_MS = 15 * 60 * 1000;
/** How often a lane renews its import's lease and reads its live settings: a new rate holds within ~5 s. */
export const LEASE_RENEW_MS = 5000;
/** An admission whose lanes were taken between its read and its write counts again at most this often. */
const ADMIT_ATTEMPTS = 8;
/**
 * Transactions on the lanes item that run at the same time cancel each other (TransactionConflict), and a throttled
 * one is cancelled too: it waits a random time up to 25 ms, doubling per attempt up to 1 s (full jitter), and tries
 * again.
 */
const CONFLICT_BACKOFF_MS = { base: 25, cap: 1000 } as const;
/**
 * A release cancelled as busy tries this often before it fails with LedgerBusyError, which the Retry of Summarize and
 * of ReleaseLanes (statemachine/import.asl.json) names: the task then runs again.
 */
const RELEASE_ATTEMPTS = 8;

type Sleep = (ms: number) => Promise<void>;
const sleepFor: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Admit extends LaneAsk {
  readonly execution: string;
  /** The request's maxWriteRate: the import's first live rate. */
  readonly maxWriteRate: number;
}

type Send = Pick<DynamoDBClient, 'send'>['send'];

/**
 * The ledger of running imports: one DynamoDB table, read and written the same way in AWS and locally. A lanes item
 * counts the lanes held (in all and per table); an item per import holds its lanes, its lease and its live settings
 * (written by its lanes and by `rate`/`pause`/`resume`). Admission and release change both in one transaction
 * (ledger-pool.ts).
 *
 * @example
 * const ledger = new ImportLedger(dynamodb, 's3-ddb-import-ledger');
 * const { granted } = await ledger.admit({ execution, table, want: 8, capped: false, poolLanes: null, tableLanes: 40, maxWriteRate: 0 });
 */
export class ImportLedger {
  private readonly send: Send;
  private readonly pool: LedgerPool;

  constructor(
    dynamodb: Pick<DynamoDBClient, 'send'>,
    readonly tableName: string,
    private readonly now: () => number = Date.now,
    private readonly sleep: Sleep = sleepFor,
  ) {
    this.send = dynamodb.send.bind(dynamodb) as Send;
    this.pool = new LedgerPool(this.send, tableName);
  }

  /** Grants lanes now, or none (the import waits and asks again). Asking again after a grant returns it. */
  async admit(ask: Admit): Promise<LaneDecision> {
    for (let attempt = 1; ; attempt++) {
      const decision = decideLanes(await this.pool.counts(ask.table), ask);
      if (decision.granted === 0) {
        // The lanes are full: the holders are read, to find this import among them (an ask repeated after a
        // grant) or holders whose execution ended without releasing.
        const holders = await scanHolders(this.send, this.tableName, true);
        const mine = holders.find((h) => h.execution === ask.execution);
        if (mine) return grantedBefore(holderOf(mine.item)?.lanes ?? 0);
        if ((await reclaimStale(this.pool, holders, this.now())) > 0) continue;
        return decision;
      }
      const holder = { table: ask.table, lanes: decision.granted, capped: ask.capped };
      const lease = { leaseUntil: this.now() + LEASE_MS, maxWriteRate: ask.maxWriteRate };
      const outcome = await this.pool.take(
        ask.execution,
        holder,
        { table: ask.tableLanes, pool: ask.poolLanes },
        lease,
      );
      if (outcome === 'taken') return decision;
      if (outcome === 'held') {
        const mine = await this.holder(ask.execution);
        if (mine) return grantedBefore(mine.lanes);
        continue; // admitted by a twin ask and released since: ask again
      }
      // The lanes it counted on were taken in between: count again, a few times, then wait like any import.
      if (attempt >= ADMIT_ATTEMPTS)
        return { granted: 0, reason: 'waiting: the ledger is busy (many admissions at once)' };
      if (outcome === 'busy') await this.backOff(attempt);
    }
  }

  /**
   * Gives the import's lanes back: on success (Summarize) and on failure (ReleaseLanes). Idempotent. Reads the
   * import's own item and writes only when it holds lanes: an import with no chunk was never admitted, and
   * Summarize may not PutItem.
   */
  async release(execution: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const { Item } = await this.send(
        new GetItemCommand({ TableName: this.tableName, Key: importKey(execution), ConsistentRead: true }),
      );
      if (!Item) return;
      const outcome = await this.pool.giveBack(execution, Item);
      if (outcome !== 'busy') return;
      if (attempt >= RELEASE_ATTEMPTS) throw new LedgerBusyError(execution);
      await this.backOff(attempt);
    }
  }

  /**
   * A lane renews its import's lease and reads its live settings; null when the import holds no lanes. `rows`, the
   * rows it handled since its last renewal, are added to the import's live count (`rowsDone`) in the same write.
   */
  async renew(execution: string, rows = 0): Promise<LiveSettings | null> {
    const lease = { ':lease': { N: String(this.now() + LEASE_MS) } };
    if (rows <= 0) return this.update(execution, 'SET leaseUntil = :lease', lease);
    return this.update(execution, 'SET leaseUntil = :lease ADD rowsDone :rows', {
      ...lease,
      ':rows': { N: String(rows) },
    });
  }

  /** Changes a running import's rate (items/s, 0 = uncapped); null when no such import holds lanes. */
  setRate(execution: string, maxWriteRate: number): Promise<LiveSettings | null> {
    return this.update(execution, 'SET maxWriteRate = :rate', { ':rate': { N: String(maxWriteRate) } });
  }

  /** Pauses (or resumes) a running import; null when no such import holds lanes. */
  setPaused(execution: string, paused: boolean): Promise<LiveSettings | null> {
    return this.update(execution, 'SET paused = :paused', { ':paused': { BOOL: paused } });
  }

  /** Who holds lanes now, by execution name (read only: `rate`, `pause` and `resume` list them). */
  async holders(): Promise<Readonly<Record<string, LaneHolder>>> {
    const items = await scanHolders(this.send, this.tableName, false);
    return Object.fromEntries(
      items.map(({ execution, item }) => {
        const { table, lanes } = liveSettingsOf(execution, item);
        return [execution, { table, lanes, capped: holderOf(item)?.capped === true }];
      }),
    );
  }

  /** An import's live settings, or null when it holds no lanes (not admitted yet, or ended). */
  async read(execution: string): Promise<LiveSettings | null> {
    const { Item } = await this.send(new GetItemCommand({ TableName: this.tableName, Key: importKey(execution) }));
    return Item ? liveSettingsOf(execution, Item) : null;
  }

  private async update(execution: string, expression: string, values: Record<string, AttributeValue>) {
    try {
      const { Attributes } = await this.send(
        new UpdateItemCommand({
          TableName: this.tableName,
          Key: importKey(execution),
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? liveSettingsOf(execution, Attributes) : null;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return null;
      throw error;
    }
  }

  /** An import's lanes, read strongly consistent; null when it holds none. */
  private async holder(execution: string): Promise<LaneHolder | null> {
    const { Item } = await this.send(
      new GetItemCommand({ TableName: this.tableName, Key: importKey(execution), ConsistentRead: true }),
    );
    return Item ? holderOf(Item) : null;
  }

  private backOff(attempt: number): Promise<void> {
    const ceiling = Math.min(CONFLICT_BACKOFF_MS.cap, CONFLICT_BACKOFF_MS.base * 2 ** (attempt - 1));
    return this.sleep(Math.random() * ceiling);
  }
}

const grantedBefore = (lanes: number): LaneDecision => ({ granted: lanes, reason: `${lanes} lanes (granted before)` });
