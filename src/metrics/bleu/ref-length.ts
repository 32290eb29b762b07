/** BLEU's reference-length strategies, apart from its class, so that its flags load no BLEU code. */

/** How a segment's reference length is chosen from its references' lengths. */
export type BleuRefLength = 'closest' | 'shortest' | 'average';

/** The reference-length strategies. */
export const BLEU_REF_LENGTHS: readonly BleuRefLength[] = ['closest', 'shortest', 'average'];
