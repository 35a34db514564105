/** A request field's value as a problem quotes it: its JSON, or its text when it has none (undefined, a function). */
export function show(value: unknown): string {
  // JSON.stringify returns undefined for undefined and functions, which its declared type leaves out.
  return (JSON.stringify(value) as string | undefined) ?? String(value);
}

/** A JSON object (not an array, not null): what the request and its `format`, `types` and `attributes` must be. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
