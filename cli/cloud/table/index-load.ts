import type { IndexCapacity } from './table-capacity.js';

/**
 * Each GSI: its write units per item and in all, the items/s its capacity takes, and the write units/s it would
 * need for the import to run as fast as the rest allows (`unhindered` items/s: table, lanes, maxWriteRate).
 * `throttles`: a provisioned GSI's WCU, or an on-demand GSI's maximum, is below that need, so it will throttle the
 * table's writes (an on-demand GSI without a maximum grows with the traffic instead).
 */
export function indexLoads(
  indexes: readonly IndexCapacity[],
  sampled: readonly { readonly name: string; readonly writeUnitsPerItem: number }[],
  items: number,
  unhindered: number,
) {
  return indexes.map((index) => {
    const perItem = sampled.find((figures) => figures.name === index.name)?.writeUnitsPerItem ?? 0;
    const needed = Number.isFinite(unhindered) ? unhindered * perItem : 0;
    return {
      name: index.name,
      writeUnitsPerSecond: index.writeUnitsPerSecond,
      from: index.from,
      limit: index.limit,
      writeUnitsPerItem: perItem,
      writeUnits: Math.round(items * perItem),
      itemsPerSecond: perItem > 0 ? index.writeUnitsPerSecond / perItem : Infinity,
      neededWriteUnitsPerSecond: needed,
      throttles: index.limit !== null && index.limit < needed,
    };
  });
}

/** One GSI's load in an estimate. */
export type IndexLoad = ReturnType<typeof indexLoads>[number];
