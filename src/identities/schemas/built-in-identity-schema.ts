/**
 * The schema used when IDENTITY_SCHEMAS is not set (id `default`): an e-mail that is the password login
 * identifier, the recovery address and the verifiable address, and an optional name. The same shape as
 * Kratos v0.6's email-password quickstart schema.
 */
export const BUILT_IN_IDENTITY_SCHEMA: Readonly<Record<string, unknown>> = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Person',
  type: 'object',
  properties: {
    traits: {
      type: 'object',
      properties: {
        email: {
          type: 'string',
          format: 'email',
          title: 'E-Mail',
          minLength: 3,
          maxLength: 320,
          'ory.sh/kratos': {
            credentials: { password: { identifier: true } },
            verification: { via: 'email' },
            recovery: { via: 'email' },
          },
        },
        name: {
          type: 'object',
          properties: {
            first: { type: 'string', title: 'First Name', maxLength: 256 },
            last: { type: 'string', title: 'Last Name', maxLength: 256 },
          },
          additionalProperties: false,
        },
      },
      required: ['email'],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};
