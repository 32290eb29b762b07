import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as palette from '../src/index.js';

// The package entry point (package.json "exports" → dist/index.js): the README's library example works from it.

const sample = (p: string): string => fileURLToPath(new URL(`../samples/wmt17-en-de/${p}`, import.meta.url));

describe('public API (src/index.ts)', () => {
  it('scores a corpus as the README shows', () => {
    const hyps = palette.readLines(sample('sys/online-B.0.de'));
    const refs = palette.readLines(sample('ref.de'));
    const bleu = palette.corpusScore(new palette.Bleu(), hyps, [refs]);
    expect(bleu.name).toBe('BLEU');
    expect(bleu.score).toBeGreaterThan(0);
    expect(bleu.verboseScore).toMatch(/^[\d.]+\/[\d.]+\/[\d.]+\/[\d.]+ \(BP = /);
    const chrf = palette.corpusScore(new palette.Chrf({ wordOrder: 2 }), hyps, [refs]);
    expect(chrf.name).toBe('chrF2++');
  });

  it('exports the metric classes, helpers, registry, reader and the CLI function', () => {
    for (const name of ['Bleu', 'Chrf', 'Nist', 'NltkBleu', 'corpusScore', 'sentenceScores', 'defaultRegistry', 'readLines', 'getTokenizer', 'run', 'VERSION', 'InputError']) {
      expect(palette, name).toHaveProperty(name);
    }
    expect(palette.defaultRegistry.ids).toEqual(['bleu', 'chrf', 'nist']);
  });
});
