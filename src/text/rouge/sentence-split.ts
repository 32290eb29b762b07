/**
 * Sentence splitting for summary-level ROUGE (ROUGE-L over sentences, rouge-score's `rougeLsum`) and for
 * ROUGE-1.5.5's sentence-per-line input. A rule turns one summary text into its sentences; sentences that would
 * be empty strings are never returned (ROUGE-1.5.5 skips empty lines, rouge-score drops empty sentences).
 *
 * - `none`: the whole text is one sentence.
 * - `newline`: every `\n`-separated line is a sentence (rouge-score's `rougeLsum` convention; `\r` is kept).
 * - `punct` (the goldens' `tokpunct`): split the text into tokens on Python whitespace; a sentence ends after every
 *   maximal run of tokens that are exactly `.`, `!` or `?`, and at the end of the text; a sentence is its tokens
 *   joined by single spaces. For already tokenized text without sentence markers (SummEval, CNN/DM).
 * - `t-tags`: the content of each `<t>…</t>` element, in order (the CNN/DM abstract markup, read like the
 *   pointer-generator scripts do: text outside the elements and an unclosed `<t>` are ignored, the content is
 *   not trimmed).
 * - `marker:STR`: the pieces between occurrences of the literal, non-empty string STR (e.g. `marker:<q>`).
 *
 * `t-tags` and `marker:STR` are markup ({@link isMarkupSplit}): the tags and markers are not words of the summary,
 * and text outside the `<t>` elements is not part of it, so under them every ROUGE type reads the sentences (types
 * that read the whole summary read the sentences' tokens back to back). The other rules only place boundaries in
 * a text that is read whole by those types.
 */
import { badOption } from '../../errors.js';
import { isPyWhitespace, pyJoinSplit } from '../pystr.js';

/** A sentence-splitting rule. */
export type SentenceSplit =
  | { readonly kind: 'none' }
  | { readonly kind: 'newline' }
  | { readonly kind: 'punct' }
  | { readonly kind: 't-tags' }
  | { readonly kind: 'marker'; readonly marker: string };

/** The rule names {@link parseSentenceSplit} accepts (`marker:` takes the marker after the colon). */
export const SENTENCE_SPLIT_NAMES = ['none', 'newline', 'punct', 't-tags', 'marker:STR'] as const;

/**
 * The rule called `name`: `none`, `newline`, `punct`, `t-tags` or `marker:STR`.
 * @throws InputError `E_BAD_OPTION` for any other name or an empty marker.
 */
export function parseSentenceSplit(name: string): SentenceSplit {
  switch (name) {
    case 'none':
    case 'newline':
    case 'punct':
    case 't-tags':
      return { kind: name };
  }
  if (name.startsWith('marker:') && name.length > 'marker:'.length) return { kind: 'marker', marker: name.slice(7) };
  throw badOption('sentence split', `one of ${SENTENCE_SPLIT_NAMES.join(', ')} (with a non-empty STR)`, name);
}

/**
 * Whether the rule's separators are markup rather than text (`t-tags`, `marker:STR`): then a summary's text is its
 * sentences and nothing else, as ROUGE-1.5.5 reads a SEE file's sentence elements.
 */
export function isMarkupSplit(rule: SentenceSplit): boolean {
  return rule.kind === 't-tags' || rule.kind === 'marker';
}

/** The name of a rule, as {@link parseSentenceSplit} reads it. */
export function sentenceSplitName(rule: SentenceSplit): string {
  return rule.kind === 'marker' ? `marker:${rule.marker}` : rule.kind;
}

/** Whether the code unit is one of `.`, `!`, `?`. */
function isStop(c: number): boolean {
  return c === 0x2e || c === 0x21 || c === 0x3f;
}

/** `punct`: sentences end after each maximal run of `.`/`!`/`?` tokens. */
function splitPunct(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let sentenceStart = -1; // start of the first token of the open sentence
  let lastEnd = 0; // end of the last token seen
  let inStopRun = false; // the last token was `.`, `!` or `?`
  let i = 0;
  const close = (): void => {
    // The sentence is text[sentenceStart, lastEnd) with its inner whitespace runs made single spaces.
    out.push(pyJoinSplit(text.slice(sentenceStart, lastEnd)));
    sentenceStart = -1;
  };
  while (i < n) {
    if (isPyWhitespace(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && !isPyWhitespace(text.charCodeAt(i))) i++;
    const stop = i - start === 1 && isStop(text.charCodeAt(start));
    if (inStopRun && !stop) close();
    if (sentenceStart < 0) sentenceStart = start;
    lastEnd = i;
    inStopRun = stop;
  }
  if (sentenceStart >= 0) close();
  return out;
}

/** `t-tags`: the content of each `<t>…</t>` element. */
function splitTTags(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const open = text.indexOf('<t>', at);
    if (open < 0) break;
    const close = text.indexOf('</t>', open + 3);
    if (close < 0) break;
    const content = text.slice(open + 3, close);
    if (content.length > 0) out.push(content);
    at = close + 4;
  }
  return out;
}

/** The non-empty pieces of `text` between occurrences of `separator`. */
function splitOn(text: string, separator: string): string[] {
  return text.split(separator).filter((s) => s.length > 0);
}

/**
 * The sentences of one summary text under `rule` (a {@link SentenceSplit} or its name). Empty sentences are
 * dropped; an empty text has no sentences.
 * @throws InputError `E_BAD_OPTION` for an unknown rule name.
 */
export function splitSentences(text: string, rule: SentenceSplit | string): string[] {
  const r = typeof rule === 'string' ? parseSentenceSplit(rule) : rule;
  switch (r.kind) {
    case 'none':
      return text.length > 0 ? [text] : [];
    case 'newline':
      return splitOn(text, '\n');
    case 'punct':
      return splitPunct(text);
    case 't-tags':
      return splitTTags(text);
    case 'marker':
      return splitOn(text, r.marker);
  }
}
