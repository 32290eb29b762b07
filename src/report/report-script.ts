/**
 * The report page's script, inlined in its last `<script>` element: plain ES2017 for any browser, no library. It
 * makes the server-rendered tables sortable and builds the per-segment drill-down from the JSON blob
 * (`#report-data`). Text from the data reaches the page only through `textContent`, never `innerHTML`, so a
 * hypothesis cannot inject markup. When it has run, `<html data-rendered>` is `ok`; any error (thrown, or reported
 * to `window.onerror`) sets it to `error` and is written into `#report-errors`, which is how a headless browser
 * check (scripts/check-report.mjs) tells that the page works.
 *
 * Kept as a string (not a compiled module) so the bytes the page carries are exactly these, whatever compiles src/.
 */

/** JavaScript of the report page. */
export const REPORT_SCRIPT = String.raw`
(function () {
  'use strict';
  var root = document.documentElement;
  var errorBox = document.getElementById('report-errors');
  var failed = false;
  function fail(message) {
    failed = true;
    root.setAttribute('data-rendered', 'error');
    errorBox.hidden = false;
    errorBox.textContent += message + '\n';
  }
  window.addEventListener('error', function (e) { fail('error: ' + (e.message || e)); });

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) {
      if (k === 'text') node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    }
    if (children) children.forEach(function (c) { if (c != null) node.appendChild(c); });
    return node;
  }
  function fmt(v, decimals) { return v == null || !isFinite(v) ? '–' : Number(v).toFixed(decimals); }

  // Sortable tables: a click on a header sorts the body by that column (data-v holds numbers), again to reverse.
  function makeSortable(table) {
    var heads = table.tHead ? table.tHead.rows[table.tHead.rows.length - 1].cells : [];
    Array.prototype.forEach.call(heads, function (th, col) {
      th.setAttribute('tabindex', '0');
      function sort() {
        var asc = th.getAttribute('aria-sort') !== 'ascending';
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var keyed = rows.map(function (row, i) {
          var cell = row.cells[col];
          var raw = cell ? cell.getAttribute('data-v') : null;
          var num = raw === null || raw === '' ? NaN : Number(raw);
          return { row: row, i: i, num: num, text: cell ? cell.textContent : '' };
        });
        var numeric = keyed.some(function (k) { return !isNaN(k.num); });
        keyed.sort(function (a, b) {
          var d;
          if (numeric) {
            if (isNaN(a.num) !== isNaN(b.num)) return isNaN(a.num) ? 1 : -1;
            d = isNaN(a.num) ? 0 : a.num - b.num;
          } else d = a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
          return (asc ? d : -d) || a.i - b.i;
        });
        keyed.forEach(function (k) { body.appendChild(k.row); });
      }
      th.addEventListener('click', sort);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sort(); } });
    });
  }

  // Words of the hypothesis found in a reference (clipped counts, as n-gram precision counts unigrams), and of the
  // reference found in the hypothesis; whitespace split, so it is a reading aid, not any metric's matching.
  function words(s) { return s.split(/(\s+)/).filter(function (w) { return w !== ''; }); }
  function counts(list) {
    var c = Object.create(null);
    list.forEach(function (w) { if (!/^\s+$/.test(w)) c[w] = (c[w] || 0) + 1; });
    return c;
  }
  function highlighted(text, against) {
    var available = Object.create(null);
    against.forEach(function (other) {
      var c = counts(words(other));
      for (var w in c) if (!(w in available) || available[w] < c[w]) available[w] = c[w];
    });
    var span = el('span', { 'class': 'txt' });
    words(text).forEach(function (w) {
      if (!/^\s+$/.test(w) && available[w] > 0) {
        available[w]--;
        span.appendChild(el('span', { 'class': 'm', text: w }));
      } else span.appendChild(document.createTextNode(w));
    });
    return span;
  }

  function drillDown(D) {
    var host = document.getElementById('segment-view');
    var seg = D.segments;
    var pageSize = 25;
    var state = { sys: 0, cmp: D.systems.length > 1 ? 1 : -1, metric: 0, sort: 'index', filter: '', page: 0 };
    var SORTS = ['index', 'score-asc', 'score-desc', 'diff-asc', 'diff-desc'];
    // The drill-down state lives in the URL fragment (#segments:sys=1&cmp=0&sort=diff-desc), so a view can be
    // linked to, bookmarked, and opened directly by a headless check.
    var fromHash = /^#segments:/.test(location.hash);
    if (fromHash) {
      location.hash.slice(10).split('&').forEach(function (pair) {
        var eq = pair.indexOf('=');
        if (eq < 0) return;
        var key = pair.slice(0, eq);
        var value = decodeURIComponent(pair.slice(eq + 1));
        var n = Number(value);
        var index = function (count, min) { return Math.floor(n) === n && n >= min && n < count; };
        if (key === 'sys' && index(D.systems.length, 0)) state.sys = n;
        else if (key === 'cmp' && index(D.systems.length, -1)) state.cmp = n;
        else if (key === 'metric' && index(D.metrics.length, 0)) state.metric = n;
        else if (key === 'sort' && SORTS.indexOf(value) >= 0) state.sort = value;
        else if (key === 'q') state.filter = value;
        else if (key === 'page' && index(Infinity, 0)) state.page = n;
      });
    }
    function saveHash() {
      var h = '#segments:sys=' + state.sys + '&cmp=' + state.cmp + '&metric=' + state.metric + '&sort=' + state.sort +
        (state.filter ? '&q=' + encodeURIComponent(state.filter) : '') + (state.page ? '&page=' + state.page : '');
      try { history.replaceState(null, '', h); } catch (e) { /* some file:// contexts refuse; the view still works */ }
    }
    function options(select, items, selected) {
      items.forEach(function (label, i) {
        var o = el('option', { value: String(i), text: label });
        if (i === selected) o.selected = true;
        select.appendChild(o);
      });
    }
    var sysSel = el('select', { id: 'dd-system' });
    options(sysSel, D.systems, state.sys);
    var cmpSel = el('select', { id: 'dd-compare' });
    cmpSel.appendChild(el('option', { value: '-1', text: '(none)' }));
    options(cmpSel, D.systems, state.cmp);
    var metSel = el('select', { id: 'dd-metric' });
    options(metSel, D.metrics.map(function (m) { return m.name; }), state.metric);
    var sortSel = el('select', { id: 'dd-sort' });
    [['index', 'segment order'], ['score-asc', 'score, worst first'], ['score-desc', 'score, best first'],
     ['diff-asc', 'difference A − B, lowest first'], ['diff-desc', 'difference A − B, highest first']]
      .forEach(function (o) {
        var opt = el('option', { value: o[0], text: o[1] });
        if (o[0] === state.sort) opt.selected = true;
        sortSel.appendChild(opt);
      });
    var filterIn = el('input', { id: 'dd-filter', type: 'search', placeholder: 'words in source, references or outputs' });
    filterIn.value = state.filter;
    var lbl = function (text, control) { return el('label', null, [document.createTextNode(text), control]); };
    host.appendChild(el('div', { 'class': 'controls' }, [
      lbl('System A', sysSel), lbl('System B (compare)', cmpSel), lbl('Metric', metSel), lbl('Order', sortSel),
      lbl('Filter', filterIn)]));
    var pagerTop = el('div', { 'class': 'pager' });
    var table = el('table', { 'class': 'segments', id: 'segment-table' });
    var pagerBottom = el('div', { 'class': 'pager' });
    host.appendChild(pagerTop);
    host.appendChild(el('div', { 'class': 'table-wrap' }, [table]));
    host.appendChild(pagerBottom);

    function score(m, s, i) { var v = seg.scores[m][s][i]; return v == null ? null : v; }
    function selected() {
      var q = state.filter.toLowerCase();
      var rows = [];
      for (var i = 0; i < seg.count; i++) {
        if (q) {
          var hay = [seg.hypotheses[state.sys][i]];
          if (state.cmp >= 0) hay.push(seg.hypotheses[state.cmp][i]);
          if (seg.source) hay.push(seg.source[i]);
          seg.references.forEach(function (r) { hay.push(r[i]); });
          if (hay.join('\n').toLowerCase().indexOf(q) < 0) continue;
        }
        rows.push(i);
      }
      var key = null;
      var m = state.metric;
      var sign = D.metrics[m].higherIsBetter ? 1 : -1;
      if (state.sort === 'score-asc' || state.sort === 'score-desc') key = function (i) { return score(m, state.sys, i); };
      if ((state.sort === 'diff-asc' || state.sort === 'diff-desc') && state.cmp >= 0) {
        key = function (i) {
          var a = score(m, state.sys, i), b = score(m, state.cmp, i);
          return a == null || b == null ? null : a - b;
        };
      }
      if (key !== null) {
        // "worst first" means the lowest score for BLEU-like metrics and the highest for error rates.
        var dir = /-asc$/.test(state.sort) ? 1 : -1;
        if (/^score/.test(state.sort)) dir *= sign;
        var keys = Object.create(null);
        rows.forEach(function (i) { keys[i] = key(i); });
        rows.sort(function (a, b) {
          var x = keys[a], y = keys[b];
          if ((x == null) !== (y == null)) return x == null ? 1 : -1;
          return (x == null ? 0 : dir * (x - y)) || a - b;
        });
      }
      return rows;
    }
    function pager(box, total, pages) {
      while (box.firstChild) box.removeChild(box.firstChild);
      var from = total === 0 ? 0 : state.page * pageSize + 1;
      var to = Math.min(total, (state.page + 1) * pageSize);
      var prev = el('button', { type: 'button', text: '‹ previous' });
      var next = el('button', { type: 'button', text: 'next ›' });
      prev.disabled = state.page === 0;
      next.disabled = state.page >= pages - 1;
      prev.addEventListener('click', function () { state.page--; render(); saveHash(); });
      next.addEventListener('click', function () { state.page++; render(); saveHash(); });
      box.appendChild(prev);
      box.appendChild(el('span', { 'class': 'count', text: 'segments ' + from + '–' + to + ' of ' + total +
        (total < seg.count ? ' (filtered from ' + seg.count + ')' : '') }));
      box.appendChild(next);
    }
    function line(tag, cls, content) {
      return el('div', { 'class': 'seg-line ' + cls }, [el('span', { 'class': 'tag', text: tag }), content]);
    }
    function render() {
      var rows = selected();
      var pages = Math.max(1, Math.ceil(rows.length / pageSize));
      if (state.page >= pages) state.page = pages - 1;
      pager(pagerTop, rows.length, pages);
      pager(pagerBottom, rows.length, pages);
      while (table.firstChild) table.removeChild(table.firstChild);
      var m = state.metric;
      var metric = D.metrics[m];
      var cmp = state.cmp >= 0 && state.cmp !== state.sys ? state.cmp : -1;
      var head = el('tr', null, [el('th', { 'class': 'num', text: '#' }), el('th', { 'class': 'num', text: metric.name + ' A' })]);
      if (cmp >= 0) {
        head.appendChild(el('th', { 'class': 'num', text: metric.name + ' B' }));
        head.appendChild(el('th', { 'class': 'num', text: 'A − B' }));
      }
      var judged = (D.human || []).filter(function (h) { return h.segment; });
      judged.forEach(function (h) {
        head.appendChild(el('th', { 'class': 'num', text: h.name + ' A' }));
        if (cmp >= 0) head.appendChild(el('th', { 'class': 'num', text: h.name + ' B' }));
      });
      head.appendChild(el('th', { text: 'source · references · outputs (words also found in the reference are shaded)' }));
      table.appendChild(el('thead', null, [head]));
      var body = el('tbody');
      var decimals = metric.decimals;
      rows.slice(state.page * pageSize, (state.page + 1) * pageSize).forEach(function (i) {
        var a = score(m, state.sys, i);
        var tr = el('tr', { 'data-segment': String(i + 1) }, [
          el('td', { 'class': 'num', text: String(i + 1) }), el('td', { 'class': 'num', text: fmt(a, decimals) })]);
        if (cmp >= 0) {
          var b = score(m, cmp, i);
          var d = a == null || b == null ? null : a - b;
          tr.appendChild(el('td', { 'class': 'num', text: fmt(b, decimals) }));
          var better = d == null || d === 0 ? '' : (d > 0) === metric.higherIsBetter ? 'delta-pos' : 'delta-neg';
          tr.appendChild(el('td', { 'class': 'num ' + better, text: d == null ? '–' : (d > 0 ? '+' : '') + fmt(d, decimals) }));
        }
        judged.forEach(function (h) {
          tr.appendChild(el('td', { 'class': 'num', text: fmt(h.segment[state.sys][i], 3) }));
          if (cmp >= 0) tr.appendChild(el('td', { 'class': 'num', text: fmt(h.segment[cmp][i], 3) }));
        });
        var refs = seg.references.map(function (r) { return r[i]; });
        var texts = el('td', { 'class': 'texts' });
        if (seg.source) texts.appendChild(line('src', 'src', el('span', { 'class': 'txt', text: seg.source[i] })));
        var hypA = seg.hypotheses[state.sys][i];
        refs.forEach(function (r, j) {
          texts.appendChild(line(refs.length > 1 ? 'ref ' + (j + 1) : 'ref', 'ref', highlighted(r, [hypA])));
        });
        texts.appendChild(line('A', 'hyp', highlighted(hypA, refs)));
        if (cmp >= 0) texts.appendChild(line('B', 'hyp', highlighted(seg.hypotheses[cmp][i], refs)));
        tr.appendChild(texts);
        body.appendChild(tr);
      });
      if (rows.length === 0) {
        body.appendChild(el('tr', null, [el('td', { 'class': 'empty', colspan: String(head.cells.length), text: 'no segment matches' })]));
      }
      table.appendChild(body);
    }
    function update() { state.page = 0; render(); saveHash(); }
    function bind(select, field) {
      select.addEventListener('change', function () { state[field] = Number(select.value); update(); });
    }
    bind(sysSel, 'sys');
    bind(cmpSel, 'cmp');
    bind(metSel, 'metric');
    sortSel.addEventListener('change', function () { state.sort = sortSel.value; update(); });
    filterIn.addEventListener('input', function () { state.filter = filterIn.value; update(); });
    render();
    if (fromHash) document.getElementById('segments').scrollIntoView();
  }

  try {
    var D = JSON.parse(document.getElementById('report-data').textContent);
    Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), makeSortable);
    drillDown(D);
    if (!failed) root.setAttribute('data-rendered', 'ok');
  } catch (e) {
    fail('error: ' + (e && e.stack ? e.stack : e));
  }
})();
`;
