/** One contender's figures in one case, as capacity-figures.ts records them. */
export interface ContenderFigure {
  readonly toCapacity: number;
  readonly requestsPerItem: number;
  readonly itemsRefused: number;
  readonly landed?: number;
  readonly error?: string;
}

/** One file of the capacity figure and each contender's figures on it. */
export interface CapacityCase {
  readonly order: 'random' | 'sorted';
  readonly rowsPerKey: number;
  readonly partitions: number;
  readonly rows: number;
  readonly byContender: Record<string, ContenderFigure>;
}

/** The contenders' column titles, as issue 37's table names them. */
const TITLES: Record<string, string> = {
  local: '`local`',
  localSpread: '`local --spread`',
  ddbimport8: 'ddbimport, 8 workers',
  rawLoop16: 'raw loop, 16 in flight',
};

/** The environment variables that shape the capacity figure, as the command line that set them names them. */
const KNOBS = [
  'BENCH_ONLY',
  'BENCH_CAPACITY_TABLE_UNITS',
  'BENCH_CAPACITY_SECONDS',
  'BENCH_CAPACITY_PARTITIONS',
  'BENCH_CAPACITY_ROWS_PER_KEY',
  'BENCH_CAPACITY_BURST',
  'BENCH_CAPACITY_PAD',
  'BENCH_CAPACITY_CONTENDERS',
];

/** The command that produced this run: the knobs set in `env`, then the bench itself. */
export function capacityCommand(env: NodeJS.ProcessEnv): string {
  const set = KNOBS.filter((name) => env[name] !== undefined).map((name) => `${name}=${env[name]}`);
  return `npm run build && ${[...set, 'npx tsx bench/run.ts'].join(' ')}`;
}

const cell = (figure: ContenderFigure | undefined, rows: number) => {
  if (!figure) return '';
  const notes = [
    ...(figure.landed !== undefined && figure.landed !== rows ? [`${figure.landed.toLocaleString('en')} landed`] : []),
    ...(figure.error ? ['stopped'] : []),
  ];
  const main = `${figure.toCapacity.toFixed(2)} (${figure.requestsPerItem.toFixed(3)}; ${figure.itemsRefused})`;
  return [main, ...notes].join(', ');
};

/**
 * The capacity figure as issue 37's table: a row per file, a column per contender, each cell "items/s over the
 * write phase ÷ P·C (requests per item written; items refused)", under the command that produced it.
 *
 * @example
 * capacityTable(cases, 1600, 'npm run build && BENCH_ONLY=capacity npx tsx bench/run.ts');
 */
export function capacityTable(cases: readonly CapacityCase[], tableUnits: number, command: string): string {
  const contenders = [...new Set(cases.flatMap((c) => Object.keys(c.byContender)))];
  const header = ['file', 'P', ...contenders.map((name) => TITLES[name] ?? name)];
  const rows = cases.map((c) => [
    c.order === 'random' ? 'random keys' : `sorted by key, ${c.rowsPerKey} rows per key`,
    String(c.partitions),
    ...contenders.map((name) => cell(c.byContender[name], c.rows)),
  ]);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [
    `${command}`,
    `P·C = ${tableUnits} units/s; each cell: items/s over the write phase ÷ P·C (requests per item written; items refused)`,
    '',
    line(header),
    line(header.map(() => '---')),
    ...rows.map(line),
  ].join('\n');
}
