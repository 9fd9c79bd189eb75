import { enableCompileCache, flushCompileCache } from 'node:module';

/*
 * Imported first by the entry point, before any other module: Node then keeps the code it
 * compiles for every module loaded afterwards on disk (NODE_COMPILE_CACHE, by default a folder in
 * the system's temporary directory), and the next start reads it back instead of compiling about
 * 2,500 files again. Compiling was the largest single cost of a start. Node checks each entry
 * against the file's contents, so a rebuilt dist/ simply refills it; NODE_DISABLE_COMPILE_CACHE=1
 * turns it off, and a folder that cannot be written leaves the start as it was without it.
 */
enableCompileCache();

/**
 * Writes what this start compiled to the cache now, once the server listens, rather than when the
 * process exits: a process that is killed (or runs for months) would otherwise never leave it.
 */
export function keepCompiledModules(): void {
  flushCompileCache();
}
