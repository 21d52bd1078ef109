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
    ['\u0418\u0432\u0430\u043d@example.com', '\u0438\u0432\u0430\u043d@example.com', 'an all-Cyrillic local part'],
    [
      '\u0438\u0432\u0430\u043d@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444',
      '\u0438\u0432\u0430\u043d@\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444',
      'all Cyrillic',
    ],
    ['\u03b5\u03bb\u03bb\u03b1\u03c2@example.com', '\u03b5\u03bb\u03bb\u03b1\u03c2@example.com', 'a Greek local part at a Latin domain'],
    ['taro\u592a\u90ce@example.jp', 'taro\u592a\u90ce@example.jp', 'Latin and Han'],
    ['Yuki.\u3086\u304d\u30e6\u30ad@example.jp', 'yuki.\u3086\u304d\u30e6\u30ad@example.jp', 'Latin, Hiragana and Katakana'],
    ['min\uc900@example.kr', 'min\uc900@example.kr', 'Latin and Hangul'],
    [
      '\u0438\u0432\u0430\u043d-2_\u0432.1@ex-ample2.com',
      '\u0438\u0432\u0430\u043d-2_\u0432.1@ex-ample2.com',
      'digits, - _ . mix with any script',
    ],
  ])('%s → %s: %s', (typed, normalized) => {
    expect(normalizeIdentifier(typed)).toBe(normalized);
    expect(isEmailAddress(typed)).toBe(true);
  });

  it.each([
    ['p\u0430ypal', 'Cyrillic а'],
    ['k\u0435vin', 'Cyrillic е'],
    ['b\u043eb', 'Cyrillic о'],
    ['\u0440aul', 'Cyrillic р'],
    ['\u0441arol', 'Cyrillic с'],
    ['ma\u0445', 'Cyrillic х'],
    ['b\u03bfb', 'Greek ο'],
    ['j\u0585hn', 'Armenian օ'],
    ['\u13aallen', 'Cherokee Ꭺ'],
    ['\u0438\u0432\u03b1\u043d', 'Cyrillic with Greek α'],
  ])('%s is refused in a local part, in a domain label and as an identifier: %s', (label) => {
    for (const typed of [`${label}@example.com`, `kate@${label}.com`, `kate@mail.${label}`, label]) {
      expect(normalizeIdentifier(typed), typed).toBeUndefined();
    }
    expect(isEmailAddress(`${label}@example.com`)).toBe(false);
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
