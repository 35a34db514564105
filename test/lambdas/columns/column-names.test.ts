import { describe, expect, it } from 'vitest';
import { checkHeadersAgree } from '../../../lambdas/columns/column-names.js';
import { mapAtMost } from '../../../lambdas/async/map-at-most.js';

describe('checkHeadersAgree', () => {
  it('gives the common header, leaving out objects without one (empty ones)', () => {
    const headers = [
      { key: 'in/a.csv', header: ['x', 'y'] },
      { key: 'in/b.csv', header: null },
      { key: 'in/c.csv', header: ['x', 'y'] },
    ];
    expect(checkHeadersAgree(headers)).toEqual(['x', 'y']);
  });

  it('fails when headers disagree, naming the files of each header', () => {
    const headers = [
      { key: 'in/a.csv', header: ['x', 'y'] },
      { key: 'in/b.csv', header: ['x', 'y'] },
      { key: 'in/c.csv', header: ['x', 'z'] },
      { key: 'in/d.csv', header: ['x'] },
    ];
    expect(() => checkHeadersAgree(headers)).toThrow(
      expect.objectContaining({
        name: 'InvalidRequestError',
        message:
          "invalid request: header: the objects' headers disagree: in/a.csv, in/b.csv have [x, y]; in/c.csv has [x, z]; in/d.csv has [x]",
      }),
    );
  });

  it('names a few files of a big group and counts the rest', () => {
    const headers = [
      ...Array.from({ length: 5 }, (_, i) => ({ key: `p${i}`, header: ['a'] })),
      { key: 'odd', header: ['b'] },
    ];
    expect(() => checkHeadersAgree(headers)).toThrow('p0, p1, p2 and 2 more have [a]; odd has [b]');
  });

  it('has no header when no object has one', () => {
    expect(checkHeadersAgree([{ key: 'a', header: null }])).toBeNull();
  });
});

describe('mapAtMost', () => {
  it('keeps the order and never runs more than it may at once', async () => {
    let running = 0;
    let most = 0;
    const results = await mapAtMost(
      Array.from({ length: 20 }, (_, i) => i),
      3,
      async (n) => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 1 + (n % 4)));
        running--;
        return n * 2;
      },
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    expect(most).toBe(3);
  });
});
