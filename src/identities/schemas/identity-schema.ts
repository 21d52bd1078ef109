import type { ErrorObject, ValidateFunction } from 'ajv';
import { IdentitiesError } from '../identities.errors.js';
import type { DerivedAddress, DerivedIdentifier, DerivedTraits } from './derived-traits.js';
import { normalizeIdentifier } from '../../common/text/identifier-normalization.js';
import type { KratosExtensionConfig } from './kratos-extension.js';

/** One extension keyword met while validating: where, with which value, saying what. */
export interface ExtensionHit {
  readonly instancePath: string;
  readonly value: unknown;
  readonly config: KratosExtensionConfig;
}

/** Runs a compiled validator and returns the extension keywords it met (see SchemaCompiler). */
export type TraitsValidator = (document: unknown) => { readonly validate: ValidateFunction; readonly hits: readonly ExtensionHit[] };

/**
 * A compiled identity schema. Like Kratos, it validates the document `{"traits": <traits>}`, so the
 * schema describes an object with a `traits` property. Validation also derives login identifiers and
 * addresses from the traits marked with the `ory.sh/kratos` extension.
 */
export class IdentitySchema {
  constructor(
    readonly id: string,
    readonly document: Readonly<Record<string, unknown>>,
    /** Dotted paths of identifier traits reachable through `properties` alone (the list filters). */
    readonly identifierTraitPaths: ReadonlySet<string>,
    private readonly run: TraitsValidator,
    private readonly isEmail: (value: string) => boolean,
  ) {}

  /** Validates the traits (400 naming the first failing trait path) and derives identifiers and addresses. */
  validate(traits: Record<string, unknown>): DerivedTraits {
    const { validate, hits } = this.run({ traits });
    const [error] = validate.errors ?? [];
    if (error !== undefined) throw IdentitiesError.invalidTraits(pathOf(error), error.message ?? 'is invalid', error.keyword);

    const identifiers = new Map<string, DerivedIdentifier>();
    const verifiable = new Map<string, DerivedAddress>();
    const recovery = new Map<string, DerivedAddress>();
    for (const hit of hits) {
      const traitPath = dottedPath(hit.instancePath.split('/').slice(2));
      const { config } = hit;
      if (config.credentials?.password?.identifier === true) {
        const identifier = this.identifierValue(hit, traitPath);
        if (identifier !== '' && !identifiers.has(identifier)) identifiers.set(identifier, { identifier, traitPath });
      }
      if (config.verification?.via === 'email') {
        const value = this.emailValue(hit, traitPath);
        verifiable.set(value, { via: 'email', value });
      }
      if (config.recovery?.via === 'email') {
        const value = this.emailValue(hit, traitPath);
        recovery.set(value, { via: 'email', value });
      }
    }
    return {
      identifiers: [...identifiers.values()],
      verifiableAddresses: [...verifiable.values()],
      recoveryAddresses: [...recovery.values()],
    };
  }

  private identifierValue(hit: ExtensionHit, traitPath: string): string {
    if (typeof hit.value === 'string') {
      const identifier = normalizeIdentifier(hit.value);
      if (identifier === undefined) {
        throw IdentitiesError.invalidTraits(
          `traits.${traitPath}`,
          'must not hold characters that normalization would turn into others (look-alikes such as K KELVIN SIGN or full-width letters)',
          'format',
        );
      }
      return identifier;
    }
    if (typeof hit.value === 'number') return String(hit.value);
    throw IdentitiesError.invalidTraits(`traits.${traitPath}`, 'a login identifier must be a string or a number', 'ory.sh/kratos');
  }

  private emailValue(hit: ExtensionHit, traitPath: string): string {
    const value = typeof hit.value === 'string' && this.isEmail(hit.value) ? normalizeIdentifier(hit.value) : undefined;
    if (value === undefined) {
      throw IdentitiesError.invalidTraits(`traits.${traitPath}`, 'must be a valid email address to be used as an address', 'format');
    }
    return value;
  }
}

/** `traits.name.first` for a failure at `/traits/name/first`; a missing property is appended. */
function pathOf(error: ErrorObject): string {
  const segments = error.instancePath === '' ? [] : error.instancePath.split('/').slice(1);
  const params = error.params as { missingProperty?: unknown; additionalProperty?: unknown };
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') segments.push(params.missingProperty);
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') segments.push(params.additionalProperty);
  return segments.length === 0 ? 'traits' : dottedPath(segments);
}

function dottedPath(pointerSegments: readonly string[]): string {
  return pointerSegments.map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
}
