/** The longest wait between two attempts, however many failed before. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

/** Exponential backoff: `base` after the first failed attempt, doubling with each further one, capped at one hour. */
export function retryDelayMs(failedAttempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_DELAY_MS);
}
