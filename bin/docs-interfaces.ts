import { join } from 'node:path';
import ts from 'typescript';

/**
 * An interface's fields as its TSDoc declares them, read with the TypeScript compiler (its checker, so fields an
 * interface inherits come along): the request, the construct's props, the summary. A field another engineer adds,
 * with its TSDoc, appears in the reference at the next `npm run docs`.
 */
export interface FieldDoc {
  readonly name: string;
  /** The type as the checker prints it: `string`, `"put" | "insert"`, `RequestFormat`. */
  readonly type: string;
  readonly required: boolean;
  /** The TSDoc text, one line. */
  readonly doc: string;
  /** The `@default` tag's text, if any. */
  readonly defaultValue?: string;
}

/** A reader of interfaces from one set of entry files, sharing one program and checker. */
export interface InterfaceReader {
  fields(file: string, name: string): FieldDoc[];
  /** The interface's own TSDoc. */
  summary(file: string, name: string): string;
}

/** Joins TSDoc parts (text and `{@link}`s) into one line. */
function oneLine(parts: readonly ts.SymbolDisplayPart[] | string | undefined): string {
  const text = typeof parts === 'string' ? parts : ts.displayPartsToString(parts as ts.SymbolDisplayPart[]);
  return text.replace(/\s+/g, ' ').trim();
}

function fieldDoc(symbol: ts.Symbol, checker: ts.TypeChecker, at: ts.Node): FieldDoc {
  const type = checker.getTypeOfSymbolAtLocation(symbol, at);
  const printed = checker.typeToString(checker.getNonNullableType(type), undefined, ts.TypeFormatFlags.NoTruncation);
  const tag = symbol.getJsDocTags(checker).find((t) => t.name === 'default');
  return {
    name: symbol.name,
    type: printed,
    required: (symbol.flags & ts.SymbolFlags.Optional) === 0,
    doc: oneLine(symbol.getDocumentationComment(checker)),
    ...(tag ? { defaultValue: oneLine(tag.text) } : {}),
  };
}

/** Reads interfaces from `files` (relative to `root`), compiled with the repository's own module settings. */
export function interfaceReader(root: string, files: readonly string[]): InterfaceReader {
  const program = ts.createProgram(
    files.map((file) => join(root, file)),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true },
  );
  const checker = program.getTypeChecker();
  const declaration = (file: string, name: string): ts.InterfaceDeclaration => {
    const source = program.getSourceFile(join(root, file));
    const found = source?.statements.find(
      (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
    );
    if (!found) throw new Error(`interface ${name} not found in ${file}`);
    return found;
  };
  return {
    fields(file, name) {
      const node = declaration(file, name);
      const type = checker.getTypeAtLocation(node);
      return checker.getPropertiesOfType(type).map((symbol) => fieldDoc(symbol, checker, node));
    },
    summary(file, name) {
      const symbol = checker.getSymbolAtLocation(declaration(file, name).name);
      return symbol ? oneLine(symbol.getDocumentationComment(checker)) : '';
    },
  };
}

/** A markdown table cell: pipes escaped, so a union type (`"a" | "b"`) stays in its cell. */
export function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/** The fields as a markdown table: name (bold when required), type, default, description. */
export function fieldTable(fields: readonly FieldDoc[]): string[] {
  const rows = fields.map((field) => {
    const name = field.required ? `**\`${field.name}\`**` : `\`${field.name}\``;
    const type = `\`${cell(field.type)}\``;
    const fallback = field.required ? 'required' : cell(field.defaultValue ?? '');
    return `| ${name} | ${type} | ${fallback} | ${cell(field.doc)} |`;
  });
  return ['| field | type | default | description |', '| --- | --- | --- | --- |', ...rows];
}
