/**
 * Type declarations of the WebAssembly JavaScript API, as far as Palette uses it. Node has the API at runtime, but
 * the project compiles with `lib: ["ES2023"]` and @types/node 20, and neither declares it (TypeScript keeps it in
 * its DOM lib, which would bring every browser global with it). Shapes follow the WebAssembly JS API spec.
 */
declare global {
  namespace WebAssembly {
    /** A compiled module: stateless, structured-cloneable (can be posted to worker threads). */
    interface Module {}
    /** Describes one import of a module. */
    interface ModuleImportDescriptor {
      readonly module: string;
      readonly name: string;
      readonly kind: 'function' | 'table' | 'memory' | 'global' | 'tag';
    }
    /** Describes one export of a module. */
    interface ModuleExportDescriptor {
      readonly name: string;
      readonly kind: 'function' | 'table' | 'memory' | 'global' | 'tag';
    }
    /** Constructor of {@link Module} (synchronous compilation). */
    var Module: {
      prototype: Module;
      new (bytes: ArrayBufferView | ArrayBuffer): Module;
      imports(module: Module): ModuleImportDescriptor[];
      exports(module: Module): ModuleExportDescriptor[];
    };
    /** Values given to an instance as imports, by module and name. */
    type Imports = Record<string, Record<string, unknown>>;
    /** An instantiated module. */
    interface Instance {
      readonly exports: Record<string, unknown>;
    }
    /** Constructor of {@link Instance} (synchronous instantiation). */
    var Instance: {
      prototype: Instance;
      new (module: Module, imports?: Imports): Instance;
    };
    /** Sizes of a memory, in 64 KiB pages. */
    interface MemoryDescriptor {
      initial: number;
      maximum?: number;
      shared?: boolean;
    }
    /** A linear memory; `grow` detaches the previous `buffer` of a non-shared memory. */
    interface Memory {
      readonly buffer: ArrayBuffer;
      grow(deltaPages: number): number;
    }
    /** Constructor of {@link Memory}. */
    var Memory: {
      prototype: Memory;
      new (descriptor: MemoryDescriptor): Memory;
    };
    /** Thrown for bytes that are not a valid module. */
    interface CompileError extends Error {}
    /** Constructor of {@link CompileError}. */
    var CompileError: {
      prototype: CompileError;
      new (message?: string): CompileError;
    };
    /** Thrown when a module traps at run time. */
    interface RuntimeError extends Error {}
    /** Constructor of {@link RuntimeError}. */
    var RuntimeError: {
      prototype: RuntimeError;
      new (message?: string): RuntimeError;
    };
    /** Compiles bytes asynchronously. */
    function compile(bytes: ArrayBufferView | ArrayBuffer): Promise<Module>;
    /** Instantiates a compiled module asynchronously. */
    function instantiate(module: Module, imports?: Imports): Promise<Instance>;
  }
}

export {};
