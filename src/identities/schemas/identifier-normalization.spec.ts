import { describe, expect, it } from 'vitest';
import { isEmailAddress } from './email-address.js';
import { normalizeIdentifier } from '../../common/text/identifier-normalization.js';

describe('normalizeIdentifier', () => {
  it.each([
    ['Kate@Example.com', 'kate@example.com'],
    ['Zoe\u0308@Example.com', 'zo\u00eb@example.com'],
    ['ZO\u00cb@example.com', 'zo\u00eb@example.com'],
    ['stra\u00dfe@example.de', 'stra\u00dfe@example.de'],
    ['STRASSE@example.de', 'strasse@example.de'],
    ['\u00c5sa@example.se', '\u00e5sa@example.se'],
    ['A\u030asa@example.se', '\u00e5sa@example.se'],
    ['\u0395\u039b\u039b\u0391\u03a3@example.gr', '\u03b5\u03bb\u03bb\u03b1\u03c2@example.gr'],
  ])('%s → %s (canonically equivalent text is the same text; ß is not ss)', (typed, normalized) => {
    expect(normalizeIdentifier(typed)).toBe(normalized);
    expect(isEmailAddress(typed)).toBe(true);
  });

  it.each([
    ['\u212Aate@example.com', 'U+212A KELVIN SIGN (NFC turns it into K)'],
    ['\u2126mega@example.com', 'U+2126 OHM SIGN (NFC turns it into Ω)'],
    ['\u212Bsa@example.se', 'U+212B ANGSTROM SIGN'],
    ['\uff4bate@example.com', 'full-width k'],
    ['\uff2bATE@EXAMPLE.COM', 'full-width K'],
    ['kate@ｅxample.com', 'full-width e in the domain'],
    ['\ufb01le@example.com', 'the fi ligature'],
    ['\u0130nci@example.com', 'U+0130 (lower-cases to i plus a combining dot)'],
    ['kate\u00b2@example.com', 'superscript two'],
    ['kate\ud800@example.com', 'a lone surrogate'],
  ])('%s is refused: %s', (typed) => {
    expect(normalizeIdentifier(typed)).toBeUndefined();
    expect(isEmailAddress(typed)).toBe(false);
  });
});
