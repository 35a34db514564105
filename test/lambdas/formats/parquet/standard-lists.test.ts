import type { FileMetaData, SchemaElement } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { standardLists } from '../../../../lambdas/formats/parquet/standard-lists.js';

type Shape = [name: string, repetition: string | undefined, annotation?: string, children?: number];
const el = ([name, repetition_type, converted_type, num_children]: Shape): SchemaElement =>
  ({
    name,
    repetition_type,
    converted_type,
    num_children,
    ...(num_children ? {} : { type: 'INT32' }),
  }) as SchemaElement;

/** A footer of one row group whose column chunks name the leaves of `schema` by path, as written. */
function footer(schema: Shape[], leafPaths: string[][]): FileMetaData {
  const columns = leafPaths.map((path) => ({ file_offset: 0n, meta_data: { path_in_schema: path } }));
  return { schema: schema.map(el), row_groups: [{ columns }] } as unknown as FileMetaData;
}
const shapes = (m: FileMetaData) => m.schema.map((e) => [e.name, e.repetition_type, e.converted_type, e.num_children]);
const paths = (m: FileMetaData) => m.row_groups[0].columns.map((c) => c.meta_data!.path_in_schema.join('.'));

/**
 * Each case: a schema as an older writer wrote it, and the standard shape it becomes; the levels stay the same (a
 * repeated level moves to `list`, the element turns required). LogicalTypes.md "Backward-compatibility rules".
 */
describe.each<{ name: string; written: Shape[]; leaves: string[][]; standard: Shape[]; paths: string[] }>([
  // Rule 1: `repeated int32 element` in a LIST is the element.
  {
    name: 'a LIST of a repeated primitive (2-level)',
    written: [
      ['root', undefined, undefined, 1],
      ['a', 'OPTIONAL', 'LIST', 1],
      ['element', 'REPEATED'],
    ],
    leaves: [['a', 'element']],
    standard: [
      ['root', undefined, undefined, 1],
      ['a', 'OPTIONAL', 'LIST', 1],
      ['list', 'REPEATED', undefined, 1],
      ['element', 'REQUIRED', undefined, undefined],
    ],
    paths: ['a.list.element'],
  },
  // Rule 3: a one-field repeated group named `array` is the element (a struct), not its field.
  {
    name: 'a LIST of a one-field group named array',
    written: [
      ['root', undefined, undefined, 1],
      ['a', 'OPTIONAL', 'LIST', 1],
      ['array', 'REPEATED', undefined, 1],
      ['s', 'REQUIRED'],
    ],
    leaves: [['a', 'array', 's']],
    standard: [
      ['root', undefined, undefined, 1],
      ['a', 'OPTIONAL', 'LIST', 1],
      ['list', 'REPEATED', undefined, 1],
      ['array', 'REQUIRED', undefined, 1],
      ['s', 'REQUIRED', undefined, undefined],
    ],
    paths: ['a.list.array.s'],
  },
  // Rule 3: a repeated group of one repeated field is the element; here a 2-level LIST itself (rewritten too), not named array.
  {
    name: 'a LIST of 2-level LISTs',
    written: [
      ['root', undefined, undefined, 1],
      ['a', 'OPTIONAL', 'LIST', 1],
      ['bag', 'REPEATED', 'LIST', 1],
      ['array', 'REPEATED'],
    ],
    leaves: [['a', 'bag', 'array']],
    standard: [
      ['root', undefined, undefined, 1],
      ['a', 'OPTIONAL', 'LIST', 1],
      ['list', 'REPEATED', undefined, 1],
      ['bag', 'REQUIRED', 'LIST', 1],
      ['list', 'REPEATED', undefined, 1],
      ['array', 'REQUIRED', undefined, undefined],
    ],
    paths: ['a.list.bag.list.array'],
  },
  // The shape: a repeated group in an unannotated group is a required LIST of required structs.
  {
    name: 'a bare repeated group inside a struct',
    written: [
      ['root', undefined, undefined, 1],
      ['phoneNumbers', 'OPTIONAL', undefined, 1],
      ['phone', 'REPEATED', undefined, 2],
      ['number', 'REQUIRED'],
      ['kind', 'OPTIONAL'],
    ],
    leaves: [
      ['phoneNumbers', 'phone', 'number'],
      ['phoneNumbers', 'phone', 'kind'],
    ],
    standard: [
      ['root', undefined, undefined, 1],
      ['phoneNumbers', 'OPTIONAL', undefined, 1],
      ['phone', 'REQUIRED', 'LIST', 1],
      ['list', 'REPEATED', undefined, 1],
      ['element', 'REQUIRED', undefined, 2],
      ['number', 'REQUIRED', undefined, undefined],
      ['kind', 'OPTIONAL', undefined, undefined],
    ],
    paths: ['phoneNumbers.phone.list.element.number', 'phoneNumbers.phone.list.element.kind'],
  },
])('$name', ({ written, leaves, standard, paths: want }) => {
  it('becomes the standard 3-level LIST, its column chunks renamed', () => {
    const rewritten = standardLists(footer(written, leaves));
    expect(shapes(rewritten)).toEqual(standard);
    expect(paths(rewritten)).toEqual(want);
  });
});

describe('standardLists', () => {
  // The standard shape, a MAP's repeated key_value and a one-field group not named array/<list>_tuple: unchanged.
  it('leaves a footer without legacy lists as it is', () => {
    const metadata = footer(
      [
        ['root', undefined, undefined, 2],
        ['a', 'OPTIONAL', 'LIST', 1],
        ['list', 'REPEATED', undefined, 1],
        ['element', 'OPTIONAL'],
        ['m', 'OPTIONAL', 'MAP', 1],
        ['key_value', 'REPEATED', undefined, 2],
        ['key', 'REQUIRED'],
        ['value', 'OPTIONAL'],
      ],
      [
        ['a', 'list', 'element'],
        ['m', 'key_value', 'key'],
        ['m', 'key_value', 'value'],
      ],
    );
    expect(standardLists(metadata)).toBe(metadata);
  });
});
