/**
 * A parsed `attributes` template: the literal texts around its placeholders, in order. `texts` has one entry
 * more than `columns` (`"USER#{id}"` is texts `["USER#", ""]`, columns `["id"]`); a constant has no columns.
 */
export interface AttributeTemplate {
  readonly texts: readonly string[];
  readonly columns: readonly string[];
}

/** A template that cannot be read: `reason` says what and where, for the request's problem list. */
export type TemplateParse =
  { readonly ok: true; readonly template: AttributeTemplate } | { readonly ok: false; readonly reason: string };

const OPEN = '{';
const CLOSE = '}';

/**
 * Reads `{column}` placeholders and `{{` / `}}` literal braces, as Python's str.format and .NET's
 * String.Format spell them. A lone `{` or `}`, an empty `{}` or a `{` inside a placeholder is refused
 * (the user meant something this cannot guess); an empty template too, since it could only store "".
 * The column name is the text between the braces as written, spaces included (CSV headers may hold them).
 */
export function parseTemplate(source: string): TemplateParse {
  if (source === '') return { ok: false, reason: 'an empty template' };
  const texts: string[] = [];
  const columns: string[] = [];
  let text = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if ((c === OPEN || c === CLOSE) && source[i + 1] === c) {
      text += c;
      i++;
    } else if (c === CLOSE) {
      return notTemplate(source, i, 'a lone "}" (write "}}" for a literal brace)');
    } else if (c === OPEN) {
      const close = source.indexOf(CLOSE, i + 1);
      const nested = source.indexOf(OPEN, i + 1);
      if (close === -1 || (nested !== -1 && nested < close)) {
        return notTemplate(source, i, 'a lone "{" (write "{{" for a literal brace, "{column}" for a placeholder)');
      }
      if (close === i + 1) return notTemplate(source, i, 'an empty placeholder "{}" (name a column inside)');
      texts.push(text);
      columns.push(source.slice(i + 1, close));
      text = '';
      i = close;
    } else {
      text += c;
    }
  }
  texts.push(text);
  return { ok: true, template: { texts, columns } };
}

function notTemplate(source: string, at: number, what: string): TemplateParse {
  return { ok: false, reason: `${what} at character ${at + 1} of ${JSON.stringify(source)}` };
}

/**
 * The template with `values[i]` in place of its i-th placeholder (the caller has checked each is present).
 * One concatenation per part: a key template has 2-5 parts, and this runs once per attribute per record.
 */
export function renderTemplate(template: AttributeTemplate, values: readonly string[]): string {
  const { texts } = template;
  let out = texts[0];
  for (let i = 0; i < values.length; i++) out += values[i] + texts[i + 1];
  return out;
}

/** Every attribute's template parsed; the problems name the attribute (`attributes.PK: ...`). */
export function parseTemplates(attributes: Readonly<Record<string, string>>): {
  templates: Map<string, AttributeTemplate>;
  problems: string[];
} {
  const templates = new Map<string, AttributeTemplate>();
  const problems: string[] = [];
  for (const [name, source] of Object.entries(attributes)) {
    const parsed = parseTemplate(source);
    if (parsed.ok) templates.set(name, parsed.template);
    else problems.push(`attributes.${name}: ${parsed.reason}`);
  }
  return { templates, problems };
}

/** The columns the templates read, each once, in order of first use. */
export function templateColumns(templates: ReadonlyMap<string, AttributeTemplate>): string[] {
  return [...new Set([...templates.values()].flatMap((t) => t.columns))];
}
