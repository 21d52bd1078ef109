/**
 * The standard claims each OpenID Connect scope releases (OIDC Core §5.4), shared by discovery (what
 * it lists) and the built-in consent (what it puts into ID tokens and /userinfo).
 */
export const SCOPE_CLAIMS: Readonly<Record<string, readonly string[]>> = {
  profile: [
    'name',
    'family_name',
    'given_name',
    'middle_name',
    'nickname',
    'preferred_username',
    'profile',
    'picture',
    'website',
    'gender',
    'birthdate',
    'zoneinfo',
    'locale',
    'updated_at',
  ],
  email: ['email', 'email_verified'],
  phone: ['phone_number', 'phone_number_verified'],
  address: ['address'],
};

/**
 * Where each claim is read from in an identity's traits (dotted paths), before OIDC_CLAIMS_MAPPING is
 * laid over it. Fits the built-in schema (`email`, `name.first`, `name.last`) and the usual trait names
 * of Kratos schemas. `email_verified` is not a trait: it comes from the verifiable address of `email`,
 * and `updated_at` from the identity itself; `name`, when no trait holds it as text, is composed from
 * the given and family names.
 */
export const DEFAULT_CLAIMS_MAPPING: Readonly<Record<string, string>> = {
  email: 'email',
  name: 'name',
  given_name: 'name.first',
  family_name: 'name.last',
  middle_name: 'name.middle',
  nickname: 'nickname',
  preferred_username: 'username',
  profile: 'profile',
  picture: 'picture',
  website: 'website',
  gender: 'gender',
  birthdate: 'birthdate',
  zoneinfo: 'zoneinfo',
  locale: 'locale',
  phone_number: 'phone',
  address: 'address',
};

/** The default mapping with OIDC_CLAIMS_MAPPING laid over it (`null` withholds a claim). */
export function effectiveClaimsMapping(overrides: Readonly<Record<string, string | null>>): Readonly<Record<string, string>> {
  const mapping: Record<string, string> = { ...DEFAULT_CLAIMS_MAPPING };
  for (const [claim, path] of Object.entries(overrides)) {
    if (path === null) delete mapping[claim];
    else mapping[claim] = path;
  }
  return mapping;
}
