import type { FindOptionsWhere, QueryDeepPartialEntity, Repository } from 'typeorm';

/** The columns every hand-off request table has for its verifier. */
interface RedeemableRequest {
  wasUsed: boolean;
  verifierHash: string | null;
}

/**
 * Redeems a verifier of a login, consent or logout request: marks the one answered, unused request
 * holding it used and returns it, or null when there is none. The UPDATE decides, so of two browsers
 * racing with one verifier only one wins. `answered` is the table's SQL condition for "the app has
 * answered and the answer lets the flow go on".
 */
export async function redeemVerifier<T extends RedeemableRequest>(
  rows: Repository<T>,
  verifierHash: string,
  answered: string,
): Promise<T | null> {
  const result = await rows
    .createQueryBuilder()
    .update()
    // TypeScript cannot resolve TypeORM's mapped types over a generic T; the constraint guarantees the column.
    .set({ wasUsed: true } as unknown as QueryDeepPartialEntity<T>)
    .where(`verifier_hash = :verifierHash AND was_used = false AND ${answered}`, { verifierHash })
    .execute();
  if (result.affected !== 1) return null;
  return rows.findOneBy({ verifierHash } as FindOptionsWhere<T>);
}
