/** A subject, resource or action pattern that does not compile for its flavor; the message says why. */
export class PatternSyntaxError extends Error {
  override readonly name = 'PatternSyntaxError';
}
