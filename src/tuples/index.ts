// The tuples context as other contexts see it; the rest of the folder is its own (eslint.config.js).
export { TuplesModule } from './tuples.module.js';
export { TuplesService } from './tuples.service.js';
