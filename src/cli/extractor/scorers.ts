/**
 * Moses `extractor`'s scorer types (`--sctype`) and scorer configuration (`--scconfig`) mapped onto the metrics of
 * `palette nbest`, for the types whose statistics Palette writes in Moses' layout; every other Moses type is refused
 * by name. Read from Moses' mert/ScorerFactory.cpp, Scorer.cpp (`InitConfig`), StatisticsBasedScorer.cpp,
 * BleuScorer.cpp and InterpolatedScorer.cpp.
 *
 * - `BLEU` is Moses BLEU (src/metrics/bleu/moses-metric.ts), `PER` and `WER` Moses' PER and WER statistics
 *   (src/metrics/per/moses.ts: one reference only, as Moses' PerScorer; src/metrics/wer/moses.ts).
 * - `--sctype A,B` is Moses' InterpolatedScorer: the scorers' statistics one after the other on each line, the
 *   header naming the type as given (`BLEU,PER`), every scorer built with the same configuration.
 * - `--scconfig name:value,name:value`: every item needs a colon (else Moses stops); `case:false` lowercases ASCII
 *   letters (any other value keeps the case, as Moses does), `reflen:closest|shortest|average` (BLEU; another value
 *   is an error), `regtype:none|average|min` (checked as Moses checks it; it changes only Moses' optimiser),
 *   `regwin`, and `weights:w1+w2…` of an interpolated type (their number must match the scorers'). Other names are
 *   ignored, as Moses ignores them.
 */
import { InputError } from '../../errors.js';
import type { MetricSettings } from '../../metrics/registry.js';

/** Moses' scorer types (ScorerFactory::getTypes and the two it builds without listing them). */
const MOSES_TYPES = [
  'BLEU', 'BLEUDOC', 'PER', 'TER', 'CDER', 'CHRF', 'WER', 'MERGE', 'SEMPOS', 'LRSCORE', 'METEOR', 'HWCM', 'M2SCORER',
  'HAMMING', 'KENDALL',
];

/** The Moses types Palette writes exactly, with the `palette nbest` metric that writes them. */
const SUPPORTED: ReadonlyMap<string, string> = new Map([
  ['BLEU', 'bleu'],
  ['PER', 'per-moses'],
  ['WER', 'wer-moses'],
]);

/** What `--sctype` and `--scconfig` ask `palette nbest`'s engine for. */
export interface ExtractorScorer {
  /** Metric ids of the run, in `--sctype` order (repeats kept: Moses writes a repeated scorer's statistics twice). */
  readonly ids: readonly string[];
  /** Their settings (Moses BLEU's case and reference length, Moses PER's and WER's case). */
  readonly settings: MetricSettings;
}

function bad(message: string): InputError {
  return new InputError('E_BAD_OPTION', message);
}

/** `--scconfig` as Moses' `Scorer::InitConfig` reads it: a later item of one name replaces an earlier one. */
export function parseScorerConfig(config: string): Map<string, string> {
  const items = new Map<string, string>();
  let start = 0;
  while (start < config.length) {
    let end = config.indexOf(',', start);
    if (end < 0) end = config.length;
    const item = config.slice(start, end);
    const colon = item.indexOf(':');
    if (colon < 0) throw bad(`--scconfig: missing colon in ${JSON.stringify(item)} (expected NAME:VALUE,NAME:VALUE…): ${JSON.stringify(config)}`);
    items.set(item.slice(0, colon), item.slice(colon + 1));
    start = end + 1;
  }
  return items;
}

/** The scorer types of `--sctype` (Moses splits it at commas, empty pieces dropped). */
function scorerTypes(sctype: string): string[] {
  return sctype.split(',').filter((t) => t !== '');
}

/**
 * The run `--sctype` and `--scconfig` describe.
 * @throws InputError `E_BAD_OPTION` for a type Moses does not have, a type Palette does not write in Moses' layout,
 * or a configuration Moses refuses.
 */
export function extractorScorer(sctype: string, scconfig: string): ExtractorScorer {
  const types = scorerTypes(sctype);
  if (types.length === 0) throw bad(`--sctype: no scorer type in ${JSON.stringify(sctype)}`);
  const config = parseScorerConfig(scconfig);
  const ids: string[] = [];
  for (const type of types) {
    const id = SUPPORTED.get(type);
    if (id !== undefined) {
      ids.push(id);
      continue;
    }
    if (MOSES_TYPES.includes(type)) {
      throw bad(
        `--sctype ${type}: Palette does not write Moses' ${type} statistics (supported: ${[...SUPPORTED.keys()].join(', ')}, ` +
          'or several of them joined by commas)',
      );
    }
    throw bad(`--sctype: unknown scorer type ${JSON.stringify(type)} (Moses' types: ${MOSES_TYPES.join(', ')})`);
  }
  const regtype = config.get('regtype') ?? 'none';
  if (!['none', 'average', 'min'].includes(regtype)) {
    throw bad(`--scconfig regtype:${regtype}: unknown regularisation strategy (none, average or min)`);
  }
  const reflen = config.get('reflen') ?? 'closest';
  if (types.includes('BLEU') && reflen !== 'closest' && reflen !== 'shortest' && reflen !== 'average') {
    throw bad(`--scconfig reflen:${reflen}: unknown reference length strategy (closest, shortest or average)`);
  }
  const weights = config.get('weights');
  if (types.length > 1 && weights !== undefined && weights !== '') {
    const n = weights.split('+').filter((w) => w !== '').length;
    if (n !== types.length) {
      throw bad(`--scconfig weights:${weights}: ${n} weight(s) for ${types.length} scorers (${types.join(',')})`);
    }
  }
  const lowercase = config.get('case') === 'false';
  return {
    ids,
    settings: {
      bleu: { flavor: 'moses', lowercase, refLength: reflen as 'closest' | 'shortest' | 'average' },
      per: { lowercase },
      wer: { lowercase },
    },
  };
}
