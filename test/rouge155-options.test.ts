/**
 * `palette rouge155` options (src/cli/rouge155/options.ts), the ROUGE types they select and the per-unit options
 * they map to (src/cli/rouge155/rouge-types.ts), and the usage texts: ROUGE-1.5.5's getopts reading (bundles,
 * attached values, end of options), its defaults, its checks with its messages, and Palette's refusals of values
 * ROUGE would misread silently.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { parseRouge155Args, type Rouge155Options } from '../src/cli/rouge155/options.js';
import { rouge155TypeNames, rouge155UnitOptions } from '../src/cli/rouge155/rouge-types.js';
import { rouge155FullUsage, rouge155Usage } from '../src/cli/rouge155/usage.js';

/** The options of a command line that must be a run. */
function run(...argv: string[]): Rouge155Options {
  const command = parseRouge155Args(argv);
  if (command.kind !== 'run') throw new Error(`not a run: ${argv.join(' ')}`);
  return command.options;
}

/** The message of the InputError a command line raises. */
function refusal(...argv: string[]): string {
  try {
    parseRouge155Args(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe('E_BAD_OPTION');
    return (err as Error).message;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
}

describe('defaults', () => {
  it('are ROUGE-1.5.5 defaults: ROUGE-L only, 95% CI, 1000 resamples, -f A, alpha 0.5, -t 0', () => {
    const o = run('-a', 'config.xml');
    expect(o).toMatchObject({
      config: 'config.xml',
      systemId: undefined,
      all: true,
      fileListFormat: undefined,
      maxNgram: undefined,
      noLcs: false,
      weight: undefined,
      skipDistance: undefined,
      basicElements: undefined,
      stem: false,
      removeStopwords: false,
      wordLimit: 0,
      byteLimit: 0,
      scoring: 'A',
      alpha: 0.5,
      counting: 0,
      confidence: { value: 95, text: '95' },
      resamples: 1000,
      perUnit: false,
    });
    expect(rouge155TypeNames(o)).toEqual(['ROUGE-L']);
  });

  it('a system id instead of -a', () => {
    expect(run('config.xml', '11')).toMatchObject({ all: false, systemId: '11' });
  });
});

describe('getopts reading', () => {
  it('reads bundles, attached and separate values', () => {
    const o = run('-amsd', '-n4', '-w', '1.2', '-2-1', '-U', '-c95.0', '-r', '10', 'config.xml');
    expect(o).toMatchObject({ all: true, stem: true, removeStopwords: true, perUnit: true, maxNgram: 4 });
    expect(o.weight).toEqual({ value: 1.2, text: '1.2' });
    expect(o.skipDistance).toEqual({ value: -1, text: '-1' });
    expect(o.confidence).toEqual({ value: 95, text: '95.0' });
    expect(o.resamples).toBe(10);
  });

  it('a value-taking letter takes the rest of its bundle', () => {
    expect(run('-an4', 'c.xml')).toMatchObject({ all: true, maxNgram: 4 });
    expect(run('-ea', 'c.xml', '1')).toMatchObject({ all: false, systemId: '1' });
  });

  it('options end at the first argument that is not one, or at --', () => {
    expect(run('config.xml', '-a')).toMatchObject({ all: false, systemId: '-a' });
    expect(run('-a', '--', '-x.xml')).toMatchObject({ config: '-x.xml', noLcs: false });
    expect(run('-a', '-', '11')).toMatchObject({ config: '-', systemId: '11' });
  });

  it('a later value replaces an earlier one', () => {
    expect(run('-n', '2', '-n', '3', '-a', 'c.xml').maxNgram).toBe(3);
  });

  it('-e is accepted and ignored (the data ships with Palette); -v is accepted', () => {
    expect(run('-e', '/opt/rouge/data', '-v', '-a', 'c.xml')).toMatchObject({ verbose: true, config: 'c.xml' });
  });

  it('-z: a file list, system id X by default, -a ignored', () => {
    expect(run('-z', 'SPL', 'list.txt')).toMatchObject({ fileListFormat: 'SPL', systemId: undefined, all: false });
    expect(run('-a', '-z', 'see', 'list.txt', 'SYS')).toMatchObject({
      fileListFormat: 'SEE',
      systemId: 'SYS',
      all: false,
    });
  });

  it('-t, -f, -p, -l, -b, -M, -x, -3', () => {
    expect(run('-t', '1', '-f', 'B', '-p', '0.3', '-l', '100', '-M', '-x', '-a', 'c.xml')).toMatchObject({
      counting: 1,
      scoring: 'B',
      alpha: 0.3,
      wordLimit: 100,
      stemModelsOnly: true,
      noLcs: true,
    });
    expect(run('-b', '665', '-3', 'HM', '-a', 'c.xml')).toMatchObject({ byteLimit: 665, basicElements: 'HM' });
    expect(run('-t', '2', '-r', '0', '-a', 'c.xml')).toMatchObject({ counting: 2, resamples: 0 });
  });
});

describe('usage', () => {
  it('-h asks for the short text, -H for the full one; no argument gives the short one as an error', () => {
    expect(parseRouge155Args(['-h'])).toEqual({ kind: 'usage', full: false, requested: true });
    expect(parseRouge155Args(['-a', '-H', 'c.xml'])).toEqual({ kind: 'usage', full: true, requested: true });
    expect(parseRouge155Args(['--help'])).toEqual({ kind: 'usage', full: false, requested: true });
    expect(parseRouge155Args([])).toEqual({ kind: 'usage', full: false, requested: false });
    expect(parseRouge155Args(['-a'])).toEqual({ kind: 'usage', full: false, requested: false });
  });

  it('prints ROUGE-1.5.5 texts with the program name for its $0', () => {
    const short = rouge155Usage('palette rouge155');
    expect(short.startsWith('palette rouge155\n         [-a (evaluate all systems)]\n         [-c cf]\n')).toBe(true);
    expect(short.endsWith('         [-z <SEE|SPL|ISI|SIMPLE>]\n         <ROUGE-eval-config-file> [<systemID>]\n')).toBe(
      true,
    );
    expect(short.split('\n')).toHaveLength(25);
    const full = rouge155FullUsage('palette rouge155');
    expect(full.startsWith(`${short}\nROUGE-eval-config-file: Specify the evaluation setup.`)).toBe(true);
    expect(full).toContain(
      '  -c: Specify CF% (0 <= CF <= 100) confidence interval to compute. The default is 95% (i.e. CF=95).\n',
    );
    expect(full).toContain('treat unigram as "start-sentence-symbol unigram"; -2 has to be specified.\n');
    expect(full.endsWith('in the specified format (SEE|SPL|ISI|SIMPLE).\n')).toBe(true);
  });
});

describe('checks', () => {
  it.each([
    [['-q', '-a', 'c.xml'], 'unknown option -q'],
    [['-a', '-n'], 'option -n requires a value'],
    [
      ['c.xml'],
      "Please specify a system ID to evaluate or use option '-a' to evaluate all systems. For more information, use option '-h'.",
    ],
    [['-l', '10', '-b', '75', '-a', 'c.xml'], 'Please specify length limit in words or bytes but not both.'],
    [['-c', '101', '-a', 'c.xml'], 'Confidence interval should be within 0 and 100. Use option -h for more details.'],
    [['-c', '-1', '-a', 'c.xml'], 'Confidence interval should be within 0 and 100.'],
    [['-w', '0', '-a', 'c.xml'], 'ROUGE-W weight factor must greater than 0.'],
    [
      ['-p', '1.5', '-a', 'c.xml'],
      'Relative importance of ROUGE recall and precision has to be between 0 and 1 inclusively.',
    ],
  ])('%j: ROUGE-1.5.5 message', (argv, message) => {
    expect(refusal(...argv)).toContain(message);
  });

  it.each([
    [['-n', 'four', '-a', 'c.xml'], '-n expects a number (got "four")'],
    [['-c', '95%', '-a', 'c.xml'], '-c expects a number (got "95%")'],
    [['-t', '3', '-a', 'c.xml'], '-t expects 0, 1 or 2 (got "3")'],
    [['-r', '0', '-a', 'c.xml'], '-r expects a number of resamples > 0'],
    [['-f', 'C', '-a', 'c.xml'], '-f expects A (model average) or B (best model) (got "C")'],
    [['-3', 'XY', '-a', 'c.xml'], '-3 expects one of H, HM, HMR, HM1, HMR1, HMR2 (got "XY")'],
    [['-z', 'HTML', 'list.txt'], '-z expects SEE, SPL, ISI or SIMPLE (got "HTML")'],
    [['-l', '2.5', '-a', 'c.xml'], '-l expects a whole number of words ≥ 0 (got "2.5")'],
    [['-b', '-3', '-a', 'c.xml'], '-b expects a whole number of bytes ≥ 0 (got "-3")'],
  ])('%j: refused where ROUGE would misread it', (argv, message) => {
    expect(refusal(...argv)).toContain(message);
  });
});

describe('ROUGE types and per-unit options', () => {
  const types = (...argv: string[]): string[] => rouge155TypeNames(run(...argv, '-a', 'c.xml'));

  it('are printed in ROUGE order with the values as written', () => {
    expect(types('-n', '4', '-w', '1.2', '-2', '4', '-u')).toEqual([
      'ROUGE-1',
      'ROUGE-2',
      'ROUGE-3',
      'ROUGE-4',
      'ROUGE-L',
      'ROUGE-W-1.2',
      'ROUGE-SU4',
    ]);
    expect(types('-n', '2.5', '-w', '1.20', '-x')).toEqual(['ROUGE-1', 'ROUGE-2', 'ROUGE-W-1.20']);
    expect(types('-n', '0', '-x')).toEqual([]);
    expect(types('-3', 'HMR1', '-n', '1')).toEqual(['ROUGE-1', 'ROUGE-BE-HMR1']);
  });

  it.each([
    [['-2', '4'], ['ROUGE-S4']],
    [['-2', '4', '-u'], ['ROUGE-SU4']],
    [
      ['-2', '4', '-U'],
      ['ROUGE-S4', 'ROUGE-SU4'],
    ],
    [['-2', '4', '-u', '-U'], ['ROUGE-SU4']],
    [['-2', '04'], ['ROUGE-S04']],
    [['-2', '-1'], ['ROUGE-S*']],
    [['-2', '-1', '-u'], ['ROUGE-SU*']],
    [
      ['-2', '-1', '-U'],
      ['ROUGE-S*', 'ROUGE-SU*'],
    ],
    [['-2', '-5', '-u', '-U'], ['ROUGE-SU*']],
  ])('skip-bigrams %j', (argv, names) => {
    expect(types('-x', ...argv)).toEqual(names);
  });

  it('map to rouge155Unit options', () => {
    const o = rouge155UnitOptions(
      run(
        '-n',
        '2.5',
        '-w',
        '1.20',
        '-2',
        '4.7',
        '-U',
        '-m',
        '-M',
        '-s',
        '-b',
        '75',
        '-f',
        'B',
        '-p',
        '0.25',
        '-t',
        '1',
        '-a',
        'c.xml',
      ),
    );
    expect(o).toEqual({
      maxN: 2,
      wWeight: 1.2,
      wLabel: '1.20',
      skipDistance: 4,
      skipLabel: '4.7',
      su: false,
      suAlso: true,
      noLcs: false,
      basicElements: undefined,
      stem: true,
      stemModelsOnly: true,
      stopwords: true,
      limitWords: 0,
      limitBytes: 75,
      formula: 'B',
      alpha: 0.25,
      countMode: 1,
    });
    expect(rouge155UnitOptions(run('-2', '-3', '-a', 'c.xml')).skipDistance).toBe(-1);
    expect(rouge155UnitOptions(run('-a', 'c.xml')).maxN).toBe(0);
  });
});
