import {
  BatchGetItemCommand,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { sleep } from '../async/backoff.js';
import { decideLanes, type LaneAsk, type LaneDecision, type LaneHolder } from './lane-admission.js';
import { holdersOf, liveSettingsOf, POOL_KEY, importKey, type LiveSettings } from './ledger-items.js';

export type { LiveSettings } from './ledger-items.js';

/**
 * A lane's lease: renewed every few seconds by each running lane (LEASE_RENEW_MS); an import whose lease ran out
 * (its execution ended without releasing, e.g. stopped from the console) is taken off the pool by the next
 * import that needs its lanes. 15 minutes outlasts any one Lambda invocation, so a live import never loses it.
 */
export const LEASE_MS = 15 * 60 * 1000;
/** How often a lane renews its import's lease and reads its live settings: a new rate holds within ~5 s. */
export const LEASE_RENEW_MS = 5000;
/** Admissions that lost a race for the pool item (another import wrote it in between) try again this often. */
const ADMIT_ATTEMPTS = 8;

export interface Admit extends LaneAsk {
  readonly execution: string;
  /** The request's maxWriteRate: the import's first live rate. */
  readonly maxWriteRate: number;
}

type Send = Pick<DynamoDBClient, 'send'>['send'];

/**
 * The ledger of running imports: one DynamoDB table, read and written the same way in AWS and on DynamoDB
 * Local. A pool item lists who holds lanes (written on admit and release only, with optimistic versions); an
 * item per import holds its lease and its live settings (written by its lanes and by `rate`/`pause`/`resume`).
 *
 * @example
 * const ledger = new ImportLedger(dynamodb, 's3-ddb-import-ledger');
 * const { granted } = await ledger.admit({ execution, table, want: 8, capped: false, poolLanes: null, tableLanes: 40, maxWriteRate: 0 });
 */
export class ImportLedger {
  private readonly send: Send;

  constructor(
    dynamodb: Pick<DynamoDBClient, 'send'>,
    readonly tableName: string,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {
    this.send = dynamodb.send.bind(dynamodb) as Send;
  }

  /** Grants lanes now, or none (the import waits and asks again). Asking again after a grant returns it. */
  async admit(ask: Admit): Promise<LaneDecision> {
    for (let attempt = 1; ; attempt++) {
      const pool = await this.readPool();
      const mine = pool.holders[ask.execution];
      if (mine) return { granted: mine.lanes, reason: `${mine.lanes} lanes (granted before)` };
      let decision = decideLanes(pool.holders, ask);
      const stale = decision.granted === 0 ? await this.staleHolders(pool.holders) : [];
      if (stale.length > 0) decision = decideLanes(withoutKeys(pool.holders, stale), ask);
      if (decision.granted === 0) return decision;
      if (await this.take(pool.version, ask, decision.granted, stale)) return decision;
      if (attempt >= ADMIT_ATTEMPTS)
        return { granted: 0, reason: 'waiting: the ledger is busy (many admissions at once)' };
      // Another admission wrote the pool first: try again after a short random pause, so that a burst of them
      // spreads out instead of colliding again (full jitter, up to 20 ms times the attempt).
      await sleep(this.random() * 20 * attempt);
    }
  }

  /** Gives the import's lanes back: on success (Summarize) and on failure (ReleaseLanes). Idempotent. */
  async release(execution: string): Promise<void> {
    await this.send(
      new TransactWriteItemsCommand({
        TransactItems: [
          {
            Update: {
              TableName: this.tableName,
              Key: POOL_KEY,
              // The pool item exists: it was made before this import's grant.
              UpdateExpression: 'REMOVE holders.#e SET version = version + :one',
              ExpressionAttributeNames: { '#e': execution },
              ExpressionAttributeValues: { ':one': { N: '1' } },
            },
          },
          { Delete: { TableName: this.tableName, Key: importKey(execution) } },
        ],
      }),
    );
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

  private async readPool(): Promise<{ version: number; holders: Record<string, LaneHolder> }> {
    const get = () => this.send(new GetItemCommand({ TableName: this.tableName, Key: POOL_KEY, ConsistentRead: true }));
    let { Item } = await get();
    if (!Item) {
      await this.ensurePool();
      ({ Item } = await get());
    }
    return { version: Number(Item?.version?.N ?? 0), holders: holdersOf(Item) };
  }

  /** Holders whose lease ran out (or whose import item is gone): their executions ended without releasing. */
  private async staleHolders(holders: Record<string, LaneHolder>): Promise<string[]> {
    // 98: with the pool update and this import's item, a transaction of at most 100 actions (its limit).
    const names = Object.keys(holders).slice(0, 98);
    if (names.length === 0) return [];
    const { Responses } = await this.send(
      new BatchGetItemCommand({
        RequestItems: { [this.tableName]: { Keys: names.map(importKey), ProjectionExpression: 'pk, leaseUntil' } },
      }),
    );
    const leases = new Map((Responses?.[this.tableName] ?? []).map((i) => [i.pk.S, Number(i.leaseUntil?.N ?? 0)]));
    return names.filter((name) => (leases.get(importKey(name).pk.S) ?? 0) < this.now());
  }

  /** Writes the grant if the pool is still at `version`; false when another admission wrote it first. */
  private async take(version: number, ask: Admit, lanes: number, stale: string[]): Promise<boolean> {
    const names: Record<string, string> = { '#e': ask.execution };
    stale.forEach((name, i) => (names[`#s${i}`] = name));
    const removes = stale.length > 0 ? ` REMOVE ${stale.map((_, i) => `holders.#s${i}`).join(', ')}` : '';
    const holder = { M: { table: { S: ask.table }, lanes: { N: String(lanes) }, capped: { BOOL: ask.capped } } };
    const pool = {
      TableName: this.tableName,
      Key: POOL_KEY,
      UpdateExpression: `SET holders.#e = :holder, version = :next${removes}`,
      ConditionExpression: 'version = :version',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: {
        ':holder': holder,
        ':next': { N: String(version + 1) },
        ':version': { N: String(version) },
      },
    };
    const importItem = {
      ...importKey(ask.execution),
      table: { S: ask.table },
      lanes: { N: String(lanes) },
      leaseUntil: { N: String(this.now() + LEASE_MS) },
      maxWriteRate: { N: String(ask.maxWriteRate) },
      paused: { BOOL: false },
    };
    try {
      await this.send(
        new TransactWriteItemsCommand({
          TransactItems: [
            { Update: pool },
            { Put: { TableName: this.tableName, Item: importItem } },
            ...stale.map((name) => ({ Delete: { TableName: this.tableName, Key: importKey(name) } })),
          ],
        }),
      );
      return true;
    } catch (error) {
      if ((error as Error).name === 'TransactionCanceledException') return false;
      throw error;
    }
  }

  /** The pool item, made once (empty) so that grants can set one holder's path in it. */
  private async ensurePool(): Promise<void> {
    try {
      await this.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: { ...POOL_KEY, version: { N: '0' }, holders: { M: {} } },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    }
  }
}

function withoutKeys<T>(record: Record<string, T>, keys: string[]): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
}
