/*
 * class-transformer's metadata store (what @Type, @Transform, @Expose and @Exclude recorded), read
 * the way class-validator-jsonschema's documentation has it read: the package ships the module and
 * its declaration in different folders (cjs/ and types/), so it is typed here. Its methods are the
 * typed API of class-transformer's MetadataStorage; the package is pinned all the same and what
 * Baton reads of it is checked by test/library-contracts.spec.ts.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the module and its declaration live in different folders
const storage = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

export const classTransformerMetadata = storage.defaultMetadataStorage;
