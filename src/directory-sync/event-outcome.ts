/** What a received event did: its effects committed, nothing (replay, superseded), refused, or could not be applied. */
export const EVENT_OUTCOMES = ['applied', 'duplicate', 'rejected', 'failed'] as const;

export type EventOutcome = (typeof EVENT_OUTCOMES)[number];
