/** ASCII, the characters that other characters must never turn into silently. */
// eslint-disable-next-line no-control-regex -- the whole ASCII range, controls included
const ASCII = /[\u0000-\u007f]/;
/** A lone surrogate: not text, and PostgreSQL refuses it in JSON. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Latin letters (and Latin marks that are not Inherited). */
const LATIN = /\p{Script=Latin}/u;
/**
 * The scripts with many letters that read as Latin ones (`а`, `е`, `о`, `р`, `с`, `х` in Cyrillic, `ο`
 * in Greek, `օ` in Armenian, `Ꭺ` in Cherokee, `ꓑ` in Lisu...). Han, Hiragana, Katakana and Hangul are not
 * here: mixed with Latin they are ordinary Japanese or Korean text, and no letter of theirs reads as Latin.
 */
const CONFUSABLE_SCRIPTS = [
  /\p{Script=Cyrillic}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Coptic}/u,
  /\p{Script=Armenian}/u,
  /\p{Script=Cherokee}/u,
  /\p{Script=Lisu}/u,
  /\p{Script=Canadian_Aboriginal}/u,
];

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
 * - one of its labels mixes scripts that read alike: Latin letters with letters of a script commonly
 *   confused with Latin (Cyrillic, Greek, Armenian, Cherokee...), or letters of two such scripts, so
 *   `pаypal` with a Cyrillic `а` is refused. A label written in one such script alone (`ελλας`, `иван`)
 *   is someone's real name, and Latin with Han, Hiragana, Katakana or Hangul is ordinary text; digits,
 *   punctuation and combining marks belong to no script and mix with any;
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
  if (labelsOf(composed).some(mixesLookAlikeScripts)) return undefined;
  return composed.toLowerCase().normalize('NFC');
}

/**
 * The parts of an identifier whose scripts must not mix: for an e-mail address its local part and
 * each dot-separated domain label (a Greek local part at a Latin domain is a real address); otherwise
 * the whole identifier.
 */
function labelsOf(identifier: string): string[] {
  const at = identifier.lastIndexOf('@');
  if (at < 0) return [identifier];
  return [identifier.slice(0, at), ...identifier.slice(at + 1).split('.')];
}

function mixesLookAlikeScripts(label: string): boolean {
  const confusable = CONFUSABLE_SCRIPTS.filter((script) => script.test(label)).length;
  return confusable > 1 || (confusable === 1 && LATIN.test(label));
}
