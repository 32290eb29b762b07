/** chrF's settings as the CLI gives them: what ./descriptor.ts reads from the flags and ./factory.ts builds from. */
/** chrF settings as the CLI gives them (`undefined` = sacrebleu's default). */
export interface ChrfSettings {
  /** `-cc`. @default 6 */
  readonly charOrder?: number;
  /** `-cw`. @default 0 */
  readonly wordOrder?: number;
  /** `--chrf-beta`. @default 2 */
  readonly beta?: number;
  /** `--chrf-whitespace`. @default false */
  readonly whitespace?: boolean;
  /** `--chrf-lowercase`. @default false */
  readonly lowercase?: boolean;
  /** `--chrf-eps-smoothing`. @default false */
  readonly epsSmoothing?: boolean;
}
