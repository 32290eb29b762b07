/**
 * ROUGE under a markup sentence split (`t-tags`, `marker:STR`): the tags and the markers are markup, not words, and
 * text outside the `<t>` elements is no part of the summary, for every ROUGE type in every flavor; only the sentence
 * boundaries they give matter, and only to the types that read sentences.
 * - every flavor and type gives the same statistics on marked-up texts (with text outside the tags) as on the same
 *   sentences joined by newlines under `--split-sentences newline`, also with ROUGE-1.5.5's length limits;
 * - rouge155 ROUGE-L's one line made of the sentences is cut by a limit as the joined line would be;
 * - `palette score` on `<t>`-marked and `<q>`-separated SummEval summaries equals rouge-score on the sentences
 *   (test/fixtures/rouge-markup/, copied from golden/rouge-score/summeval.ref0.json: see its SOURCE.md);
 * - `palette nbest` leaves its fast path for a markup split and gives the per-metric numbers.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkJobContext, streamReferenceSource } from '../src/engine/nbest/chunk-job.js';
import { resolveNbestMetricIds } from '../src/engine/nbest/nbest-metrics.js';
import { scoreTask, type NbestTaskSettings } from '../src/engine/nbest/nbest-task.js';
import { defaultRegistry, type MetricSettings } from '../src/metrics/registry.js';
import { Rouge, type RougeOptions } from '../src/metrics/rouge/rouge.js';
import { truncateRouge155, truncateRouge155Line } from '../src/text/rouge/rouge155-truncate.js';
import { rougeTokens } from '../src/text/rouge/rouge-tokenizer.js';
import { checkMarkedCase, Q_MARKER, T_TAGS, type Markup } from './helpers/rouge-markup.js';

/** Per segment: the hypothesis's sentences and those of two references (one hypothesis has none). */
const SEGMENTS: { hyp: string[]; refs: [string[], string[]] }[] = [
  {
    hyp: ['The cat sat on the mat .', 'It was happy , 2 days later !'],
    refs: [['A cat sat on a mat .', 'The cat was happy .', 'Then it left .'], ['On the mat sat the cat', 'happy it was']],
  },
  {
    hyp: ['Police arrested 3 men in Texas on Monday .'],
    refs: [['Three men were arrested .', 'Police in Texas said the arrests were made on Monday .'], ['Texas police arrested three men Monday .']],
  },
  { hyp: ['running runs ran', 'the the the mat mat', 'T t q'], refs: [['the mat is running', 'runs'], ['ran the mat the', 't']] },
  { hyp: [], refs: [['nothing here .'], ['x y z']] },
];

/** Marked-up texts with words outside the elements, as loosely as CNN/DM writes them (`<t> … </t>`). */
const LOOSE_TAGS = (s: readonly string[]): string => `outside words 7 ${s.map((x) => `<t> ${x} </t>`).join(' and ')} end`;
/** `<t>` elements holding exactly the sentence (a length limit counts a leading space as a word, ROUGE-1.5.5's way). */
const TIGHT_TAGS = (s: readonly string[]): string => `t <t>${s.join('</t> between <t>')}</t> t`;
const Q = (s: readonly string[]): string => s.join('<q>');

/** Rows of `options` on the segments written by `write`. */
function rows(options: RougeOptions, write: (s: readonly string[]) => string): Float64Array {
  const metric = new Rouge(options);
  const refs = metric.prepareReferences([0, 1].map((j) => SEGMENTS.map((g) => write(g.refs[j]))));
  return metric.segmentStats(SEGMENTS.map((g) => write(g.hyp)), refs);
}

const ALL_TYPES = ['rouge-1', 'rouge-2', 'rouge-l', 'rouge-lsum', 'rouge-w', 'rouge-s4', 'rouge-su4'];

/**
 * Flavor settings and the types they have. The sacrebleu tokenizers here read a newline-joined text as the tokens
 * of its lines back to back, as the markup reading does (intl and zh do not: they read across a line break, so an
 * unmarked text has no markup equivalent for them).
 */
