#include "conformance/html_report/page_assets.h"

namespace azure_pricing::conformance::html_report {

const char kPageStyle[] = R"css(
:root { --pass: #1a7f37; --fail: #cf222e; --known: #9a6700; --notmet: #8250df; --nc: #6e7781;
  --line: #d0d7de; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
  color: #1f2328; margin: 0 auto; max-width: 1240px; padding: 0 20px 48px; }
h1 { font-size: 20px; margin: 16px 0 8px; }
h2 { font-size: 17px; border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 28px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
a { color: #0969da; text-decoration: none; }
a:hover { text-decoration: underline; }
pre, code { font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", monospace; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--soft); padding: 6px 8px;
  margin: 4px 0; border-radius: 4px; }
code.value { white-space: pre-wrap; overflow-wrap: anywhere; }
#verdict { font-size: 14px; font-weight: 600; background: #fff8c5; }
#verdict.pass { background: #dafbe1; }
#verdict.fail { background: #ffebe9; }
dl.facts { display: grid; grid-template-columns: 150px minmax(0, 1fr); gap: 2px 12px; margin: 8px 0; }
dl.facts dt { color: var(--nc); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; margin: 6px 0; }
th, td { border-bottom: 1px solid #eaeef2; padding: 3px 6px; text-align: left; vertical-align: top;
  overflow-wrap: anywhere; }
th { background: var(--soft); font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.total td { font-weight: 600; border-top: 2px solid var(--line); }
.r-passed, .m-passed { color: var(--pass); }
.r-failed, .r-skipped, .m-failed { color: var(--fail); font-weight: 600; }
.r-known, .m-known { color: var(--known); font-weight: 600; }
.r-not_applicable, .r-absent, .m-not-covered { color: var(--nc); }
.m-not-met { color: var(--notmet); font-weight: 600; }
td.result { font-weight: 600; }
nav.filters { position: sticky; top: 0; z-index: 2; background: #fff; display: flex;
  flex-wrap: wrap; gap: 6px 16px; align-items: center; padding: 6px 0;
  border-bottom: 1px solid var(--line); }
nav.toc { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 8px 0; }
section.spec p, section.spec h3 { max-width: 100%; }
span.req, li.req { cursor: pointer; }
span.req { border-bottom: 2px solid; padding: 0 1px; }
.key[data-status=passed], li.req[data-status=passed] { border-left: 4px solid var(--pass); }
.key[data-status=failed], li.req[data-status=failed] { border-left: 4px solid var(--fail); }
.key[data-status=known], li.req[data-status=known] { border-left: 4px solid var(--known); }
.key[data-status=not-met], li.req[data-status=not-met] { border-left: 4px solid var(--notmet); }
.key[data-status=not-covered], li.req[data-status=not-covered] { border-left: 4px dashed var(--nc); }
li.req { padding-left: 8px; }
span.req[data-status=passed] { background: #dafbe1; border-color: var(--pass); }
span.req[data-status=failed] { background: #ffebe9; border-color: var(--fail); }
span.req[data-status=known] { background: #fff8c5; border-color: var(--known); }
span.req[data-status=not-met] { background: #fbefff; border-color: var(--notmet); }
span.req[data-status=not-covered] { background: #eaeef2; border-color: var(--nc);
  border-bottom-style: dashed; }
li.req { margin: 3px 0; }
ul.rules { padding-left: 0; list-style: none; }
.badge { display: inline-block; font-size: 11px; font-weight: 600; padding: 0 6px;
  border-radius: 8px; border: 1px solid; white-space: nowrap; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 14px; margin: 6px 0; }
div.req-panel { border: 1px solid var(--line); border-left: 4px solid #0969da; background: #fff;
  padding: 6px 10px; margin: 4px 0 10px; }
div.req-entry { padding: 4px 0; border-bottom: 1px solid #eaeef2; }
ul.checks { margin: 4px 0; padding-left: 18px; columns: 2; }
article.failure { border: 1px solid var(--line); border-left: 4px solid var(--fail);
  border-radius: 4px; padding: 6px 10px; margin: 8px 0; }
article.failure[data-result=known] { border-left-color: var(--known); }
article.failure[data-level=RECOMMENDED] { border-left-color: var(--notmet); }
article.failure h3 { margin: 0 0 4px; font-size: 14px; overflow-wrap: anywhere; }
details.value summary { cursor: pointer; color: #0969da; }
.muted { color: var(--nc); }
[hidden] { display: none !important; }
)css";

const char kPageScript[] = R"js(
(function () {
  'use strict';
  const params = new URLSearchParams(window.location.search);
  const page = document.documentElement.dataset.page;
  const control = (id) => document.getElementById(id);
  const failed = control('f-failed'), suite = control('f-suite'), level = control('f-level'),
        differs = control('f-differs'), count = control('f-count');
  if (failed) failed.checked = params.has('failed');
  if (differs) differs.checked = params.has('differs');
  if (suite && params.get('suite')) suite.value = params.get('suite');
  if (level && params.get('level')) level.value = params.get('level');

  function notPassed(el) {
    if (page === 'compare' && el.tagName === 'TR') {
      return Array.from(el.querySelectorAll('td.result')).some((td) => td.dataset.result !== 'passed');
    }
    return ['failed', 'known', 'skipped'].includes(el.dataset.result);
  }
  function apply(updateUrl) {
    const want = { failed: failed && failed.checked, suite: suite ? suite.value : '',
                   level: level ? level.value : '', differs: differs && differs.checked };
    let shown = 0, total = 0;
    document.querySelectorAll('tr.check, article.failure').forEach((el) => {
      const keep = (!want.failed || notPassed(el)) && (!want.suite || el.dataset.suite === want.suite) &&
          (!want.level || el.dataset.level === want.level) &&
          (!want.differs || el.dataset.differs === 'true');
      el.hidden = !keep;
      if (el.tagName === 'TR') { total += 1; shown += keep ? 1 : 0; }
    });
    document.querySelectorAll('tr.req-total').forEach((row) => {
      row.hidden = Boolean(want.differs) && row.dataset.differs !== 'true';
    });
    document.querySelectorAll('section.checks-of-suite').forEach((section) => {
      section.hidden = !section.querySelector('tr.check:not([hidden])');
    });
    if (count) count.textContent = 'showing ' + shown + ' of ' + total + ' checks';
    if (!updateUrl) return;
    const query = new URLSearchParams();
    if (want.failed) query.set('failed', '');
    if (want.suite) query.set('suite', want.suite);
    if (want.level) query.set('level', want.level);
    if (want.differs) query.set('differs', '');
    const text = query.toString().replace(/=(&|$)/g, '$1');
    window.history.replaceState(null, '', (text ? '?' + text : window.location.pathname) + window.location.hash);
  }
  [failed, suite, level, differs].forEach((c) => c && c.addEventListener('change', () => apply(true)));

  // A link to a check the filters hide shows it: the filters give way to the anchor.
  function reveal() {
    const target = window.location.hash && document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    if (!target || !target.closest('[hidden]')) return;
    [failed, differs].forEach((c) => { if (c) c.checked = false; });
    [suite, level].forEach((c) => { if (c) c.value = ''; });
    apply(true);
    target.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);

  // A marked passage lists its requirements and their checks, copied from the index below.
  document.querySelectorAll('span.req, li.req').forEach((span) => span.addEventListener('click', () => {
    const block = span.closest('p, h3, li');
    const next = block.nextElementSibling;
    if (next && next.classList.contains('req-panel') && next.dataset.ids === span.dataset.ids) {
      next.remove();
      return;
    }
    if (next && next.classList.contains('req-panel')) next.remove();
    const panel = document.createElement('div');
    panel.className = 'req-panel';
    panel.dataset.ids = span.dataset.ids;
    span.dataset.ids.split(' ').forEach((id) => {
      const entry = document.getElementById('req-' + id);
      if (!entry) return;
      const copy = entry.cloneNode(true);
      copy.removeAttribute('id');
      copy.querySelectorAll('details').forEach((d) => { d.open = true; });
      panel.appendChild(copy);
    });
    block.after(panel);
  }));

  apply(false);
  reveal();

  if (params.has('layout-check')) {
    const overflowing = [];
    document.querySelectorAll('td, th').forEach((cell) => {
      if (cell.offsetParent !== null && cell.scrollWidth > cell.clientWidth + 1) {
        overflowing.push(cell.textContent.trim().slice(0, 60));
      }
    });
    const report = { viewport_width: window.innerWidth,
                     page_width: document.documentElement.scrollWidth, overflowing: overflowing };
    const pre = document.createElement('pre');
    pre.id = 'layout-check';
    pre.textContent = JSON.stringify(report);
    document.body.appendChild(pre);
  }
})();
)js";

}  // namespace azure_pricing::conformance::html_report
