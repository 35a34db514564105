import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { expect } from 'vitest';
import { canonicalNumbers, expand, sortItems, type HostileCase } from './corpus.js';

type Item = Record<string, AttributeValue>;

/** Compares what a Scan returned with the case's items, item by item, whatever the Scan order. */
export function expectItems(c: HostileCase, items: readonly Item[]): void {
  const keyNames = [c.table.hash[0], ...(c.table.range ? [c.table.range[0]] : [])];
  const names = items.flatMap((item) => Object.keys(item));
  expect(
    names.filter((n) => /[\ufeff\r\n]/.test(n)),
    'attribute names hold no BOM, CR or LF',
  ).toEqual([]);
  const canonical = (list: unknown) => sortItems(canonicalNumbers(list) as Item[], keyNames);
  expect(canonical(items)).toEqual(canonical(expand(c.expect.items ?? [])));
}
