/**
 * The one normalisation of login identifiers and e-mail addresses: Unicode NFC, then lower case (and
 * NFC again, as lower-casing can produce decomposed sequences). So `Zoë@x` typed with a combining
 * diaeresis and `ZOË@X` are the same identifier. Used on write and on lookup alike.
 */
export function normalizeIdentifier(value: string): string {
  return value.normalize('NFC').toLowerCase().normalize('NFC');
}
