import { isBuiltin } from 'node:module';
import { init, parse, type ExportSpecifier } from 'es-module-lexer';

/**
 * A handler bundle (an ES module) as a function expression that `vm.Script` compiles with a code cache, which Node 20
 * offers for scripts only (`module.enableCompileCache`, for ES modules too, is Node 22.1+). Every byte of the bundle
 * stays where it is but its module syntax, found by es-module-lexer (which skips strings, comments, templates and
 * regular expressions) and replaced by as many characters:
 * - `import ... from "node:x"` by spaces; its bindings are declared above the bundle's first line, from the module
 *   namespaces the caller passes in (an ES module's imports are bound before its body runs, too);
 * - `import("node:x")` by `{@link DYNAMIC_IMPORT}("node:x")`, a function the caller passes in; `import.meta` by
 *   {@link IMPORT_META};
 * - the `export { a as b }` clause by spaces, and a `return` of those names below the bundle's last line.
 * So every position in the bundle (stack traces, its source map) stays as it is, and the function body is strict, as
 * a module is. Anything else (an import of a package, `export default`, ...) is left to Node's own loader.
 * The plan is plain JSON, kept beside the code cache so that a cached load does not lex the bundle again.
 */
export interface ScriptPlan {
  /** Replacements of the bundle's module syntax, in order, each as long as what it replaces. */
  readonly edits: readonly Edit[];
  /** The import bindings, declared above the bundle. */
  readonly declarations: string;
  /** The object the function returns: the bundle's exports. */
  readonly returned: string;
  /** The built-in modules the bundle imports statically, by the names it imports them with. */
  readonly builtins: readonly string[];
}

/** The parameter names; a bundle that uses any of these names is left to Node's loader. */
export const NAMESPACES = '$s3ddbNs';
/** As long as `import`, so that `import(` is replaced in place. */
export const DYNAMIC_IMPORT = '$s3dI_';
/** No longer than `import.meta`. */
export const IMPORT_META = '$s3Meta';

const STATIC = 1;
const DYNAMIC = 2;
const META = -2;
const IDENTIFIER = /^[\w$]+$/;

export interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** What one import clause binds: nothing, `x`, `* as x`, `{ a as b, c }`, or a default and one of the others. */
function clauseBindings(clause: string, namespace: string): string[] | undefined {
  const match = /^\s*(?:([\w$]+)\s*,?)?\s*(?:\*\s*as\s+([\w$]+)|\{([^}]*)\})?\s*$/.exec(clause);
  if (!match) return undefined;
  const [, defaultName, namespaceName, named] = match;
  const bindings = [];
  if (defaultName) bindings.push(`${defaultName}=${namespace}.default`);
  if (namespaceName) bindings.push(`${namespaceName}=${namespace}`);
  for (const specifier of named?.split(',') ?? []) {
    const [imported, local = imported] = specifier.trim().split(/\s+as\s+/);
    if (!imported) continue;
    if (!IDENTIFIER.test(imported) || !IDENTIFIER.test(local)) return undefined;
    bindings.push(`${local}=${namespace}.${imported}`);
  }
  return bindings;
}

/** The one `export { a as b, ... }` clause: its edit and the object the function returns, or undefined. */
function exportClause(
  source: string,
  exports: readonly ExportSpecifier[],
): { edit?: Edit; returned: string } | undefined {
  if (exports.length === 0) return { returned: '{}' };
  if (exports.some(({ n, ln }) => !ln || !IDENTIFIER.test(n) || !IDENTIFIER.test(ln))) return undefined;
  const start = source.lastIndexOf('export', Math.min(...exports.flatMap(({ s, ls }) => [s, ls])));
  const end = source.indexOf('}', Math.max(...exports.flatMap(({ e, le }) => [e, le]))) + 1;
  if (start < 0 || !/^export\s*\{[^}]*\}$/.test(source.slice(start, end))) return undefined;
  const returned = `{${exports.map(({ n, ln }) => `${n}:${ln}`).join(',')}}`;
  return { edit: { start, end, text: ' '.repeat(end - start) }, returned };
}

/** The edits of the bundle's imports and the bindings they declare, or undefined. */
function importEdits(source: string, imports: ReturnType<typeof parse>[0]) {
  const edits: Edit[] = [];
  const bindings: string[] = [];
  const builtins = new Set<string>();
  for (const { t, n, s, e, ss, se, d } of imports) {
    if (d === META) edits.push({ start: s, end: e, text: IMPORT_META.padEnd(e - s) });
    else if (!n || !isBuiltin(n)) return undefined;
    else if (t === DYNAMIC) edits.push({ start: ss, end: ss + DYNAMIC_IMPORT.length, text: DYNAMIC_IMPORT });
    else if (t !== STATIC) return undefined;
    else {
      const head = source.slice(ss + 'import'.length, s - 1);
      const clause = head.replace(/from\s*$/, '');
      const bound = clauseBindings(clause, `${NAMESPACES}[${JSON.stringify(n)}]`);
      if (!bound || (clause === head && clause.trim() !== '')) return undefined;
      bindings.push(...bound);
      builtins.add(n);
      edits.push({ start: ss, end: se, text: ' '.repeat(se - ss) });
    }
  }
  return { edits, bindings, builtins: [...builtins] };
}

/** How to make the bundle a script, or undefined when it holds module syntax this does not rewrite. */
export async function planBundleScript(source: string): Promise<ScriptPlan | undefined> {
  if ([NAMESPACES, DYNAMIC_IMPORT, IMPORT_META].some((name) => source.includes(name))) return undefined;
  await init;
  const [imports, exports] = parse(source);
  const found = importEdits(source, imports);
  const exported = exportClause(source, exports);
  if (!found || !exported) return undefined;
  return {
    edits: [...found.edits, ...(exported.edit ? [exported.edit] : [])].sort((a, b) => a.start - b.start),
    declarations: found.bindings.length ? `const ${found.bindings.join(',')};` : '',
    returned: exported.returned,
    builtins: found.builtins,
  };
}

/** The async function expression of `plan`, taking ({@link NAMESPACES}, {@link DYNAMIC_IMPORT}, {@link IMPORT_META}). */
export function bundleScriptText(source: string, plan: ScriptPlan): string {
  let body = '';
  let at = 0;
  for (const { start, end, text } of plan.edits) {
    body += source.slice(at, start) + text;
    at = end;
  }
  body += source.slice(at);
  return (
    `(async function(${NAMESPACES},${DYNAMIC_IMPORT},${IMPORT_META}){"use strict";${plan.declarations}\n` +
    `${body}\n;return ${plan.returned};})`
  );
}
