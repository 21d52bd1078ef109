/** The vendor keyword of identity schemas (Kratos v0.6 `schema/extension.go`). */
export const KRATOS_EXTENSION_KEYWORD = 'ory.sh/kratos';

/** The keyword's value, as its meta-schema below allows it. */
export interface KratosExtensionConfig {
  readonly credentials?: { readonly password?: { readonly identifier?: boolean } };
  readonly verification?: { readonly via?: 'email' };
  readonly recovery?: { readonly via?: 'email' };
}

const VIA = { type: 'object', properties: { via: { enum: ['email'] } }, additionalProperties: false } as const;

/**
 * Meta-schema of the keyword (Kratos' `extension/identity.schema.json`, with `identifier` a boolean as
 * the Go code decodes it). A schema whose extension breaks it does not compile, so the boot stops.
 */
export const KRATOS_EXTENSION_META_SCHEMA = {
  type: 'object',
  properties: {
    credentials: {
      type: 'object',
      properties: {
        password: { type: 'object', properties: { identifier: { type: 'boolean' } }, additionalProperties: false },
      },
      additionalProperties: false,
    },
    verification: VIA,
    recovery: VIA,
    mappings: { type: 'object' },
  },
  additionalProperties: false,
} as const;
