#!/usr/bin/env python3
"""NLTK 3.8's GLEU, RIBES and METEOR (and jiwer's CER where it is installed) timed on the token lists bench/nltk-sentence.ts
writes, so that Palette's figures have the reference implementations' beside them, measured on the same machine.

Input (argv[1]): a JSON file {"refs": [line, ...], "ref_tokens": [[token, ...], ...], "systems": [{"lines": [...],
"tokens": [[...], ...]}, ...], "unseen_systems": [{"tokens": [...]}, ...]}: one reference, the systems' hypotheses as
text (for CER) and as the token lists NLTK takes (13a-tokenized by Palette, then split: what the goldens' NLTK runs were
given); METEOR is also timed on "unseen_systems", after "systems" (its "unseen" entry). Output (stdout): one JSON object,
per metric the CPU seconds (time.process_time), the number of hypotheses timed and the mean score, or why it was not
run. RIBES is slow in NLTK (about 150 hypotheses/s): it is timed on the first `--ribes-lines` hypotheses of each system.

METEOR needs WordNet: NLTK's own data when nltk.download('wordnet') put it somewhere NLTK looks, else Debian's
wordnet-base files (/usr/share/wordnet) through NLTK's WordNetCorpusReader, given the lexicographer file list that
package lacks (NLTK reads it at start-up; METEOR does not use it).
"""
import json
import os
import sys
import tempfile
import time

# WordNet 3.0's lexicographer files, in their numbering (the `lexnames` file of a WordNet dict folder).
LEXNAMES = (
    'adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body noun.cognition '
    'noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive noun.object noun.person '
    'noun.phenomenon noun.plant noun.possession noun.process noun.quantity noun.relation noun.shape noun.state '
    'noun.substance noun.time verb.body verb.change verb.cognition verb.communication verb.competition verb.consumption '
    'verb.contact verb.creation verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative '
    'verb.weather adj.ppl'
).split()
LEX_POS = {'adj': 3, 'adv': 4, 'noun': 1, 'verb': 2}


def debian_wordnet(folder):
    """A WordNetCorpusReader over Debian's wordnet-base files, or None."""
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    if not os.path.exists(os.path.join(folder, 'index.noun')):
        return None
    root = tempfile.mkdtemp(prefix='palette-wn-')
    for name in os.listdir(folder):
        os.symlink(os.path.join(folder, name), os.path.join(root, name))
    with open(os.path.join(root, 'lexnames'), 'w', encoding='utf-8') as f:
        for i, name in enumerate(LEXNAMES):
            f.write(f'{i:02d}\t{name}\t{LEX_POS[name.split(".")[0]]}\n')
    return WordNetCorpusReader(root, None)


def wordnet_reader():
    try:
        from nltk.corpus import wordnet
        wordnet.ensure_loaded()
        return wordnet
    except LookupError:
        return debian_wordnet(os.environ.get('PALETTE_WORDNET_DIR', '/usr/share/wordnet'))


def timed(fn):
    start = time.process_time()
    value = fn()
    return time.process_time() - start, value


def main():
    ribes_lines = 200
    args = sys.argv[1:]
    if '--ribes-lines' in args:
        k = args.index('--ribes-lines')
        ribes_lines = int(args[k + 1])
        del args[k:k + 2]
    data = json.load(open(args[0], encoding='utf-8'))
    ref_tokens = data['ref_tokens']
    systems = data['systems']
    out = {}
    try:
        import nltk
        from nltk.translate.gleu_score import corpus_gleu
        from nltk.translate.meteor_score import meteor_score
        from nltk.translate.ribes_score import corpus_ribes
        out['nltk'] = nltk.__version__
    except ImportError as err:
        out['nltk'] = None
        out['nltk_missing'] = str(err)
    if out['nltk']:
        refs = [[r] for r in ref_tokens]
        secs, total = 0.0, 0.0
        for s in systems:
            t, v = timed(lambda: corpus_gleu(refs, s['tokens']))
            secs += t
            total += v
        out['gleu'] = {'seconds': secs, 'hyps': sum(len(s['tokens']) for s in systems), 'mean': total / len(systems)}
        secs, total, hyps = 0.0, 0.0, 0
        for s in systems:
            n = min(ribes_lines, len(s['tokens']))
            t, v = timed(lambda: corpus_ribes(refs[:n], s['tokens'][:n]))
            secs += t
            total += v
            hyps += n
        out['ribes'] = {'seconds': secs, 'hyps': hyps, 'mean': total / len(systems), 'lines_per_system': ribes_lines}
        wn = wordnet_reader()
        if wn is None:
            out['meteor'] = {'missing': 'no WordNet: nltk.download("wordnet") or apt-get install wordnet-base'}
        else:
            # WordNet's index loads on the first look-up: once, before the timed runs.
            meteor_score([['warm', 'up']], ['warming', 'ups'], wordnet=wn)
            secs, total = 0.0, 0.0
            for s in systems:
                pairs = list(zip(ref_tokens, s['tokens']))
                t, v = timed(lambda: sum(meteor_score([r], h, wordnet=wn) for r, h in pairs) / len(pairs))
                secs += t
                total += v
            out['meteor'] = {'seconds': secs, 'hyps': sum(len(s['tokens']) for s in systems), 'mean': total / len(systems)}
            # The further systems after those: what Palette's "unseen" figure times (NLTK keeps no state per line).
            unseen = data.get('unseen_systems', [])
            if unseen:
                secs, total = 0.0, 0.0
                for s in unseen:
                    pairs = list(zip(ref_tokens, s['tokens']))
                    t, v = timed(lambda: sum(meteor_score([r], h, wordnet=wn) for r, h in pairs) / len(pairs))
                    secs += t
                    total += v
                out['meteor']['unseen'] = {'seconds': secs, 'hyps': sum(len(s['tokens']) for s in unseen), 'mean': total / len(unseen)}
    try:
        import jiwer
        secs, total = 0.0, 0.0
        for s in systems:
            t, v = timed(lambda: jiwer.cer(data['refs'], s['lines']))
            secs += t
            total += v
        out['cer'] = {'seconds': secs, 'hyps': sum(len(s['lines']) for s in systems), 'mean': total / len(systems),
                      'jiwer': getattr(jiwer, '__version__', '?')}
    except ImportError as err:
        out['cer'] = {'missing': f'jiwer is not installed ({err})'}
    json.dump(out, sys.stdout)
    sys.stdout.write('\n')


main()
