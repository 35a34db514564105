import { show } from './field-values.js';

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
