// The metrics context as other contexts see it; the rest of the folder is its own (eslint.config.js).
export { processCounter, type ProcessCounter } from './process-counter.js';
