const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids of the consent tables are uuid columns: anything else names no row (and must not reach PostgreSQL). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
