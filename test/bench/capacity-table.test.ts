import { describe, expect, it } from 'vitest';
import { capacityCommand, capacityTable, type CapacityCase } from '../../bench/capacity-table.js';

const figure = (toCapacity: number, requestsPerItem: number, itemsRefused: number) => ({
  toCapacity,
  requestsPerItem,
  itemsRefused,
});

describe("the capacity figure printed as issue 37's table", () => {
  it('prints a row per file and a column per contender, under the command that set the knobs', () => {
    const cases: CapacityCase[] = [
      {
        order: 'random',
        rowsPerKey: 10,
        partitions: 8,
        rows: 9600,
        byContender: { local: figure(0.991, 0.0441, 12), ddbimport8: figure(0.96, 0.082, 300) },
      },
      {
        order: 'sorted',
        rowsPerKey: 200,
        partitions: 32,
        rows: 9600,
        byContender: {
          local: figure(1, 0.05, 3),
          ddbimport8: { ...figure(0.06, 0.238, 5000), landed: 9075, error: 'timeout' },
        },
      },
    ];
    const command = capacityCommand({ BENCH_ONLY: 'capacity', BENCH_CAPACITY_TABLE_UNITS: '1600', HOME: '/root' });
    expect(command).toBe('npm run build && BENCH_ONLY=capacity BENCH_CAPACITY_TABLE_UNITS=1600 npx tsx bench/run.ts');
    expect(capacityTable(cases, 1600, command).split('\n')).toEqual([
      command,
      'P·C = 1600 units/s; each cell: items/s over the write phase ÷ P·C (requests per item written; items refused)',
      '',
      '| file | P | `local` | ddbimport, 8 workers |',
      '| --- | --- | --- | --- |',
      '| random keys | 8 | 0.99 (0.044; 12) | 0.96 (0.082; 300) |',
      '| sorted by key, 200 rows per key | 32 | 1.00 (0.050; 3) | 0.06 (0.238; 5000), 9,075 landed, stopped |',
    ]);
  });
});
