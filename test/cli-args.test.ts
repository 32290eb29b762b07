import { describe, expect, it } from 'vitest';
import { parseArgs, type OptionSpec } from '../src/cli/args.js';
import { parseScoreCommand, SCORE_OPTION_SPECS, type ScoreOptions } from '../src/cli/score-options.js';
import { InputError } from '../src/errors.js';

const SPECS: OptionSpec[] = [
  { key: 'input', names: ['--input', '-i'], arity: 'any', help: '', group: 'g' },
  { key: 'metrics', names: ['--metrics', '-m'], arity: 'some', help: '', group: 'g' },
  { key: 'width', names: ['--width', '-w'], arity: 'one', help: '', group: 'g' },
  { key: 'tok', names: ['--tokenize', '-tok'], arity: 'one', help: '', group: 'g' },
  { key: 'smoothMethod', names: ['--smooth-method', '-s'], arity: 'one', help: '', group: 'g' },
  { key: 'smoothValue', names: ['--smooth-value', '-sv'], arity: 'one', help: '', group: 'g' },
  { key: 'short', names: ['--short', '-sh'], arity: 'flag', help: '', group: 'g' },
  { key: 'lc', names: ['--lowercase', '-lc'], arity: 'flag', help: '', group: 'g' },
];

const parse = (...argv: string[]) => {
  const r = parseArgs(argv, SPECS);
  return { values: Object.fromEntries(r.values), positionals: r.positionals };
};

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe('argparse-compatible parsing', () => {
  it('reads positionals, lists and values', () => {
    expect(parse('ref1', 'ref2', '-i', 'a', 'b', '-m', 'bleu', 'chrf', '-w', '2')).toEqual({
      values: { input: ['a', 'b'], metrics: ['bleu', 'chrf'], width: '2' },
      positionals: ['ref1', 'ref2'],
    });
  });

  it('accepts unique prefixes of long options, --opt=value, -o=value and -w2', () => {
    expect(parse('--smooth-m', 'floor', '--tok=char', '-w=3').values).toEqual({ smoothMethod: 'floor', tok: 'char', width: '3' });
    expect(parse('-w2').values).toEqual({ width: '2' });
    expect(parse('--low').values).toEqual({ lc: true });
  });

  it('reports ambiguous prefixes', () => {
    expect(errorOf(() => parse('--smooth', 'exp'))).toContain('ambiguous option: --smooth');
  });

  it('takes negative numbers as values, and "-" as a file name', () => {
    expect(parse('-sv', '-1', '-i', '-').values).toEqual({ smoothValue: '-1', input: ['-'] });
  });

  it('lets "--" end the options', () => {
    expect(parse('-i', 'a', '--', '-weird-ref').positionals).toEqual(['-weird-ref']);
  });

  it('refuses positionals after options once references were given', () => {
    expect(errorOf(() => parse('ref', '-sh', 'ref2'))).toContain('unrecognized arguments: ref2');
  });

  it('gathers every occurrence of an append option in order (Boost\'s repeated --ffile), one value each', () => {
    const specs: OptionSpec[] = [
      { key: 'ffile', names: ['--ffile', '-F'], arity: 'append', help: '', group: 'g' },
      { key: 'out', names: ['--out', '-o'], arity: 'one', help: '', group: 'g' },
    ];
    const r = parseArgs(['--ffile', 'a', '-o', 'x', '-F', 'b', '--ff=c', 'pos'], specs);
    expect(Object.fromEntries(r.values)).toEqual({ ffile: ['a', 'b', 'c'], out: 'x' });
    expect(r.positionals).toEqual(['pos']);
    expect(errorOf(() => parseArgs(['-F', 'a', '-F'], specs))).toContain('-F expects one value');
  });

  it('reports missing values, values on flags and unknown options', () => {
    expect(errorOf(() => parse('-w'))).toContain('-w expects one value');
    expect(errorOf(() => parse('-w', '-sh'))).toContain('-w expects one value');
    expect(errorOf(() => parse('-m', '-sh'))).toContain('-m expects at least one value');
    expect(errorOf(() => parse('--short=yes'))).toContain('--short takes no value');
    expect(errorOf(() => parse('--nope'))).toContain('unrecognized option "--nope"');
  });
});

