/** Linear-memory facts the TypeScript side needs to lay out kernel inputs, scratch and outputs. */

/**
 * First byte above the module's static data. Kernels never allocate: everything from here up belongs to the
 * caller, which grows the memory as it needs.
 */
export function heapBase(): usize {
  return __heap_base;
}

/** Reads the i32 at index `i` of the array at `base`. */
// @ts-ignore: decorator
@inline
export function get(base: usize, i: i32): i32 {
  return load<i32>(base + (usize(i) << 2));
}

/** Writes the i32 at index `i` of the array at `base`. */
// @ts-ignore: decorator
@inline
export function put(base: usize, i: i32, value: i32): void {
  store<i32>(base + (usize(i) << 2), value);
}
