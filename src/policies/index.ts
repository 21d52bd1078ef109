// The policies context as other contexts see it; the rest of the folder is its own (eslint.config.js).
export { AcpDecisionsService } from './acp-decisions.service.js';
export { PoliciesModule } from './policies.module.js';
