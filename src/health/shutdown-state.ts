import { Injectable } from '@nestjs/common';

/** Set when a shutdown begins; readiness reports 503 from then on while requests are still served. */
@Injectable()
export class ShutdownState {
  private draining = false;

  begin(): void {
    this.draining = true;
  }

  get isShuttingDown(): boolean {
    return this.draining;
  }
}
