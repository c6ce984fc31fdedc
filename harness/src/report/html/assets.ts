/** The report's inline stylesheet and script. Both are constants: no run data is ever interpolated into them. */

/** Content-Security-Policy of the page: nothing may be fetched; only the inline style and script run. */
export const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/** Inline CSS (screen and print). */
export const STYLE = `
:root{--fg:#1f2328;--muted:#59636e;--bg:#fff;--panel:#f6f8fa;--line:#d1d9e0;--code:#eff2f5;
--passed:#1a7f37;--failed:#cf222e;--errored:#8250df;--skipped:#0969da;--uncovered:#8c959f;--warning:#9a6700;
--passed-bg:#dafbe1;--failed-bg:#ffebe9;--errored-bg:#fbefff;--skipped-bg:#ddf4ff;--uncovered-bg:#eff2f5;--warning-bg:#fff8c5}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#151b23;--line:#3d444d;--code:#212830;
--passed:#3fb950;--failed:#f85149;--errored:#ab7df8;--skipped:#4493f8;--uncovered:#9198a1;--warning:#d29922;
--passed-bg:#12361f;--failed-bg:#42191b;--errored-bg:#2e1f4a;--skipped-bg:#0f2a4a;--uncovered-bg:#212830;--warning-bg:#3a2d0c}}
*{box-sizing:border-box}
html{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg)}
body{margin:0 auto;max-width:1280px;padding:0 24px 48px}
code,pre,.sid{font-family:ui-monospace,SFMono-Regular,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:12.5px}
h1{font-size:22px;margin:18px 0 4px}h2{font-size:18px;margin:32px 0 10px;padding-bottom:6px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:22px 0 8px}h4{font-size:13px;margin:14px 0 6px}
a{color:var(--skipped)}.muted{color:var(--muted);font-weight:normal}
.banner{display:flex;flex-wrap:wrap;align-items:center;gap:8px 18px;margin:20px 0 8px;padding:14px 18px;border-radius:8px;border:2px solid;font-size:15px}
.banner .verdict{font-size:26px;font-weight:800;letter-spacing:.06em}
.banner .exit{font-family:ui-monospace,monospace;padding:2px 8px;border-radius:4px;background:var(--bg);border:1px solid currentColor}
.v-pass{color:var(--passed);background:var(--passed-bg)}.v-fail{color:var(--failed);background:var(--failed-bg)}
.v-unreachable{color:var(--errored);background:var(--errored-bg)}.v-inconclusive{color:var(--warning);background:var(--warning-bg)}
.banner .why{color:var(--fg)}
.banner .coverage{color:var(--fg);flex-basis:100%;font-size:.95em}
.shared{margin:8px 0 0;font-size:14px}.shared ul{margin:4px 0 0 18px;padding:0}
dl.meta{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:6px 20px;margin:12px 0}
dl.meta div{min-width:0}dl.meta dt{color:var(--muted);font-size:12px}dl.meta dd{margin:0;overflow-wrap:anywhere}
nav.toc{display:flex;gap:16px;padding:8px 0;border-bottom:1px solid var(--line);position:sticky;top:0;background:var(--bg);z-index:2}
.tally{display:flex;flex-wrap:wrap;gap:8px;margin:6px 0}
.tally span{padding:3px 10px;border-radius:999px;border:1px solid var(--line);background:var(--panel)}
.tally b{font-size:15px}
.st-passed{--c:var(--passed);--cb:var(--passed-bg)}.st-failed{--c:var(--failed);--cb:var(--failed-bg)}
.st-errored{--c:var(--errored);--cb:var(--errored-bg)}.st-skipped{--c:var(--skipped);--cb:var(--skipped-bg)}
.st-uncovered{--c:var(--uncovered);--cb:var(--uncovered-bg)}.st-warning{--c:var(--warning);--cb:var(--warning-bg)}
.tally span[class*=st-]{border-color:var(--c);background:var(--cb)}.tally span[class*=st-] b{color:var(--c)}
.badge{display:inline-block;min-width:74px;text-align:center;padding:1px 6px;border-radius:4px;font-size:11px;font-weight:700;letter-spacing:.04em;color:var(--c);background:var(--cb);border:1px solid var(--c);text-transform:uppercase}
.badge.known{color:var(--muted);background:var(--panel);border-color:var(--line);min-width:0}
.lvl{display:inline-block;padding:0 5px;border-radius:3px;font-size:11px;font-weight:700;border:1px solid var(--line)}
.lvl-MUST{background:var(--fg);color:var(--bg);border-color:var(--fg)}.lvl-SHOULD{border-color:var(--fg)}.lvl-MAY{color:var(--muted)}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:6px 8px;border-bottom:1px solid var(--line)}
thead th{background:var(--panel);font-size:12px;color:var(--muted);position:sticky;top:37px;z-index:1}
table.matrix th[scope=row]{white-space:nowrap;width:110px}table.matrix th[scope=row] small{display:block;color:var(--muted);font-weight:normal}
table.matrix tr.bad th[scope=row] a{color:var(--failed)}
table.matrix .lvl-col{width:22%}
table.matrix tfoot th,table.matrix tfoot td{border-top:2px solid var(--fg);font-weight:600}
.cell .bar{display:flex;height:8px;border-radius:4px;overflow:hidden;margin:2px 0 5px;background:var(--panel)}
.cell .seg{background:var(--c);min-width:3px}
.cnts{display:flex;flex-wrap:wrap;gap:2px 10px;font-size:12px}
.cnt{color:var(--muted)}.cnt b{color:var(--c)}.cnt.zero{display:none}
.cell .none{color:var(--muted)}
#filters{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;padding:10px 12px;margin:8px 0 12px;background:var(--panel);border:1px solid var(--line);border-radius:6px}
#filters[hidden]{display:none}
#filters input[type=search]{min-width:260px;padding:5px 8px;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}
#filters label{white-space:nowrap}#filters button,.copy{font:inherit;font-size:12px;padding:3px 10px;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg);cursor:pointer}
details.scenario{border:1px solid var(--line);border-left:4px solid var(--c);border-radius:6px;margin:6px 0;background:var(--bg)}
details.scenario[data-verdict=warn]{--c:var(--warning);--cb:var(--warning-bg)}
details.scenario>summary{cursor:pointer;padding:7px 10px;display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 10px;list-style-position:outside}
details.scenario>summary::marker{color:var(--muted)}
details.scenario[open]>summary{background:var(--panel);border-bottom:1px solid var(--line)}
.sid{font-weight:600}.rids{display:inline-flex;gap:4px;flex-wrap:wrap}
.rid{font-family:ui-monospace,monospace;font-size:11px;color:var(--muted);background:var(--code);padding:0 5px;border-radius:3px}
.stitle{flex-basis:100%;padding-left:84px;color:var(--fg)}
.sbody{padding:4px 14px 14px}
.facts{display:flex;flex-wrap:wrap;gap:4px 16px;color:var(--muted);font-size:12px;margin:8px 0}
.failure,.reason{border-left:3px solid var(--c,var(--failed));background:var(--cb,var(--failed-bg));padding:4px 12px;border-radius:0 4px 4px 0}
.failure{--c:var(--failed);--cb:var(--failed-bg)}
details.st-errored .failure{--c:var(--errored);--cb:var(--errored-bg)}
.failure ul{margin:4px 0 8px;padding-left:18px}.failure li,.reason p{overflow-wrap:anywhere;margin:2px 0}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:4px 0}dl.kv dt{color:var(--muted)}dl.kv dd{margin:0}
pre{margin:4px 0;padding:8px 10px;background:var(--code);border-radius:4px;overflow:auto;max-height:420px;white-space:pre-wrap;overflow-wrap:anywhere}
.cmd{display:flex;align-items:flex-start;gap:8px}
.cmd code{flex:1;display:block;padding:8px 10px;background:var(--code);border:1px solid var(--line);border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere;user-select:all}
details.curl{margin:6px 0 2px}details.curl>summary{cursor:pointer;font-size:12px;color:var(--muted)}
.transcript ol{list-style:none;padding:0;margin:0}
.exchange{border:1px solid var(--line);border-radius:6px;margin:8px 0;overflow:hidden}
.xhead{background:var(--panel);padding:4px 10px;font-size:12px;color:var(--muted);border-bottom:1px solid var(--line)}
.req,.res,.xerr{padding:6px 10px}.req p.muted,.res p.muted{margin:2px 0;font-size:12px;font-style:italic}.res{border-top:1px dashed var(--line)}.xerr{border-top:1px dashed var(--line);color:var(--errored)}
.line{font-family:ui-monospace,monospace;font-size:12.5px;overflow-wrap:anywhere;margin-bottom:4px}
.dir{color:var(--muted)}.method{font-weight:700}
.code{font-weight:700;padding:0 5px;border-radius:3px}.s2{color:var(--passed)}.s3{color:var(--skipped)}.s4{color:var(--warning)}.s5{color:var(--failed)}
table.hdrs{width:auto;margin:2px 0 4px;font-family:ui-monospace,monospace;font-size:12px}
table.hdrs th,table.hdrs td{padding:1px 12px 1px 0;border:0}table.hdrs th{color:var(--muted);font-weight:normal;white-space:nowrap}
table.hdrs td{overflow-wrap:anywhere}
table.rules td.cov{font-family:ui-monospace,monospace;font-size:12px;white-space:nowrap}
table.rules td:first-child{white-space:nowrap}
section,details.scenario,tr[id],span[id]{scroll-margin-top:72px}
footer{margin-top:40px;color:var(--muted);font-size:12px;border-top:1px solid var(--line);padding-top:8px}
@media print{
  html{font-size:11px}body{max-width:none;padding:0}
  nav.toc,#filters,.copy{display:none!important}
  thead th{position:static}
  details.scenario::details-content{content-visibility:visible;display:block}
  details.scenario>summary{border-bottom:1px solid var(--line)}
  details.scenario,.exchange,tr{break-inside:avoid}
  pre{max-height:none;overflow:visible}
  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
  [hidden]{display:revert}
}
`;

