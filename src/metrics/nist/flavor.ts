/**
 * Whose NIST a run reproduces. A module of its own because both the metric (./nist.ts) and its oracle failures
 * (./failure.ts, which the metric imports) name the flavors.
 */

/** The implementations whose numbers `Nist` reproduces: mteval-v13a.pl and NLTK 3.8. */
export const NIST_FLAVORS = ['mteval', 'nltk'] as const;
/** One of {@link NIST_FLAVORS}. */
export type NistFlavor = (typeof NIST_FLAVORS)[number];
