/**
 * Escaping for the HTML report. Every piece of text that comes from the user's files (system names, hypotheses,
 * references, signatures) goes through one of these before it reaches the page: hypotheses are arbitrary text, and a
 * report must never run markup or script that a system produced.
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for an HTML element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * JSON for the content of a `<script type="application/json">` element. `<`, `>` and `&` become `\u003c`-style
 * escapes, so no `</script>` or `<!--` can end or change the element whatever the strings hold, and U+2028/U+2029
 * are escaped as well (valid in JSON, but line terminators to older JavaScript parsers). `JSON.parse` of the
 * element's text gives `value` back.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