/**
 * Inline script: shows the filter box (text over ids, rule ids and titles; status checkboxes), expand / collapse
 * all, copy buttons for replay commands, opens a scenario reached by a link, and opens everything for printing.
 * It only reads `data-*` attributes and sets `hidden`, `open` and `textContent`; the page is complete without it.
 */
export const SCRIPT = `
(function () {
  'use strict';
  var form = document.getElementById('filters');
  var text = document.getElementById('filter-text');
  var shown = document.getElementById('filter-count');
  var items = Array.prototype.slice.call(document.querySelectorAll('details.scenario'));
  var groups = Array.prototype.slice.call(document.querySelectorAll('section.group'));
  var boxes = Array.prototype.slice.call(document.querySelectorAll('#filters input[name=status]'));
  function apply() {
    var q = text.value.trim().toLowerCase();
    var on = {};
    boxes.forEach(function (b) { on[b.value] = b.checked; });
    var n = 0;
    items.forEach(function (d) {
      var ok = !!on[d.getAttribute('data-status')] && (q === '' || (d.getAttribute('data-search') || '').indexOf(q) !== -1);
      d.hidden = !ok;
      if (ok) n++;
    });
    groups.forEach(function (g) {
      var visible = g.querySelectorAll('details.scenario:not([hidden])').length;
      var count = g.querySelector('.gcount');
      var total = count ? count.getAttribute('data-total') : '';
      g.hidden = visible === 0;
      if (count) count.textContent = '(' + (String(visible) === total ? total : visible + ' of ' + total) + ')';
    });
    shown.textContent = n + ' of ' + items.length + ' scenarios shown';
  }
  if (form) {
    form.hidden = false;
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    text.addEventListener('input', apply);
    boxes.forEach(function (b) { b.addEventListener('change', apply); });
    document.getElementById('expand-all').addEventListener('click', function () { items.forEach(function (d) { if (!d.hidden) d.open = true; }); });
    document.getElementById('collapse-all').addEventListener('click', function () { items.forEach(function (d) { d.open = false; }); });
    apply();
  }
  Array.prototype.slice.call(document.querySelectorAll('.cmd')).forEach(function (box) {
    var code = box.querySelector('code');
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy';
    button.textContent = 'Copy';
    button.addEventListener('click', function () {
      var done = function () { button.textContent = 'Copied'; setTimeout(function () { button.textContent = 'Copy'; }, 1500); };
      var select = function () { var r = document.createRange(); r.selectNodeContents(code); var s = window.getSelection(); s.removeAllRanges(); s.addRange(r); };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(code.textContent).then(done, select);
      else select();
    });
    box.appendChild(button);
  });
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === 'DETAILS') { el.hidden = false; el.open = true; }
  }
  window.addEventListener('hashchange', reveal);
  reveal();
  var closed = [];
  window.addEventListener('beforeprint', function () { closed = items.filter(function (d) { return !d.open; }); closed.forEach(function (d) { d.open = true; }); });
  window.addEventListener('afterprint', function () { closed.forEach(function (d) { d.open = false; }); closed = []; });
})();
`;
