/**
 * The workflow as a mermaid flowchart, drawn from `statemachine/import.asl.json` by `npm run docs`, so the one
 * diagram of docs/how-it-works.md is the workflow that runs (GitHub renders mermaid blocks). A Map state's item
 * processor is drawn as a box the Map enters by a dotted arrow; a Catch is a dotted arrow labelled `error`.
 *
 * @example
 * workflowDiagram({ StartAt: 'A', States: { A: { Type: 'Task', End: true } } })
 * // '```mermaid\nflowchart TD\n  start(("start")) --> s0\n  s0["A"]\n```'
 */
export interface AslState {
  readonly Type: string;
  readonly Next?: string;
  readonly End?: boolean;
  readonly Default?: string;
  readonly Choices?: readonly { readonly Next: string }[];
  readonly Catch?: readonly { readonly Next: string }[];
  readonly ItemProcessor?: AslMachine;
  readonly Iterator?: AslMachine;
}

/** A state machine, or the item processor of one of its Map states. */
export interface AslMachine {
  readonly StartAt: string;
  readonly States: Readonly<Record<string, AslState>>;
}

/** The node's shape by state type: a Choice is a rhombus, a Map a subroutine box, an end a stadium. */
function node(id: string, name: string, state: AslState): string {
  if (state.Type === 'Choice') return `${id}{"${name}"}`;
  if (state.Type === 'Map') return `${id}[["${name}"]]`;
  if (state.Type === 'Fail' || state.Type === 'Succeed') return `${id}(["${name}"])`;
  return `${id}["${name}"]`;
}

/** The lines of one machine (and, nested, of each Map's processor); ids are `prefix` plus the state's index. */
function machineLines(machine: AslMachine, prefix: string, indent: string): string[] {
  const names = Object.keys(machine.States);
  const id = (name: string) => `${prefix}${names.indexOf(name)}`;
  const lines: string[] = [];
  for (const [name, state] of Object.entries(machine.States)) {
    lines.push(`${indent}${node(id(name), name, state)}`);
    const processor = state.ItemProcessor ?? state.Iterator;
    if (processor) {
      const inner = `${id(name)}_`;
      lines.push(`${indent}subgraph ${inner}box ["${name}: each item, its own child execution"]`);
      lines.push(...machineLines(processor, inner, `${indent}  `));
      lines.push(`${indent}end`);
      lines.push(`${indent}${id(name)} -.-> ${inner}${Object.keys(processor.States).indexOf(processor.StartAt)}`);
    }
    const next = [state.Next, ...(state.Choices ?? []).map((c) => c.Next), state.Default];
    for (const target of new Set(next.filter((n): n is string => n !== undefined)))
      lines.push(`${indent}${id(name)} --> ${id(target)}`);
    for (const target of new Set((state.Catch ?? []).map((c) => c.Next)))
      lines.push(`${indent}${id(name)} -. error .-> ${id(target)}`);
  }
  return lines;
}

/** The mermaid block for `machine`, fenced. */
export function workflowDiagram(machine: AslMachine): string {
  const first = Object.keys(machine.States).indexOf(machine.StartAt);
  return [
    '```mermaid',
    'flowchart TD',
    `  start(("start")) --> s${first}`,
    ...machineLines(machine, 's', '  '),
    '```',
  ].join('\n');
}
