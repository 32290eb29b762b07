/** Palette's version, as it appears in signatures. */
export const VERSION = '0.1.0';
