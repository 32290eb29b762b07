/** TER's settings and flavors as the CLI gives them: what ./descriptor.ts reads from the flags and ./factory.ts builds from. */
/** TER implementations `--ter-flavor` selects. */
export const TER_FLAVORS = ['sacrebleu', 'tercom'] as const;

/** One of {@link TER_FLAVORS}: sacreBLEU 2.6.0 (the default) or tercom 0.10.0. */
export type TerFlavor = (typeof TER_FLAVORS)[number];

/** TER settings as the CLI gives them (`undefined` = sacreBLEU's default, or tercom's for its search limits). */
export interface TerSettings {
  /** `--ter-flavor`. @default 'sacrebleu' */
  readonly flavor?: TerFlavor;
  /** `--ter-case-sensitive`. @default false */
  readonly caseSensitive?: boolean;
  /** `--ter-asian-support`. @default false */
  readonly asianSupport?: boolean;
  /** `--ter-no-punct`. @default false */
  readonly noPunct?: boolean;
  /** `--ter-normalized`. @default false */
  readonly normalized?: boolean;
  /** `--ter-beam` (tercom flavor, tercom's `-b`). @default 20 */
  readonly beamWidth?: number;
  /** `--ter-max-shift-distance` (tercom flavor, tercom's `-d`). @default 50 */
  readonly maxShiftDistance?: number;
}
