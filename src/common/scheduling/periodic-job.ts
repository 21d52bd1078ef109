import type { Logger } from '@nestjs/common';

/** What a periodic job logs: at debug after a run (with the counts it returned), at warn when one fails. */
export interface PeriodicJobMessages {
  readonly done: string;
  readonly failed: string;
}

/**
 * Runs a clean-up every `seconds` (0 = never). The timer does not keep the process alive, and runs
 * never overlap: a tick that finds the previous run still going is skipped rather than stacked on it.
 * A failed run is logged and the next tick tries again.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly logger: Logger,
    private readonly messages: PeriodicJobMessages,
    private readonly run: () => Promise<object>,
  ) {}

  start(seconds: number): void {
    if (seconds === 0) return;
    this.timer = setInterval(() => void this.tick(), seconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const counts = await this.run();
      this.logger.debug({ msg: this.messages.done, ...counts });
    } catch (error) {
      this.logger.warn({ msg: this.messages.failed, error: error instanceof Error ? error.message : String(error) });
    } finally {
      this.running = false;
    }
  }
}
