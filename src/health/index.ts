// The health context as other contexts see it; the rest of the folder is its own (eslint.config.js).
export { HealthModule } from './health.module.js';
export { ReadinessReports } from './readiness-reports.js';
