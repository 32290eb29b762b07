/** The NP-chunk metric's and IMPACT's settings as the CLI gives them: what ./descriptor.ts reads from the flags and ./factory.ts builds from. */
/** IMPACT and NP-chunk settings as the CLI gives them (`undefined` = the seed paper's values). */
export interface NpChunkSettings {
  /** `--chunker` (npchunk): a chunker name from src/text/chunk/. @default 'compromise' */
  readonly chunker?: string;
  /** `--impact-alpha`: α, 0..1. @default 0.1 */
  readonly alpha?: number;
  /** `--impact-beta`: β ≥ 1. @default 1.1 */
  readonly beta?: number;
  /** `--impact-rounds`: RN, the last round counted. @default all rounds */
  readonly rounds?: number;
  /** `--npchunk-delta`: δ ≥ 0 (npchunk). @default 0.3 */
  readonly delta?: number;
  /** `--impact-lowercase`. @default false */
  readonly lowercase?: boolean;
}
