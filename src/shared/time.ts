/** ISO 8601 string for a Date or a timestamp value coming from either store. */
export function iso(value: Date | string | null | undefined): string | undefined {
  if (value == null) return undefined;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
