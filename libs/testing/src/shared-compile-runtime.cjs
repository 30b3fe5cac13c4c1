// Jest's module runtime (jest.config.js `runtime`), compiling each module as a vm.Script instead of with
// vm.compileFunction. Jest gives every test file a fresh vm context and module registry, so a worker compiles the
// same thousands of modules (Nest, Prisma, our libs) again for each file it runs. V8 keeps compiled scripts in a
// per-process cache keyed by source and file name, across contexts; compileFunction never uses that cache, a
// Script does. With a Script the second and later files of a worker take each module's compiled code (and the
// functions compiled lazily while an earlier file ran) from that cache. Every module is still executed in the
// file's own context: isolation between test files is unchanged.
//
// The compile step is ModuleExecutor.compile inside jest-runtime, not a public hook; should a jest version not
// have it, this runtime is jest's own, unchanged. Loaded by jest with plain require (never transformed): CommonJS.
const { createRequire } = require('node:module');
const { Script } = require('node:vm');

// The jest-runtime that jest itself runs, resolved from jest (a dependency of this repository; jest-runtime is one
// of jest's own).
const Runtime = createRequire(require.resolve('jest'))('jest-runtime').default;

/** The module wrapper, alone on the line before the source so the source's lines and columns stay its own. */
function wrapperOf(parameters) {
  return `({"Object.<anonymous>":function(${parameters.join(',')}){`;
}

class SharedCompileRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    if (typeof executor?.compile !== 'function' || !Array.isArray(executor.injectedModuleParameters)) return;
    const compileFunction = executor.compile.bind(executor);
    const header = wrapperOf(executor.injectedModuleParameters);
    executor.compile = (scriptSource, filename) => {
      const vmContext = executor.environment.getVmContext();
      // Jest's own path for what is not a plain file: a disposed environment, a core module's source.
      if (vmContext == null || executor.resolution.isCoreModule(filename))
        return compileFunction(scriptSource, filename);
      let script;
      try {
        script = new Script(`${header}\n${scriptSource}\n}});`, {
          filename,
          lineOffset: -1,
          importModuleDynamically: (specifier, _script, importAttributes, phase) =>
            executor.dynamicImport(specifier, filename, vmContext, importAttributes, phase),
        });
      } catch {
        // A syntax error: jest's path reports it (and an ES module's syntax) the way jest users know.
        return compileFunction(scriptSource, filename);
      }
      return script.runInContext(vmContext)['Object.<anonymous>'];
    };
  }
}

module.exports = SharedCompileRuntime;
