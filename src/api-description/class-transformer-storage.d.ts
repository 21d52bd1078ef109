// class-transformer publishes its metadata storage's types apart from its CommonJS build, which is the
// copy Node loads for `class-transformer` (the package has no exports map) and so the one its decorators fill.
declare module 'class-transformer/cjs/storage.js' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage.js';
}
