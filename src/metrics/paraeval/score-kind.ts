/** ParaEval's score kinds, apart from its class, so that its flags load no matcher. */

/** Which ratio is ParaEval's score. */
export const PARAEVAL_SCORES = ['precision', 'recall'] as const;

/** One of {@link PARAEVAL_SCORES}. */
export type ParaEvalScoreKind = (typeof PARAEVAL_SCORES)[number];
