/** A request field's value as a problem quotes it: its JSON, or its text when it has none (undefined, a function). */
export function show(value: unknown): string {
  // JSON.stringify returns undefined for undefined and functions, which its declared type leaves out.
  return (JSON.stringify(value) as string | undefined) ?? String(value);
}

/** A JSON object (not an array, not null): what the request and its `format`, `types` and `attributes` must be. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Column names must be non-empty and unique: they become attribute names. */
export function checkColumnNames(columns: unknown, field: string, problems: string[]): void {
  if (!Array.isArray(columns) || columns.length === 0) {
    problems.push(`${field}: must be a non-empty array of names, got ${show(columns)}`);
    return;
  }
  const seen = new Set<string>();
  columns.forEach((name, index) => {
    if (typeof name !== 'string' || name.trim() === '') {
      problems.push(`${field}[${index}]: must be a non-empty name, got ${show(name)}`);
    } else if (/[\r\n]/.test(name)) {
      // A header read from a file with CR-only line endings is one long record: its names hold the CRs.
      problems.push(`${field}[${index}]: must not hold a line break, got ${show(name)} (records end at LF or CRLF)`);
    } else if (seen.has(name)) {
      problems.push(`${field}[${index}]: duplicate column name ${show(name)}`);
    }
    seen.add(String(name));
  });
}
