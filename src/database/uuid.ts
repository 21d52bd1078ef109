const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value can name a row by a uuid column: anything else names no row, and must not reach
 * PostgreSQL (the cast would fail the statement).
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
