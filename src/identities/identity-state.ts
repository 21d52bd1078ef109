/** Kratos' identity `state`: an inactive identity keeps its data but cannot sign in or refresh a session. */
export const IDENTITY_STATES = ['active', 'inactive'] as const;

export type IdentityState = (typeof IDENTITY_STATES)[number];
