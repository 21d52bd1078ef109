import { ConsoleLogger } from '@nestjs/common';

/**
 * Nest's own start-up lines: one per module ("... dependencies initialized"), per controller and per
 * route. At `info` they bury the few lines an operator needs (migrations applied, warnings, the URLs),
 * so they are logged at `debug`.
 */
const START_UP_CONTEXTS: ReadonlySet<string> = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

/** The process logger: Nest's JSON console logger, with Nest's start-up chatter moved to `debug`. */
export class AppLogger extends ConsoleLogger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && START_UP_CONTEXTS.has(context)) {
      this.debug(message, ...optionalParams);
      return;
    }
    super.log(message, ...optionalParams);
  }
}
