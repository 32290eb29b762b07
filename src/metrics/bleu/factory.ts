/** How BLEU's settings become an instance of the flavor they name: the code ./descriptor.ts imports only when a run names BLEU. */
import { badOption, InputError } from '../../errors.js';
import { cliMetric, type CliMetric, type MetricFactory } from '../descriptor.js';
import { Bleu } from './bleu.js';
import { BLEU_FLAVORS, type BleuFlavor, type BleuSettings } from './settings.js';
import { LinOchBleu } from './lin-och.js';
import { MosesBleu } from './moses-metric.js';
import { NltkBleu } from './nltk-metric.js';

/** Why a flavor has no use for a sacrebleu smoothing flag. */
const OWN_SMOOTHING: Readonly<Record<Exclude<BleuFlavor, 'sacrebleu'>, string>> = {
  nltk: 'NLTK smooths with --nltk-smoothing',
  moses: "Moses' corpus BLEU is unsmoothed and its -sl sentence BLEU is BLEU+1",
  'lin-och': 'lin-och smoothing is fixed: add 1 for n > 1, no effective order',
};

/** Refuses the flags the chosen flavor has no use for. */
function checkBleuFlags(s: BleuSettings, flavor: BleuFlavor): void {
  if (flavor !== 'sacrebleu') {
    const smoothing = [
      ['-s/--smooth-method', s.smoothMethod],
      ['-sv/--smooth-value', s.smoothValue],
      ['--bleu-effective-order', s.effectiveOrder || undefined],
    ] as const;
    for (const [flag, value] of smoothing) {
      if (value !== undefined) {
        throw new InputError('E_BAD_OPTION', `${flag} applies to --bleu-flavor sacrebleu (${OWN_SMOOTHING[flavor]})`);
      }
    }
  }
  if (flavor === 'nltk' && s.refLength !== undefined) {
    throw new InputError(
      'E_BAD_OPTION',
      '--bleu-ref-length applies to --bleu-flavor sacrebleu, moses and lin-och ' +
        '(NLTK uses the closest reference length)',
    );
  }
  if (flavor !== 'nltk' && s.nltkSmoothing !== undefined) {
    throw new InputError('E_BAD_OPTION', '--nltk-smoothing needs --bleu-flavor nltk');
  }
}

function createBleu(s: BleuSettings, sentenceLevel: boolean): CliMetric {
  const flavor = s.flavor ?? 'sacrebleu';
  if (!(BLEU_FLAVORS as readonly string[]).includes(flavor)) {
    throw badOption('--bleu-flavor', `one of ${BLEU_FLAVORS.join(', ')}`, flavor);
  }
  checkBleuFlags(s, flavor);
  if (flavor === 'nltk') {
    const n = s.maxNgramOrder;
    const nltk = new NltkBleu({
      tokenize: s.tokenize,
      lowercase: s.lowercase,
      method: s.nltkSmoothing,
      weights: n === undefined ? undefined : Array.from({ length: n }, () => 1 / n),
    });
    return {
      metric: nltk,
      // NltkBleu has only the long form; its keys are Palette's own, so the short form keeps them.
      signature: (nRefs) => nltk.signature(nRefs),
      corpusScore: (rows) => nltk.corpusScoreFromRows(rows),
    };
  }
  if (flavor === 'moses') {
    const moses = new MosesBleu({
      tokenize: s.tokenize,
      lowercase: s.lowercase,
      refLength: s.refLength,
      maxNgramOrder: s.maxNgramOrder,
    });
    return {
      metric: moses,
      // -sl scores are Moses' smoothed sentence BLEU, which its signature says.
      signature: (nRefs, short) => (sentenceLevel ? moses.sentenceSignature(nRefs, short) : moses.signature(nRefs, short)),
      // Moses sums the statistics in single precision, in corpus order.
      corpusScore: (rows) => moses.corpusScoreFromRows(rows),
    };
  }
  const text = { tokenize: s.tokenize, lowercase: s.lowercase, maxNgramOrder: s.maxNgramOrder, refLength: s.refLength };
  if (flavor === 'lin-och') return cliMetric(new LinOchBleu(text));
  return cliMetric(
    new Bleu({
      ...text,
      smoothMethod: s.smoothMethod,
      smoothValue: s.smoothValue,
      // sacrebleu's CLI forces effective order on in sentence-level mode, which its signature then reports.
      effectiveOrder: sentenceLevel ? true : (s.effectiveOrder ?? false),
    }),
  );
}

/** BLEU of the flavor the settings name; `-sl` switches sacrebleu's effective order on and Moses' BLEU+1. */
export const createBleuMetric: MetricFactory<BleuSettings> = (_id, settings, context) => createBleu(settings, context.sentenceLevel);
