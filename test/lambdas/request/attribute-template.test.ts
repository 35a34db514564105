import { describe, expect, it } from 'vitest';
import { parseTemplate, parseTemplates, renderTemplate } from '../../../lambdas/request/attribute-template.js';

describe.each([
  // The single-table keys of the issue: literal text around placeholders.
  { source: 'USER#{user_id}', texts: ['USER#', ''], columns: ['user_id'], values: ['42'], out: 'USER#42' },
  {
    source: 'ORDER#{date}#{order_id}',
    texts: ['ORDER#', '#', ''],
    columns: ['date', 'order_id'],
    values: ['2024-05-01', '991'],
    out: 'ORDER#2024-05-01#991',
  },
  // A constant: no placeholders, rendered as written.
  { source: 'Order', texts: ['Order'], columns: [], values: [], out: 'Order' },
  // Only a placeholder: the column's text itself (a typed copy such as GSI1SK = {amount}).
  { source: '{amount}', texts: ['', ''], columns: ['amount'], values: ['1.50'], out: '1.50' },
  // {{ and }} are literal braces, also right around a placeholder ({{{a}}} is "{" + a + "}").
  { source: '{{x}}', texts: ['{x}'], columns: [], values: [], out: '{x}' },
  { source: '{{{a}}}', texts: ['{', '}'], columns: ['a'], values: ['1'], out: '{1}' },
  // A column name is what stands between the braces, spaces and # included; a column may repeat.
  {
    source: '{first name}/{#}/{#}',
    texts: ['', '/', '/', ''],
    columns: ['first name', '#', '#'],
    values: ['Ann', '1', '2'],
    out: 'Ann/1/2',
  },
  // Non-ASCII text passes through.
  { source: 'é{a}ü', texts: ['é', 'ü'], columns: ['a'], values: ['→'], out: 'é→ü' },
])('parseTemplate($source)', ({ source, texts, columns, values, out }) => {
  it('reads the placeholders and literal text, and renders the values in place', () => {
    const parsed = parseTemplate(source);
    expect(parsed).toEqual({ ok: true, template: { texts, columns } });
    expect(renderTemplate((parsed as { template: Parameters<typeof renderTemplate>[0] }).template, values)).toBe(out);
  });
});

describe.each([
  {
    problem: 'a { is not closed',
    source: 'USER#{id',
    reason: 'a lone "{" (write "{{" for a literal brace, "{column}" for a placeholder) at character 6 of "USER#{id"',
  },
  {
    problem: 'a } stands alone',
    source: 'a}b',
    reason: 'a lone "}" (write "}}" for a literal brace) at character 2 of "a}b"',
  },
  {
    problem: 'a placeholder is empty',
    source: 'X#{}',
    reason: 'an empty placeholder "{}" (name a column inside) at character 3 of "X#{}"',
  },
  { problem: 'a { opens inside a placeholder', source: '{a{b}', reason: 'a lone "{"' },
  {
    problem: 'a single } follows a placeholder',
    source: '{a}}',
    reason: 'a lone "}" (write "}}" for a literal brace) at character 4',
  },
  { problem: 'the template is empty', source: '', reason: 'an empty template' },
])('parseTemplate', ({ problem, source, reason }) => {
  it(`fails when ${problem}`, () => {
    const parsed = parseTemplate(source);
    expect(parsed.ok).toBe(false);
    expect((parsed as { reason: string }).reason).toContain(reason);
  });
});

describe('parseTemplates', () => {
  it('parses every attribute and names each one that does not parse', () => {
    const { templates, problems } = parseTemplates({ PK: 'USER#{id}', bad: '{', SK: '}', entity: 'Order' });
    expect([...templates.keys()]).toEqual(['PK', 'entity']);
    expect(problems).toEqual([
      'attributes.bad: a lone "{" (write "{{" for a literal brace, "{column}" for a placeholder) at character 1 of "{"',
      'attributes.SK: a lone "}" (write "}}" for a literal brace) at character 1 of "}"',
    ]);
  });
});