describe('palette score options', () => {
  const options = (...argv: string[]): ScoreOptions => {
    const cmd = parseScoreCommand(argv);
    if (cmd.kind !== 'run') throw new Error(cmd.kind);
    return cmd.options;
  };

  it("has sacrebleu's defaults", () => {
    const o = options('ref.de', '-i', 'sys.de');
    expect(o).toMatchObject({
      refs: ['ref.de'],
      inputs: ['sys.de'],
      numRefs: 1,
      metrics: ['bleu'],
      width: 1,
      format: 'json',
      formatGiven: false,
      short: false,
      scoreOnly: false,
      sentenceLevel: false,
    });
    expect(o.metricSettings.bleu).toMatchObject({ lowercase: false, effectiveOrder: false });
    expect(o.metricSettings.chrf).toMatchObject({ whitespace: false, lowercase: false, epsSmoothing: false });
  });

  it('maps every sacrebleu BLEU/chrF flag and the Palette additions', () => {
    const o = options(
      'r', '-i', 'h', '-m', 'bleu', 'chrf', '-tok', 'intl', '-lc', '-s', 'floor', '-sv', '0.01', '-cc', '5', '-cw', '2',
      '--chrf-beta', '3', '--chrf-whitespace', '--chrf-lowercase', '--chrf-eps-smoothing', '--bleu-max-ngram-order', '6',
      '--bleu-effective-order', '--bleu-ref-length', 'shortest', '--force', '-q', '-sh', '-b', '-w', '16', '-f', 'text', '-nc',
    );
    expect(o.metricSettings).toEqual({
      sentenceLevel: false,
      bleu: {
        flavor: 'sacrebleu',
        tokenize: 'intl',
        lowercase: true,
        smoothMethod: 'floor',
        smoothValue: 0.01,
        effectiveOrder: true,
        maxNgramOrder: 6,
        refLength: 'shortest',
      },
      chrf: { charOrder: 5, wordOrder: 2, beta: 3, whitespace: true, lowercase: true, epsSmoothing: true },
      nist: { lowercase: false },
      rouge: { stem: false, removeStopwords: false, jackknife: false },
      ter: { caseSensitive: false, asianSupport: false, noPunct: false, normalized: false },
      wer: { lowercase: false },
      per: { lowercase: false },
      // GLEU, RIBES and METEOR take NLTK's token lists from BLEU's -tok and -lc.
      cer: { lowercase: false },
      gleu: { tokenize: 'intl', lowercase: true, minLen: undefined, maxLen: undefined },
      ribes: { tokenize: 'intl', lowercase: true, alpha: undefined, beta: undefined },
      meteor: { tokenize: 'intl', lowercase: true, alpha: undefined, beta: undefined, gamma: undefined },
      gtm: { lowercase: false },
      npchunk: { lowercase: false },
    });
    const ter = options('r', '-m', 'ter', '--ter-case-sensitive', '--ter-asian-support', '--ter-no-punct', '--ter-normalized',
      '--ter-flavor', 'tercom', '--ter-beam', '10', '--ter-max-shift-distance', '0');
    expect(ter.metricSettings.ter).toEqual({
      flavor: 'tercom', caseSensitive: true, asianSupport: true, noPunct: true, normalized: true, beamWidth: 10, maxShiftDistance: 0,
    });
    const edit = options('r', '-m', 'wer', 'per', 'gtm', '--wer-tokenize', '13a', '--wer-lowercase', '--per-tokenize', 'jiwer',
      '--per-lowercase', '--gtm-tokenize', 'intl', '--gtm-lowercase', '--gtm-exponent', '2.5');
    expect(edit.metricSettings.wer).toEqual({ tokenize: '13a', lowercase: true });
    expect(edit.metricSettings.per).toEqual({ tokenize: 'jiwer', lowercase: true });
    expect(edit.metricSettings.gtm).toEqual({ exponent: 2.5, tokenize: 'intl', lowercase: true });
    const nist = options('r', '-m', 'nist', '--nist-flavor', 'nltk', '--nist-max-ngram-order', '4', '--nist-tokenize', 'none', '--nist-lowercase');
    expect(nist.metricSettings.nist).toEqual({ flavor: 'nltk', maxOrder: 4, tokenize: 'none', lowercase: true });
    const nltk = options('r', '--bleu-flavor', 'nltk', '--nltk-smoothing', '3');
    expect(nltk.metricSettings.bleu).toMatchObject({ flavor: 'nltk', nltkSmoothing: 3 });
    for (const flavor of ['moses', 'lin-och']) {
      expect(options('r', '--bleu-flavor', flavor, '--bleu-ref-length', 'average').metricSettings.bleu).toMatchObject({
        flavor,
        refLength: 'average',
      });
    }
    expect(o).toMatchObject({ force: true, quiet: true, short: true, scoreOnly: true, width: 16, format: 'text', formatGiven: true, noColor: true });
  });

  it('maps the ROUGE flags; -w given or not', () => {
    const o = options(
      'r', '-m', 'rouge-1', 'rouge-w', '--rouge-flavor', 'rouge155', '--rouge-w-weight', '1.5', '--stem', '--stopwords',
      '--rouge-alpha', '0.25', '--rouge-multi-ref', 'best-recall', '--split-sentences', 'marker:<s>',
      '--rouge-tokenizer', 'rouge-unicode', '--rouge-limit', '665b', '--rouge-average', 'pooled', '--rouge-jackknife',
    );
    expect(o.metricSettings.rouge).toEqual({
      flavor: 'rouge155',
      wWeight: 1.5,
      tokenizer: 'rouge-unicode',
      stem: true,
      removeStopwords: true,
      alpha: 0.25,
      multiReference: 'best-recall',
      split: 'marker:<s>',
      limit: { bytes: 665 },
      average: 'pooled',
      jackknife: true,
    });
    expect(options('r', '--rouge-beta', '2', '--rouge-limit', '100w').metricSettings.rouge).toMatchObject({
      beta: 2,
      limit: { words: 100 },
    });
    expect(options('r', '--rouge-tokenizer', 'zh').metricSettings.rouge?.tokenizer).toBe('zh');
    expect(options('r')).toMatchObject({ width: 1, widthGiven: false });
    expect(options('r', '-w', '1')).toMatchObject({ width: 1, widthGiven: true });
    expect(errorOf(() => options('r', '--rouge-beta', '-1'))).toContain('--rouge-beta must be a number >= 0 (got "-1")');
    expect(errorOf(() => options('r', '--rouge-w-weight', 'inf'))).toContain('--rouge-w-weight must be a number > 0');
    expect(errorOf(() => options('r', '--split-sentences', 'marker:'))).toContain('--split-sentences must be');
  });

  it('reads stdin systems when -i is absent', () => {
    expect(options('ref.de').inputs).toBeNull();
  });

  it('refuses -nr with several reference files; takes -sl with several metrics, and tsv/csv only with -sl', () => {
    expect(errorOf(() => options('a', 'b', '-nr', '2'))).toContain('--num-refs');
    expect(options('a', '-m', 'bleu', 'chrf', '-sl')).toMatchObject({ sentenceLevel: true, metrics: ['bleu', 'chrf'] });
    expect(options('a', '-sl', '-f', 'csv').format).toBe('csv');
    expect(errorOf(() => options('a', '-f', 'tsv'))).toContain('-f tsv writes one row per segment: it goes with --sentence-level');
  });

  it('validates numbers like Python int()/float()', () => {
    expect(options('r', '-w', ' 3 ').width).toBe(3);
    expect(errorOf(() => options('r', '-w', '2.0'))).toContain('--width must be an integer in 0..16 (got "2.0")');
    expect(errorOf(() => options('r', '-sv', 'x'))).toContain('--smooth-value must be a number');
    expect(errorOf(() => options('r', '-nr', '0'))).toContain('--num-refs must be an integer >= 1');
    expect(errorOf(() => options('r', '--nltk-smoothing', '8'))).toContain('--nltk-smoothing must be an integer in 0..7');
    expect(errorOf(() => options('r', '--bleu-flavor', 'mteval'))).toContain(
      '--bleu-flavor must be one of sacrebleu, nltk, moses, lin-och (got "mteval")',
    );
    expect(errorOf(() => options('r', '--nist-tokenize', 'x'))).toContain('unknown tokenizer "x"');
  });

  it('gives every option a help line', () => {
    for (const spec of SCORE_OPTION_SPECS) expect(spec.help.length).toBeGreaterThan(0);
  });
});
