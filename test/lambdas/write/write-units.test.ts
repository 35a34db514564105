import { describe, expect, it } from 'vitest';
import { WRITE_MODES, type WriteMode } from '../../../lambdas/contract/import-request.js';
import { unitsOfOneWrite } from '../../../lambdas/write/write-units.js';
import { writeUnitsOf } from '../../../lambdas/write/write-modes.js';

describe('unitsOfOneWrite: one write unit per started KB, at least one', () => {
  it.each([
    [0, 1], // an empty write still takes one unit
    [1, 1],
    [1024, 1], // exactly 1 KB
    [1025, 2], // a byte over: the next KB
    [1500, 2], // the docs' example: a 1,500-byte item takes 2
    [400 * 1024, 400], // the largest item
  ])('%i bytes: %i', (bytes, units) => {
    expect(unitsOfOneWrite(bytes)).toBe(units);
  });
});

describe('writeUnitsOf(itemBytes, mode, indexesItLandsIn)', () => {
  it.each<[string, number, number[], number]>([
    // 300 B, no GSI: 1
    ['a small item in no index', 300, [], 1],
    // 1,500 B: 2; entries of 1,500 B (ALL projection) and 40 B (KEYS_ONLY): 2 + 1 = 3 more
    ['an item in two indexes', 1500, [1500, 40], 5],
    // 2,049 B: 3; entry of 0 B is still a write: 1
    ['an item whose index entry is tiny', 2049, [0], 4],
  ])('%s: the same for every mode (%i B, entries %j: %i)', (_, bytes, entries, units) => {
    // put and insert write the item (a failed insert still consumes write units); update is priced by the item it
    // sets; delete by the item's size, which the caller gives (the file's row as its proxy).
    for (const mode of WRITE_MODES) expect(writeUnitsOf(bytes, mode as WriteMode, entries)).toBe(units);
  });

  it('counts each index at the item size when given only how many it lands in (an upper bound)', () => {
    // 1,500 B: 2 units, in 2 indexes: 2 x (1 + 2) = 6, where the entries' own sizes (1,500 and 40 B) give 5.
    expect(writeUnitsOf(1500, 'put', 2)).toBe(6);
    expect(writeUnitsOf(1500, 'put', [1500, 40])).toBe(5);
  });
});
