/**
 * The metric list of seed 000's Table 1 (BLEU1/4/12, NIST, WER, PER, GTM, ROUGE-L, ROUGE-W-1.2, ROUGE-S*, ROUGE-S4,
 * ROUGE-S9) on the paper's three evaluation sets (§5):
 * - Case: the texts as they are;
 * - NoCase: every metric told to lowercase (each its own way: Python `str.lower()` before the 13a tokenizer);
 * - Stem (English only): the texts lowercased, 13a-tokenized and every alphabetic token longer than 3 characters
 *   replaced by its Porter stem (ROUGE-1.5.5's stemmer, the one its `-m` applies to such tokens), before any metric
 *   sees them — the paper built its Stem set from the system outputs the same way, for all metrics alike.
 *
 * Every metric splits words with sacrebleu's 13a tokenizer, so that all of them see the same words; ROUGE follows
 * the `paper` flavor (Lin & Och 2004: F with β = 1, several references by the best recall and best precision, the
 * textbook WLCS). Multiple references are handled as each metric defines it (BLEU: clipped counts over all
 * references and the closest reference length; NIST: mteval-v13a; WER, PER and GTM: the best reference of each
 * segment; ROUGE: the paper's maximum) — no jackknifing.
 *
 * Corpus (system) scores come from summed statistics rows (`scoreFromStats`), segment scores from one row
 * (`sentenceScoreFromStats`; BLEU then uses the effective order, as sacrebleu's sentence BLEU).
 */
import { Bleu } from '../../src/metrics/bleu/bleu.js';
import { lowerIsBetterMetric } from '../../src/metrics/catalog.js';
import { Gtm } from '../../src/metrics/gtm/gtm.js';
import type { Metric } from '../../src/metrics/metric.js';
import { Nist } from '../../src/metrics/nist/nist.js';
import { Per } from '../../src/metrics/per/per.js';
import { Rouge } from '../../src/metrics/rouge/rouge.js';
import { Wer } from '../../src/metrics/wer/wer.js';
import { rouge155PorterStem } from '../../src/text/rouge/index.js';
import { tokenize13a } from '../../src/text/tokenizers/index.js';
import { pyLower } from '../../src/text/pystr.js';

/** The evaluation sets of seed 000 §5. */
export const TEXT_SETS = ['Case', 'NoCase', 'Stem'] as const;

/** One of {@link TEXT_SETS}. */
export type TextSet = (typeof TEXT_SETS)[number];

/** A metric with its signature (every metric of the list has the `short` form). */
export type SignedMetric = Metric & { signature(nRefs: number, short?: boolean): string };

/** One row of the metric list. */
export interface MetricVariant {
  /** Name as the seed paper writes it (`BLEU4`, `ROUGE-S*`). */
  readonly name: string;
  /** Whether a lower score is better (the error rates), as the metric's descriptor says (src/metrics/catalog.ts). */
  readonly lowerIsBetter: boolean;
  /** The metric for a text set (texts of the Stem set must go through {@link stemText} first). */
  create(set: TextSet): SignedMetric;
}

const TOKENIZE = '13a';

/** Lowercasing is the metric's job in NoCase; in Stem the text is already lowercase. */
function lowercaseFor(set: TextSet): boolean {
  return set === 'NoCase';
}

function rouge(name: string, type: string): MetricVariant {
  return {
    name,
    lowerIsBetter: lowerIsBetterMetric(type),
    create: (set) => new Rouge({ type, flavor: 'paper', tokenizer: TOKENIZE, lowercase: lowercaseFor(set) }),
  };
}

/** Seed 000's metric list, in its order. */
export const SEED_METRICS: readonly MetricVariant[] = [
  ...[1, 4, 12].map(
    (n): MetricVariant => ({
      name: `BLEU${n}`,
      lowerIsBetter: lowerIsBetterMetric('bleu'),
      create: (set) => new Bleu({ maxNgramOrder: n, tokenize: TOKENIZE, lowercase: lowercaseFor(set) }),
    }),
  ),
  { name: 'NIST', lowerIsBetter: lowerIsBetterMetric('nist'), create: (set) => new Nist({ tokenize: TOKENIZE, lowercase: lowercaseFor(set) }) },
  { name: 'WER', lowerIsBetter: lowerIsBetterMetric('wer'), create: (set) => new Wer({ tokenize: TOKENIZE, lowercase: lowercaseFor(set) }) },
  { name: 'PER', lowerIsBetter: lowerIsBetterMetric('per'), create: (set) => new Per({ tokenize: TOKENIZE, lowercase: lowercaseFor(set) }) },
  { name: 'GTM', lowerIsBetter: lowerIsBetterMetric('gtm'), create: (set) => new Gtm({ tokenize: TOKENIZE, lowercase: lowercaseFor(set) }) },
  rouge('ROUGE-L', 'rouge-l'),
  rouge('ROUGE-W-1.2', 'rouge-w-1.2'),
  rouge('ROUGE-S*', 'rouge-s*'),
  rouge('ROUGE-S4', 'rouge-s4'),
  rouge('ROUGE-S9', 'rouge-s9'),
];

/** Alphabetic tokens (any script) are stemmed; numbers and punctuation are left as they are. */
const ALPHABETIC = /^\p{L}+$/u;

/**
 * A line of the Stem set: lowercased (Python `str.lower()`), 13a-tokenized, alphabetic tokens longer than 3
 * characters Porter-stemmed (ROUGE-1.5.5's stemmer), joined by single spaces.
 */
export function stemText(line: string): string {
  return tokenize13a(pyLower(line))
    .split(' ')
    .filter((t) => t.length > 0)
    .map((t) => (t.length > 3 && ALPHABETIC.test(t) ? rouge155PorterStem(t) : t))
    .join(' ');
}

/** The texts of a set: unchanged for Case and NoCase, {@link stemText} for Stem. */
export function textsFor(set: TextSet, lines: readonly string[]): readonly string[] {
  return set === 'Stem' ? lines.map(stemText) : lines;
}
