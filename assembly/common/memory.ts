/** Linear-memory facts the TypeScript side needs to lay out kernel inputs, scratch and outputs. */

/**
 * First byte above the module's static data. Kernels never allocate: everything from here up belongs to the
 * caller, which grows the memory as it needs.
 */
export function heapBase(): usize {
  return __heap_base;
}
