import type { NamedStatement } from '../database/named-statements.js';

/**
 * The statement that redeems a verifier of a login, consent or logout request: marks the one
 * answered, unused request holding it used and returns it, in one round trip. The UPDATE decides, so
 * of two browsers racing with one verifier only one wins (the loser waits for the winner's row lock,
 * then sees `was_used` and matches nothing). `answered` is the table's SQL condition for "the app has
 * answered and the answer lets the flow go on"; `columns` what it returns.
 */
export function redeemStatement(name: string, table: string, answered: string, columns: string): NamedStatement {
  return {
    name,
    text: `UPDATE "${table}" SET "was_used" = true
      WHERE "verifier_hash" = $1 AND "was_used" = false AND ${answered}
      RETURNING ${columns}`,
  };
}