const SETTINGS: [Partial<RougeOptions>, string[]][] = [
  [{ flavor: 'rouge-score' }, ['rouge-1', 'rouge-2', 'rouge-l', 'rouge-lsum']],
  [{ flavor: 'rouge-score', stem: true }, ['rouge-1', 'rouge-l', 'rouge-lsum']],
  [{ flavor: 'rouge155' }, ALL_TYPES],
  [{ flavor: 'rouge155', stem: true, removeStopwords: true, multiReference: 'best-recall' }, ALL_TYPES],
  [{ flavor: 'paper' }, ALL_TYPES],
  [{ flavor: 'paper', tokenizer: 'rouge-unicode', jackknife: true }, ALL_TYPES],
  [{ flavor: 'paper', tokenizer: '13a' }, ALL_TYPES],
  [{ flavor: 'paper', tokenizer: 'none', lowercase: true, multiReference: 'best-f' }, ALL_TYPES],
  [{ flavor: 'paper', tokenizer: 'char' }, ['rouge-1', 'rouge-l', 'rouge-lsum']],
];
const CASES = SETTINGS.flatMap(([settings, types]) => types.map((type): [string, RougeOptions] => [type, { ...settings, type }]));

describe('markup is not text: marked sentences score as the same sentences unmarked, every flavor and type', () => {
  it.each(CASES)('%s %j', (_, options) => {
    const plain = rows({ ...options, split: 'newline' }, (s) => s.join('\n'));
    expect(rows({ ...options, split: 't-tags' }, LOOSE_TAGS)).toEqual(plain);
    expect(rows({ ...options, split: 't-tags' }, TIGHT_TAGS)).toEqual(plain);
    expect(rows({ ...options, split: 'marker:<q>' }, Q)).toEqual(plain);
  });

  it.each(ALL_TYPES.flatMap((type) => [{ words: 9 }, { bytes: 40 }, { bytes: 3 }, { words: 1 }].map((limit) => ({ type, limit }))))(
    'rouge155 %j: the limits count what the sentences hold',
    ({ type, limit }) => {
      const options: RougeOptions = { flavor: 'rouge155', type, limit };
      const plain = rows({ ...options, split: 'newline' }, (s) => s.join('\n'));
      expect(rows({ ...options, split: 't-tags' }, TIGHT_TAGS)).toEqual(plain);
      expect(rows({ ...options, split: 'marker:<q>' }, Q)).toEqual(plain);
    },
  );

  it.each(['rouge-score', 'rouge155', 'paper'] as const)('%s: tags, markers and text outside give no token', (flavor) => {
    for (const type of ['rouge-1', 'rouge-l', 'rouge-lsum']) {
      for (const [split, hyp, ref] of [
        ['t-tags', 'x <t> a b </t> t <t>c</t> y', '<t> a b c </t>'],
        ['marker:<q>', 'a b<q>c<q>', 'a b c'],
        ['marker:t', 'a btc', '<t> a b c'],
      ]) {
        const metric = new Rouge({ flavor, type, split });
        const row = metric.segmentStats([hyp], metric.prepareReferences([[ref]]));
        // hit, hyp, ref counts: the three words a, b, c on both sides, all matched.
        expect([row[0], row[1], row[2], row[5]], `${type} ${split}`).toEqual([3, 3, 3, 1]);
      }
    }
  });

  it('none, newline and punct still read the whole text: a tag is a word there', () => {
    for (const split of ['none', 'newline', 'punct']) {
      const metric = new Rouge({ flavor: 'rouge-score', type: 'rouge-1', split });
      const row = metric.segmentStats(['<t> a </t>'], metric.prepareReferences([['a']]));
      expect([row[0], row[1], row[2]], split).toEqual([1, 3, 1]);
    }
  });
});

