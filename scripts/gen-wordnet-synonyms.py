#!/usr/bin/env python3
"""Generates resources/wordnet-3.0-synonyms.json: what NLTK 3.8's METEOR reads from WordNet 3.0.

NLTK's `meteor_score` asks `wordnet.synsets(word)` for the synsets of a word in every part of speech (noun, verb,
adjective, adverb), each reached through `morphy` (the exception lists, then the suffix rules), and keeps the names of
their lemmas that hold no underscore. This script writes exactly what that needs, read from the WordNet 3.0 database
files as NLTK's WordNetCorpusReader reads them:

- for each part of speech, every lemma of its `index.*` file (all of them: morphy stops at the first forms that are in
  the index, so presence matters even for a lemma whose synonyms are all dropped), with the synsets it has there;
- for each synset of the `data.*` files, its lemma names (the adjective markers `(a)`, `(p)`, `(ip)` removed, as
  NLTK's regex does), keeping only names METEOR can match: no underscore (NLTK drops those) and no ASCII capital
  (METEOR compares them with Porter stems of lowercased words, which never hold one); synsets left empty are dropped;
- the `*.exc` exception lists (`form base…`, a later line for the same form replacing an earlier one, as NLTK's dict).

Source: WordNet 3.0, the Debian package `wordnet-base` (1:3.0-37; `apt-get install wordnet-base` puts the files in
/usr/share/wordnet/), the build NLTK's goldens in ../shared/golden/nltk were made with.

Licence: WordNet 3.0 licence (Princeton University), which permits use, copying, modification and distribution with
its copyright notice and statements; the generated file carries them in full (its `about.licence`), as does
resources/WORDNET-3.0.md.

Regenerate: python3 scripts/gen-wordnet-synonyms.py [/usr/share/wordnet] (from the repository root).
"""
import hashlib
import json
import re
import sys
from pathlib import Path

WN = Path(sys.argv[1] if len(sys.argv) > 1 else '/usr/share/wordnet')
OUT = Path('resources/wordnet-3.0-synonyms.json')
FILES = [('noun', 'n'), ('verb', 'v'), ('adj', 'a'), ('adv', 'r')]
DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz'
# Lemmas per block of an index, synsets per block of the synset list (see the encoding in wordnet.ts).
INDEX_BLOCK = 16
# Every index lemma and exception form is made of these (checked as they are written).
LEMMA_CHARS = re.compile(r"[a-z0-9'\-./_]+")
SYNSET_BLOCK = 64

NOTICE = """WordNet Release 3.0 This software and database is being provided to you, the LICENSEE, by Princeton University
under the following license. By obtaining, using and/or copying this software and database, you agree that you have
read, understood, and will comply with these terms and conditions.: Permission to use, copy, modify and distribute
this software and database and its documentation for any purpose and without fee or royalty is hereby granted,
provided that you agree to comply with the following copyright notice and statements, including the disclaimer, and
that the same appear on ALL copies of the software, database and documentation, including modifications that you make
for internal use or for distribution. WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. THIS
SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR
IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT-
ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL
NOT INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. The name of Princeton University or
Princeton may not be used in advertising or publicity pertaining to distribution of the software and/or database.
Title to copyright in this software, database and any associated documentation shall at all times remain with
Princeton University and LICENSEE agrees to preserve same."""


def base36(n):
    s = ''
    while True:
        n, r = divmod(n, 36)
        s = DIGITS[r] + s
        if n == 0:
            return s


def sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main():
    sources = []
    synsets = {}
    for name, pos in FILES:
        path = WN / f'data.{name}'
        sources.append(path)
        for line in path.open(encoding='utf-8'):
            if line.startswith('  '):
                continue
            cols = line.split('|')[0].split()
            n = int(cols[3], 16)
            names = [re.match(r'(.*?)(\(.*\))?$', cols[4 + 2 * k]).group(1) for k in range(n)]
            kept = []
            for nm in names:
                if '_' in nm or re.search('[A-Z]', nm) or nm in kept:
                    continue
                kept.append(nm)
            synsets[(pos, int(cols[0]))] = kept
    ids = {}
    synset_lines = []
    index_parts = []
    for name, pos in FILES:
        path = WN / f'index.{name}'
        sources.append(path)
        entries = {}
        for line in path.open(encoding='utf-8'):
            if line.startswith(' '):
                continue
            t = line.split()
            lemma, p, n, npt = t[0], t[1], int(t[2]), int(t[3])
            assert p == pos and int(t[4 + npt]) == n
            offsets = [int(x) for x in t[6 + npt:6 + npt + n]]
            refs = []
            for off in offsets:
                names = synsets[(pos, off)]
                if not names:
                    continue
                key = (pos, off)
                if key not in ids:
                    ids[key] = len(synset_lines)
                    synset_lines.append(','.join(names))
                refs.append(base36(ids[key]))
            entries[lemma] = refs
        # Blocks of INDEX_BLOCK lemmas in sorted order, front-coded within the block: each lemma as (length of the
        # prefix it shares with the previous lemma of its block, up to 35) + the rest, so a block's first lemma is
        # whole. A reader finds a lemma by a binary search over the blocks' first lemmas and decodes one block.
        coded = []
        block = []
        prev = ''
        for lemma in sorted(entries):
            # wordnet.ts relies on this alphabet: a word with another character is in no index, and neither is anything
            # the suffix rules make of it (they strip letters only). It also keeps the sort order JavaScript's.
            assert LEMMA_CHARS.fullmatch(lemma), lemma
            if len(block) == INDEX_BLOCK:
                coded.append(' '.join(block))
                block, prev = [], ''
            k = 0
            while k < min(len(prev), len(lemma), 35) and prev[k] == lemma[k]:
                k += 1
            block.append(DIGITS[k] + lemma[k:] + ':' + '.'.join(entries[lemma]))
            prev = lemma
        if block:
            coded.append(' '.join(block))
        index_parts.append((pos, coded))
    exc_parts = []
    for name, pos in FILES:
        path = WN / f'{name}.exc'
        sources.append(path)
        exc = {}
        for line in path.open(encoding='utf-8'):
            terms = line.split()
            assert LEMMA_CHARS.fullmatch(terms[0]), terms[0]
            exc[terms[0]] = terms[1:]
        exc_parts.append((pos, [f + ':' + ','.join(b) for f, b in exc.items()]))

    def chunks(items, sep, size=4000):
        out, cur = [], []
        n = 0
        for it in items:
            cur.append(it)
            n += len(it) + 1
            if n >= size:
                out.append(sep.join(cur))
                cur, n = [], 0
        if cur:
            out.append(sep.join(cur))
        return out

    src = {p.name: sha(p) for p in sources}
    index_entries = sum(c.count(' ') + 1 for _, blocks in index_parts for c in blocks)
    data = {
        'about': {
            'what': "What NLTK 3.8's METEOR reads from WordNet 3.0 (Debian wordnet-base 1:3.0-37): every index lemma per "
                    'part of speech with its synsets, each synset as its lemma names METEOR can match, and the morphy '
                    f'exception lists ({len(synset_lines)} synsets, {index_entries} index entries, '
                    f'{sum(len(c) for _, c in exc_parts)} exceptions). GENERATED by scripts/gen-wordnet-synonyms.py; '
                    'read by src/metrics/meteor/wordnet.ts, whose WordnetData comment describes the encoding.',
            'sources_sha256': src,
            'regenerate': 'python3 scripts/gen-wordnet-synonyms.py /usr/share/wordnet',
            'licence': NOTICE.replace('\n', ' '),
        },
        'synset_block': SYNSET_BLOCK,
        'synsets': [';'.join(synset_lines[i:i + SYNSET_BLOCK]) for i in range(0, len(synset_lines), SYNSET_BLOCK)],
        'index': dict(index_parts),
        'exceptions': {pos: chunks(coded, ' ') for pos, coded in exc_parts},
    }
    OUT.write_text(json.dumps(data, ensure_ascii=False, separators=(',', ':')), encoding='utf-8')



main()
