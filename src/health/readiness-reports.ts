import { Injectable } from '@nestjs/common';

/** What a component says about its own state: `failing` takes the instance out of rotation. */
export interface ReadinessReport {
  readonly failing: boolean;
  readonly message: string;
}

/**
 * Components that load something outside the database (rule files, for one) report here what went
 * wrong; readiness shows it. A failing report makes the instance not ready; a non-failing one is shown
 * as a detail of a ready instance (it still serves, with what it loaded last).
 */
@Injectable()
export class ReadinessReports {
  private readonly reports = new Map<string, ReadinessReport>();

  set(component: string, report: ReadinessReport | undefined): void {
    if (report === undefined) this.reports.delete(component);
    else this.reports.set(component, report);
  }

  entries(): ReadonlyMap<string, ReadinessReport> {
    return this.reports;
  }
}
