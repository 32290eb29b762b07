/**
 * sacreBLEU's default seed, in a module of its own so that the commands' option tables can name it without loading
 * the resampling code (./significance.ts re-exports it).
 */

/** sacreBLEU's default seed. */
export const DEFAULT_SEED = 12345;