describe('truncateRouge155Line: the sentences as one line, cut at the limit, back in sentence pieces', () => {
  it.each([
    [['a b', ' c d', 'e'], { words: 3 }, ['a b', 'c']],
    [['a b', ' c d', 'e'], { words: 6 }, ['a b', ' c d', 'e']],
    [['a b', ' c d', 'e'], { words: 5 }, ['a b', 'c d', 'e']],
    [[' a', 'b c'], { words: 2 }, [' a']],
    [['   ', 'a'], { words: 1 }, ['']],
    [['abc', 'de', 'fgh'], { bytes: 6 }, ['abc', 'de']],
    [['abc', 'de', 'fgh'], { bytes: 4 }, ['abc']],
    [['abc', 'de', 'fgh'], { bytes: 2 }, ['ab']],
    [['abc', 'de', 'fgh'], { bytes: 10 }, ['abc', 'de', 'fgh']],
    [['abc', '', 'de'], { bytes: 11 }, ['abc', 'de']],
    [['é'], { bytes: 1 }, ['']],
    [[], { words: 3 }, []],
    [['', ''], {}, []],
  ] as [string[], { words?: number; bytes?: number }, string[]][])('%j %j', (sentences, limit, expected) => {
    expect(truncateRouge155Line(sentences, limit)).toEqual(expected);
  });

  it('tokens of the pieces, in order = tokens of the joined line as truncateRouge155 cuts it (property)', () => {
    const word = fc.constantFrom('a', 'Bc', 'd-e', '1.5', 'é', '中', '𝒳y', '', ' ', '  ', '\t', '.');
    const sentence = fc.array(word, { maxLength: 6 }).map((w) => w.join(' '));
    const limit = fc.oneof(
      fc.integer({ min: 1, max: 12 }).map((words) => ({ words })),
      fc.integer({ min: 1, max: 40 }).map((bytes) => ({ bytes })),
    );
    fc.assert(
      fc.property(fc.array(sentence, { maxLength: 5 }), limit, fc.constantFrom('ngram', 'lcs' as const), (sentences, lim, purpose) => {
        const pieces = truncateRouge155Line(sentences, lim);
        const nonEmpty = sentences.filter((s) => s.length > 0);
        expect(pieces.length > 0).toBe(nonEmpty.length > 0);
        const line = truncateRouge155(nonEmpty.length > 0 ? [nonEmpty.join(' ')] : [], lim, purpose);
        expect(pieces.flatMap((p) => rougeTokens(p))).toEqual(line.flatMap((l) => rougeTokens(l)));
      }),
      { numRuns: 500 },
    );
  });
});

interface FixtureRecord {
  system: string;
  use_stemmer: boolean;
  hyps: string[];
  segment_fields: string[];
  segments: unknown[][];
}

const FIXTURE = JSON.parse(readFileSync(new URL('fixtures/rouge-markup/summeval-ref0.json', import.meta.url), 'utf8')) as {
  lines: number[];
  refs: string[];
  records: FixtureRecord[];
};

describe('palette score on marked-up SummEval summaries = rouge-score on their sentences (fixture)', () => {
  it.each(FIXTURE.records.flatMap((r) => [T_TAGS, Q_MARKER].map((m): [string, boolean, string, Markup, FixtureRecord] => [r.system, r.use_stemmer, m.rule, m, r])))(
    '%s stem %s, --split-sentences %s',
    async (system, stem, _, markup, record) => {
      const c = { label: `${system} lines ${FIXTURE.lines.join(',')}`, refs: FIXTURE.refs, hyps: record.hyps, stem };
      await checkMarkedCase(
        { ...c, segmentFields: record.segment_fields, segments: record.segments },
        markup,
        ['rouge1', 'rouge2', 'rouge3', 'rouge4', 'rougeL', 'rougeLsum'],
      );
    },
  );
});

describe('palette nbest with a markup split', () => {
  const TASK: NbestTaskSettings = { path: 'test.nbest', format: 'json', allowDuplicates: true, sentenceScores: false };
  const NAMES = ['rouge-1', 'rouge-l', 'rouge-su4'];

  /** Rows of an n-best list (each segment's hypothesis and second reference as candidates) against reference 0. */
  function nbest(settings: MetricSettings, write: (s: readonly string[]) => string): { fused: boolean; stats: number[] } {
    const spec = { ids: resolveNbestMetricIds(NAMES, settings, defaultRegistry), settings };
    const refs = streamReferenceSource([SEGMENTS.map((g) => write(g.refs[0]))]);
    const context = chunkJobContext(TASK, spec, refs, defaultRegistry);
    const text = SEGMENTS.map((g, s) => `${s} ||| ${write(g.hyp)} ||| 0 ||| 0\n${s} ||| ${write(g.refs[1])} ||| 0 ||| 0\n`).join('');
    return { fused: context.fused !== undefined, stats: Array.from(scoreTask(text, 1, TASK, context.metrics, refs, context.fused).stats) };
  }

  it.each([
    ['t-tags', LOOSE_TAGS],
    ['marker:<q>', Q],
  ] as const)('%s: the generic path, with the numbers of the unmarked sentences', (split, write) => {
    const marked = nbest({ rouge: { split } }, write);
    expect(marked.fused).toBe(false);
    // The sentences unmarked, joined by spaces, on the fast path: ROUGE's tokenizers read them the same.
    const plain = nbest({}, (s) => s.join(' '));
    expect(plain.fused).toBe(true);
    expect(marked.stats).toEqual(plain.stats);
  });
});
