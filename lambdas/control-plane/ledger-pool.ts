import { GetItemCommand, PutItemCommand, UpdateItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { LaneHolder } from './lane-admission.js';
import { holdersOf, POOL_KEY } from './ledger-items.js';

type Send = Pick<DynamoDBClient, 'send'>['send'];

/** The pool item as read: who holds lanes. */
export interface Pool {
  readonly holders: Readonly<Record<string, LaneHolder>>;
}

/**
 * The pool item of the ledger: who holds lanes (`holders`), the lanes held per table (`tableHeld`) and in all
 * (`poolHeld`), and which table has a capped import (`cappedOn`). Lanes are taken and given back with one
 * conditional UpdateItem each, its condition on the counts: DynamoDB applies writes to one item one at a time,
 * so two imports taking lanes at once never both get the last one, and neither fails for the other's write
 * unless the lanes it wanted are gone (no version to collide on: a burst of admissions costs a read and a write
 * each, not a retry per rival).
 */
export class LedgerPool {
  constructor(
    private readonly send: Send,
    private readonly tableName: string,
  ) {}

  /** The pool as it is; made first (empty) when this ledger has none yet, so that lanes can be taken from it. */
  async read(): Promise<Pool> {
    const pool = await this.get();
    if (pool) return pool;
    await this.create();
    return (await this.get()) ?? { holders: {} };
  }

  /**
   * The pool as it is, or null when no import has asked for lanes in this ledger yet. Admissions read it strongly
   * consistent (they count its lanes); a list for people may read it as DynamoDB reads by default.
   */
  async get(consistent = true): Promise<Pool | null> {
    const { Item } = await this.send(
      new GetItemCommand({ TableName: this.tableName, Key: POOL_KEY, ...(consistent ? { ConsistentRead: true } : {}) }),
    );
    return Item ? { holders: holdersOf(Item) } : null;
  }

  /** Takes `lanes` for `execution` if they are still free; false when another import took them first. */
  async take(execution: string, holder: LaneHolder, tableLanes: number, poolLanes: number | null): Promise<boolean> {
    const n = holder.lanes;
    const tableFree = holder.capped
      ? '(attribute_not_exists(tableHeld.#t) OR tableHeld.#t = :zero)'
      : '(attribute_not_exists(tableHeld.#t) OR tableHeld.#t <= :tableRoom) AND attribute_not_exists(cappedOn.#t)';
    const poolFree = poolLanes === null ? '' : ' AND poolHeld <= :poolRoom';
    return this.conditionally({
      UpdateExpression:
        'SET holders.#e = :holder, tableHeld.#t = if_not_exists(tableHeld.#t, :zero) + :n, poolHeld = poolHeld + :n' +
        (holder.capped ? ', cappedOn.#t = :e' : ''),
      ConditionExpression: `attribute_not_exists(holders.#e) AND ${tableFree}${poolFree}`,
      ExpressionAttributeNames: { '#e': execution, '#t': holder.table },
      ExpressionAttributeValues: {
        ':holder': { M: { table: { S: holder.table }, lanes: { N: String(n) }, capped: { BOOL: holder.capped } } },
        ':n': { N: String(n) },
        ':zero': { N: '0' },
        ...(holder.capped ? { ':e': { S: execution } } : { ':tableRoom': { N: String(tableLanes - n) } }),
        ...(poolLanes === null ? {} : { ':poolRoom': { N: String(poolLanes - n) } }),
      },
    });
  }

  /** Gives `execution`'s lanes back; false when it held none (released already). */
  give(execution: string, holder: LaneHolder): Promise<boolean> {
    return this.conditionally({
      UpdateExpression:
        'REMOVE holders.#e' +
        (holder.capped ? ', cappedOn.#t' : '') +
        ' SET tableHeld.#t = tableHeld.#t - :n, poolHeld = poolHeld - :n',
      ConditionExpression: 'attribute_exists(holders.#e)',
      ExpressionAttributeNames: { '#e': execution, '#t': holder.table },
      ExpressionAttributeValues: { ':n': { N: String(holder.lanes) } },
    });
  }

  private async conditionally(update: Omit<ConstructorParameters<typeof UpdateItemCommand>[0], 'TableName' | 'Key'>) {
    try {
      await this.send(new UpdateItemCommand({ TableName: this.tableName, Key: POOL_KEY, ...update }));
      return true;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }

  /** The pool item, made once and empty, so that grants can set one table's and one holder's path in it. */
  private async create(): Promise<void> {
    try {
      await this.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: { ...POOL_KEY, holders: { M: {} }, tableHeld: { M: {} }, cappedOn: { M: {} }, poolHeld: { N: '0' } },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    }
  }
}
