import { describe, expect, it } from 'vitest';
import { WRITE_MODE_TRAITS, WRITE_MODES, writeModeActions } from '../../../lambdas/contract/write-mode-traits.js';
import { WRITE_MODE_TABLE } from '../../../lambdas/write/write-modes.js';

describe('a write mode owns its traits', () => {
  it('names the modes by the keys of the traits table, in its order', () => {
    expect(WRITE_MODES).toEqual(Object.keys(WRITE_MODE_TRAITS));
    expect(Object.keys(WRITE_MODE_TABLE)).toEqual(WRITE_MODES);
  });

  it.each(WRITE_MODES)('gives the %s writer the traits of its table entry', (mode) => {
    const { open: _open, dryRun: _dryRun, combine: _combine, writeUnits: _units, ...traits } = WRITE_MODE_TABLE[mode];
    expect(traits).toEqual(WRITE_MODE_TRAITS[mode]);
  });

  it('grants the union of every mode’s actions, each once', () => {
    const all = WRITE_MODES.flatMap((mode) => WRITE_MODE_TRAITS[mode].actions);
    expect(writeModeActions().sort()).toEqual([...new Set(all)].sort());
    // put and delete share BatchWriteItem; insert and update share PartiQLInsert: each named once.
    expect(writeModeActions()).toHaveLength(new Set(all).size);
  });
});
