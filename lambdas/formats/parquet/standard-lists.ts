import type { FileMetaData, SchemaElement } from 'hyparquet';

/** A schema element with its children (the footer lists them flat, depth first, each group with num_children). */
interface Node {
  readonly element: SchemaElement;
  readonly children: Node[];
}

/** Leaf paths as written to the ones of the rewritten schema (column chunks name their leaf by path). */
type PathMap = Map<string, string[]>;

const isAnnotatedList = (e: SchemaElement) => e.converted_type === 'LIST' || e.logical_type?.type === 'LIST';
const isAnnotatedMap = (e: SchemaElement) =>
  e.converted_type === 'MAP' || e.converted_type === 'MAP_KEY_VALUE' || e.logical_type?.type === 'MAP';

/**
 * The footer with every list in the standard three-level shape, `<list> (LIST) { repeated group list { <element> } }`,
 * which the reader (hyparquet) assembles as the spec says. Writers before LIST was settled (parquet-mr, Impala, Hive,
 * parquetjs) write other shapes, which LogicalTypes.md's "Backward-compatibility rules" read as follows
 * (https://github.com/apache/parquet-format/blob/master/LogicalTypes.md#backward-compatibility-rules):
 * - in a LIST group, the repeated field is itself the element (required) when it is not a group (rule 1), a group of
 *   several fields (2), of one repeated field (3), or of one field and named `array` or `<list name>_tuple` (4);
 *   otherwise its one field is the element (5, the standard shape);
 * - a repeated field in no LIST or MAP group is a required list of required elements of its type.
 * Each legacy shape becomes the standard one with the same repetition and definition levels (a repeated level moves to
 * the inserted `list` group, the element becomes required), so the pages decode alike; only the column chunks' paths
 * change with the schema. Without this the reader gives a LIST-annotated 2-level group of structs as a struct, a
 * single-field element as its field's value, and an empty repeated field as null.
 */
export function standardLists(metadata: FileMetaData): FileMetaData {
  const [root] = tree(metadata.schema, 0);
  const paths: PathMap = new Map();
  const standard = { element: root.element, children: root.children.map((c) => rewrite(c, null, [], [], paths)) };
  if (paths.size === 0) return metadata;
  const row_groups = metadata.row_groups.map((group) => ({
    ...group,
    columns: group.columns.map((column) => {
      const meta = column.meta_data;
      const path = meta && paths.get(meta.path_in_schema.join('.'));
      return meta && path ? { ...column, meta_data: { ...meta, path_in_schema: path } } : column;
    }),
  }));
  return { ...metadata, schema: flatten(standard), row_groups };
}

/** The node at `at` of the flat list and the index after its subtree. */
function tree(schema: readonly SchemaElement[], at: number): [Node, number] {
  const element = schema[at];
  const children: Node[] = [];
  let next = at + 1;
  for (let i = 0; i < (element.num_children ?? 0); i++) {
    const [child, after] = tree(schema, next);
    children.push(child);
    next = after;
  }
  return [{ element, children }, next];
}

function flatten(node: Node): SchemaElement[] {
  const element = node.children.length > 0 ? { ...node.element, num_children: node.children.length } : node.element;
  return [element, ...node.children.flatMap(flatten)];
}

/** A group named `list`, repeated, holding `element`: the middle level of the standard shape. */
function listLevel(element: Node): Node {
  return { element: { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, children: [element] };
}

const required = (node: Node, name = node.element.name): Node => ({
  element: { ...node.element, name, repetition_type: 'REQUIRED' },
  children: node.children,
});

/** True when `repeated`, the one child of the LIST group `list`, is itself the element (rules 1 to 4 above). */
function isLegacyElement(list: SchemaElement, repeated: Node): boolean {
  if (repeated.element.repetition_type !== 'REPEATED') return false;
  if (repeated.children.length !== 1) return true; // a primitive (no children) or a group of several fields
  const { name } = repeated.element;
  const [only] = repeated.children;
  return only.element.repetition_type === 'REPEATED' || name === 'array' || name === `${list.name}_tuple`;
}

/**
 * `node` in the standard shape; `parent` is its group's element (null at the top), `from` and `to` the parent's
 * path as written and as rewritten. Every leaf whose path changes is recorded in `paths`.
 */
function rewrite(node: Node, parent: SchemaElement | null, from: string[], to: string[], paths: PathMap): Node {
  const { element } = node;
  const { name } = element;
  const inListOrMap = parent !== null && (isAnnotatedList(parent) || isAnnotatedMap(parent));
  if (element.repetition_type === 'REPEATED' && !inListOrMap && !isAnnotatedMap(element)) {
    // A bare repeated field: `<name> (LIST)`, required, over `list` over the field as `element`, required.
    const item = below(required(node, 'element'), [...from, name], [...to, name, 'list', 'element'], paths);
    const list = { name, repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 } as const;
    return { element: list, children: [listLevel(item)] };
  }
  const [repeated] = node.children;
  if (isAnnotatedList(element) && node.children.length === 1 && isLegacyElement(element, repeated)) {
    // The element may be a legacy list itself (rule 3): rewritten as any field, under the inserted `list`.
    const item = rewrite(required(repeated), element, [...from, name], [...to, name, 'list'], paths);
    return { element, children: [listLevel(item)] };
  }
  return below(node, [...from, name], [...to, name], paths);
}

/** `node`, at `from` as written and `to` rewritten, with its children rewritten; a leaf's new path recorded. */
function below(node: Node, from: string[], to: string[], paths: PathMap): Node {
  if (node.children.length === 0) {
    if (from.join('.') !== to.join('.')) paths.set(from.join('.'), to);
    return node;
  }
  return { element: node.element, children: node.children.map((c) => rewrite(c, node.element, from, to, paths)) };
}
