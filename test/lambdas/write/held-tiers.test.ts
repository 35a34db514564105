import { describe, expect, it } from 'vitest';
import { HeldTiers } from '../../../lambdas/write/held-tiers.js';

describe('HeldTiers', () => {
  it('gives the keys holding the most rows first, ties in the order they came to their count', () => {
    const tiers = new HeldTiers<string>();
    tiers.moved('a', 0, 1);
    tiers.moved('b', 0, 3);
    tiers.moved('c', 0, 1);
    tiers.moved('d', 0, 2);
    expect([...tiers.mostFirst()]).toEqual(['b', 'd', 'a', 'c']);
    tiers.moved('b', 3, 1); // b came down to 1 last: after a and c
    tiers.moved('d', 2, 0); // d holds none: in no tier
    expect([...tiers.mostFirst()]).toEqual(['a', 'c', 'b']);
  });

  it('keeps a key whose count did not change where it was', () => {
    const tiers = new HeldTiers<string>();
    tiers.moved('a', 0, 2);
    tiers.moved('b', 0, 2);
    tiers.moved('a', 2, 2);
    expect([...tiers.mostFirst()]).toEqual(['a', 'b']);
  });
});
