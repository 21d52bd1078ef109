/** A command was given something it cannot use (a bad argument, a malformed input line): exit code 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}
