import {
  BatchGetItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { decideLanes, type LaneAsk, type LaneDecision, type LaneHolder } from './lane-admission.js';
import { liveSettingsOf, importKey, type LiveSettings } from './ledger-items.js';
import { LedgerPool } from './ledger-pool.js';

export type { LiveSettings } from './ledger-items.js';

/**
 * A lane's lease: renewed every few seconds by each running lane (LEASE_RENEW_MS); an import whose lease ran out
 * (its execution ended without releasing, e.g. stopped from the console) is taken off the pool by the next
 * import that needs its lanes. 15 minutes outlasts any one Lambda invocation, so a live import never loses it.
 */
export const LEASE_MS = 15 * 60 * 1000;
/** How often a lane renews its import's lease and reads its live settings: a new rate holds within ~5 s. */
export const LEASE_RENEW_MS = 5000;
/** An admission whose lanes were taken between its read and its write counts again at most this often. */
const ADMIT_ATTEMPTS = 8;

export interface Admit extends LaneAsk {
  readonly execution: string;
  /** The request's maxWriteRate: the import's first live rate. */
  readonly maxWriteRate: number;
}

type Send = Pick<DynamoDBClient, 'send'>['send'];

/**
 * The ledger of running imports: one DynamoDB table, read and written the same way in AWS and on DynamoDB
 * Local. A pool item lists who holds lanes (ledger-pool.ts: written on admit and release only); an item per
 * import holds its lease and its live settings (written by its lanes and by `rate`/`pause`/`resume`).
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
  ) {
    this.send = dynamodb.send.bind(dynamodb) as Send;
    this.pool = new LedgerPool(this.send, tableName);
  }

  /** Grants lanes now, or none (the import waits and asks again). Asking again after a grant returns it. */
  async admit(ask: Admit): Promise<LaneDecision> {
    for (let attempt = 1; ; attempt++) {
      const { holders } = await this.pool.read();
      const mine = holders[ask.execution];
      if (mine) return { granted: mine.lanes, reason: `${mine.lanes} lanes (granted before)` };
      const decision = decideLanes(holders, ask);
      if (decision.granted === 0 && (await this.reclaimStale(holders)) > 0) continue;
      if (decision.granted === 0) return decision;
      // Its own item (the lease) first: from the moment it is a holder, an import that finds the lanes full reads
      // its lease, and must not take it for one whose execution ended.
      await this.putImport(ask, decision.granted);
      const holder = { table: ask.table, lanes: decision.granted, capped: ask.capped };
      if (await this.pool.take(ask.execution, holder, ask.tableLanes, ask.poolLanes)) return decision;
      // The lanes it counted on were taken in between: count again, a few times, then wait like any import.
      if (attempt >= ADMIT_ATTEMPTS)
        return { granted: 0, reason: 'waiting: the ledger is busy (many admissions at once)' };
    }
  }

  /**
   * Gives the import's lanes back: on success (Summarize) and on failure (ReleaseLanes). Idempotent. It never makes
   * the pool item: an import with no chunk was never admitted, and Summarize may not PutItem.
   */
  async release(execution: string): Promise<void> {
    const holder = (await this.pool.get())?.holders[execution];
    if (holder) await this.pool.give(execution, holder);
    await this.send(new DeleteItemCommand({ TableName: this.tableName, Key: importKey(execution) }));
  }

  /** A lane renews its import's lease and reads its live settings; null when the import holds no lanes. */
  async renew(execution: string): Promise<LiveSettings | null> {
    return this.update(execution, 'SET leaseUntil = :lease', { ':lease': { N: String(this.now() + LEASE_MS) } });
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
    return (await this.pool.get(false))?.holders ?? {};
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

  /**
   * Takes the lanes of holders whose lease ran out off the pool (and their items); how many it took off. Leases
   * are read strongly consistent: an eventually consistent read may miss a renewal made within the last second
   * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadConsistency.html). A key
   * DynamoDB left in UnprocessedKeys was not read, so its holder counts as live: only a lease read and found run
   * out is reclaimed (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html).
   */
  private async reclaimStale(holders: Readonly<Record<string, LaneHolder>>): Promise<number> {
    const names = Object.keys(holders).slice(0, 100); // BatchGetItem reads 100 keys; the rest wait for a next ask
    if (names.length === 0) return 0;
    const { Responses, UnprocessedKeys } = await this.send(
      new BatchGetItemCommand({
        RequestItems: {
          [this.tableName]: {
            Keys: names.map(importKey),
            ProjectionExpression: 'pk, leaseUntil',
            ConsistentRead: true,
          },
        },
      }),
    );
    const unread = new Set((UnprocessedKeys?.[this.tableName]?.Keys ?? []).map((key) => key.pk?.S));
    const leases = new Map((Responses?.[this.tableName] ?? []).map((i) => [i.pk?.S, Number(i.leaseUntil?.N ?? 0)]));
    // A holder whose item was read and is absent has no lease at all (lease 0).
    const stale = names
      .map((name) => ({ name, pk: importKey(name).pk.S }))
      .filter(({ pk }) => !unread.has(pk) && (leases.get(pk) ?? 0) < this.now())
      .map(({ name }) => name);
    for (const name of stale) await this.release(name);
    return stale.length;
  }

  private async putImport(ask: Admit, lanes: number): Promise<void> {
    await this.send(
      new PutItemCommand({
        TableName: this.tableName,
        Item: {
          ...importKey(ask.execution),
          table: { S: ask.table },
          lanes: { N: String(lanes) },
          leaseUntil: { N: String(this.now() + LEASE_MS) },
          maxWriteRate: { N: String(ask.maxWriteRate) },
          paused: { BOOL: false },
        },
      }),
    );
  }
}
