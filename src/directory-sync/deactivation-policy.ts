/** What a directory's `active: false` or `user.deleted` does to the linked identity. */
export const DEACTIVATION_POLICIES = ['deactivate', 'delete'] as const;

export type DeactivationPolicy = (typeof DEACTIVATION_POLICIES)[number];
