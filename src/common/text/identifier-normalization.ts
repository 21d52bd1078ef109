/** ASCII, the characters that other characters must never turn into silently. */
// eslint-disable-next-line no-control-regex -- the whole ASCII range, controls included
const ASCII = /[\u0000-\u007f]/;
/** A lone surrogate: not text, and PostgreSQL refuses it in JSON. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The one normalisation of login identifiers and e-mail addresses (traits, login, recovery,
 * verification, admin filters): Unicode NFC, then lower case (and NFC again, as lower-casing can
 * produce decomposed sequences). So `Zoë@x` typed with a combining diaeresis and `ZOË@X` are the same
 * identifier: canonically equivalent text is the same text.
 *
 * Normalisation must never make one character into another one a person would read differently, or
 * a look-alike address finds someone else's account. So a value is refused (`undefined`) when:
 * - it holds a compatibility character, i.e. its NFKC form differs from its NFC form (full-width
 *   `ｋ`, ligatures such as `ﬁ`, superscripts): those are other characters that only look alike;
 * - one of its non-ASCII characters is not NFC on its own (the singletons: U+212A KELVIN SIGN becomes
 *   `K`, U+2126 OHM SIGN becomes `Ω`, U+212B ANGSTROM SIGN becomes `Å`);
 * - one of its non-ASCII characters lower-cases to something holding ASCII (U+0130 `İ` becomes `i`
 *   plus a combining dot);
 * - it holds a lone surrogate.
 * Only `toLowerCase` folds case, no full case folding: `ß` stays `ß`, so `straße@x` and `strasse@x`
 * are two different identifiers, as they are two different mailboxes.
 */
export function normalizeIdentifier(value: string): string | undefined {
  if (LONE_SURROGATE.test(value)) return undefined;
  const composed = value.normalize('NFC');
  if (composed.normalize('NFKC') !== composed) return undefined;
  for (const char of value) {
    if (ASCII.test(char)) continue;
    if (char.normalize('NFC') !== char || ASCII.test(char.toLowerCase())) return undefined;
  }
  return composed.toLowerCase().normalize('NFC');
}
