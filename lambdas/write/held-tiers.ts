/**
 * A window's partition keys by how many rows each holds, so a request's seats go first to the keys with the most
 * left (PartitionWindow.take). Ties go in turn: a Set keeps insertion order, and a key whose count changes goes to
 * the end of its new tier.
 *
 * @example
 * const tiers = new HeldTiers<string>();
 * tiers.moved('a', 0, 2);
 * tiers.moved('b', 0, 1);
 * [...tiers.mostFirst()]; // ['a', 'b']
 */
export class HeldTiers<Q> {
  private readonly tiers = new Map<number, Set<Q>>();

  /** `key` held `before` rows and holds `after` now (a key holding none is in no tier). */
  moved(key: Q, before: number, after: number): void {
    if (before === after) return;
    const from = this.tiers.get(before);
    if (from?.delete(key) && from.size === 0) this.tiers.delete(before);
    if (after <= 0) return;
    let to = this.tiers.get(after);
    if (!to) this.tiers.set(after, (to = new Set()));
    to.add(key);
  }

  /**
   * Every key holding rows, most rows first. A key moved while this runs may come again, in its new tier: the
   * caller skips the keys it has taken.
   */
  *mostFirst(): Generator<Q> {
    const counts = [...this.tiers.keys()].sort((a, b) => b - a);
    for (const count of counts) yield* this.tiers.get(count) ?? [];
  }
}
