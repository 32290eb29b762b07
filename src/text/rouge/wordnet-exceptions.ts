/**
 * ROUGE-1.5.5's `-m` morphology: the WordNet 2.0 exception table (its `WordNet-2.0.exc.db`) looked up first, its
 * own Porter stemmer otherwise (the Perl sub `MorphStem`). The table ships in src/resources/ (generated from
 * ../shared/data/rouge155-resources by scripts/gen-rouge-resources.mjs) and is decoded on first use.
 */
import { WORDNET_20_EXCEPTIONS } from '../../resources/wordnet-2.0-exceptions.js';
import { rouge155PorterStem } from './porter-rouge155.js';

let table: Map<string, string> | undefined;

function decode(): Map<string, string> {
  const map = new Map<string, string>();
  for (const chunk of WORDNET_20_EXCEPTIONS) {
    for (const entry of chunk.split(' ')) {
      const colon = entry.indexOf(':');
      const form = entry.slice(0, colon);
      let i = colon + 1;
      let drop = 0;
      for (let c = entry.charCodeAt(i); c >= 0x30 && c <= 0x39; c = entry.charCodeAt(++i)) drop = drop * 10 + (c - 0x30);
      map.set(form, form.slice(0, form.length - drop) + entry.slice(i));
    }
  }
  return map;
}

/**
 * The base form the WordNet 2.0 exception table of ROUGE-1.5.5 gives `form` (e.g. `geese` → `goose`,
 * `best` → `good`), or undefined when `form` is not in it. Only forms made of [a-z0-9] are held (ROUGE looks up
 * nothing else).
 */
export function wordnetException(form: string): string | undefined {
  table ??= decode();
  return table.get(form);
}

/** Number of forms in the exception table. */
export function wordnetExceptionCount(): number {
  table ??= decode();
  return table.size;
}

/**
 * ROUGE-1.5.5's `MorphStem`: the exception table's base form of the (ASCII-lowercased) token, else
 * {@link rouge155PorterStem} of it. ROUGE's `-m` applies it to tokens longer than 3 characters only; that length
 * test belongs to the tokenizer, not here.
 */
export function rouge155MorphStem(token: string): string {
  const lower = token.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  return wordnetException(lower) ?? rouge155PorterStem(lower);
}
