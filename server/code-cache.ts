import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** What Node's CommonJS loader calls to compile and run a module's source (not in its types). */
interface CompilingModule {
  exports: unknown;
  _compile(content: string, filename: string): unknown;
}

/** The code V8 compiled for the files a start ran, kept for the next start; `save()` writes what changed. */
export interface CodeCache {
  save(): void;
}

/**
 * Compiles the built chunks in `dir` with the code V8 made for them at an earlier start, kept in
 * `dir/code-cache/`, and `save()` keeps it once the start has run: the cache then holds every
 * function the start compiled, which one made at compile time (as v8-compile-cache makes it)
 * would not, and most of a start's compiling is of those. A build empties `dir`,
 * the cache with it: V8 checks a cache against its source's length, not its content. Where the
 * directory cannot be written (a read-only install), each start compiles as Node does.
 *
 * CommonJS only, as the build is: ES modules do not compile through `Module.prototype._compile`.
 */
export function installCodeCache(dir: string): CodeCache {
  const cacheDir = path.join(dir, 'code-cache');
  const compiled: { script: vm.Script; file: string }[] = [];
  const prototype = Module.prototype as unknown as CompilingModule;
  const compile = prototype._compile;
  prototype._compile = function (this: CompilingModule, content: string, filename: string) {
    if (path.dirname(filename) !== dir) return compile.call(this, content, filename);
    const file = path.join(cacheDir, `${path.basename(filename)}.bin`);
    const cachedData = readIfThere(file);
    const script = new vm.Script(Module.wrap(content), {
      filename,
      cachedData,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (!cachedData || script.cachedDataRejected) compiled.push({ script, file });
    const run = script.runInThisContext() as (...args: unknown[]) => unknown;
    return run.call(this.exports, this.exports, Module.createRequire(filename), this, filename, dir);
  };
  return {
    save: () => {
      for (const { script, file } of compiled.splice(0)) {
        try {
          fs.mkdirSync(cacheDir, { recursive: true });
          // Written whole, then renamed: a server starting meanwhile reads the old file or the new one.
          const partial = `${file}.${process.pid}`;
          fs.writeFileSync(partial, script.createCachedData());
          fs.renameSync(partial, file);
        } catch {
          return;
        }
      }
    },
  };
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}
