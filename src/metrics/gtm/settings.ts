/** GTM's settings as the CLI gives them: what ./descriptor.ts reads from the flags and ./factory.ts builds from. */
import type { EditSettings } from '../edit/settings.js';

/** GTM settings as the CLI gives them. */
export interface GtmSettings extends EditSettings {
  /** `--gtm-exponent`: the run exponent e ≥ 1. @default 1 */
  readonly exponent?: number;
}
