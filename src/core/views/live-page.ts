import { escapeHtml, PHASE_COLOURS } from './report/html';
import { PHASES } from '../phase-names';

// The page of `agent-session serve`: a skeleton, its style sheet and its script, each served from the server's own
// origin (the Content-Security-Policy allows scripts and styles from 'self' only: no inline code at all). The script
// fills the page from /api/state every second and builds every element with text nodes (never innerHTML), so a
// session's text cannot become markup.

/** The Content-Security-Policy of every answer of the server. */
export const LIVE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page's skeleton, with the launch's anti-forgery token in a meta element the script reads. */
export function livePage(csrf: string, title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="agent-session-csrf" content="${escapeHtml(csrf)}">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1><span id="live" class="status">connecting…</span></header>
<p id="flash" role="status"></p>
<section id="decisions"><h2>Decisions <span class="count" id="decision-count"></span></h2>
<p class="empty" id="no-decisions" hidden>Nothing waits for a decision.</p>
<table><thead><tr><th>Agent</th><th>Waits</th><th>What it would allow</th><th>Decide</th></tr></thead>
<tbody></tbody></table></section>
<section id="sessions"><h2>Sessions <span class="count" id="session-count"></span></h2>
<div class="filters">
<label>Phase <select id="filter-phase" data-filter="phase"><option value="">all</option></select></label>
<label>Agent <select id="filter-agent" data-filter="agent"><option value="">all</option></select></label>
<label>Project <select id="filter-project" data-filter="project"><option value="">all</option></select></label>
<label>Host <select id="filter-host" data-filter="host"><option value="">all</option></select></label>
</div>
<p id="phase-counts"></p>
<table><thead><tr><th>Phase</th><th>Agent</th><th>Session</th><th>Project</th><th>Host</th><th>Active</th><th>Purpose</th></tr></thead>
<tbody></tbody></table></section>
</body>
</html>
`;
}

/** The page's style sheet. */
export const LIVE_CSS = `
:root { color-scheme: light; font: 14px/1.4 system-ui, sans-serif; }
body { margin: 0 auto; max-width: 1200px; padding: 0 16px 32px; color: #1d2430; }
header { display: flex; align-items: baseline; gap: 16px; }
h1 { font-size: 20px; margin: 16px 0 4px; }
h2 { font-size: 16px; margin: 20px 0 8px; }
.status { color: #6b7280; font-size: 12px; }
.status.live { color: #1b7f4b; }
.status.offline { color: #d64545; }
#flash { min-height: 1.4em; margin: 4px 0; }
#flash.error { color: #d64545; }
.count { color: #6b7280; font-weight: normal; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th, td { text-align: left; vertical-align: top; padding: 6px 8px; border-bottom: 1px solid #e5e7eb;
  overflow-wrap: anywhere; }
th { font-size: 12px; color: #6b7280; font-weight: 600; }
#decisions th:nth-child(1) { width: 22%; } #decisions th:nth-child(2) { width: 12%; }
#decisions th:nth-child(4) { width: 30%; }
#sessions th:nth-child(1) { width: 11%; } #sessions th:nth-child(2) { width: 16%; }
#sessions th:nth-child(3) { width: 14%; } #sessions th:nth-child(4) { width: 17%; }
#sessions th:nth-child(5) { width: 9%; } #sessions th:nth-child(6) { width: 9%; }
pre.allows { margin: 0; max-height: 12em; overflow: auto; white-space: pre-wrap; font: 12px/1.35 ui-monospace, monospace;
  background: #f6f7f9; padding: 6px; border-radius: 4px; }
.muted { color: #6b7280; font-size: 12px; }
.kind { display: inline-block; font-size: 11px; padding: 0 6px; border-radius: 8px; background: #fde9c4; }
.kind.interrupted { background: #f8d4d4; } .kind.permission { background: #f3d9fa; } .kind.waiting { background: #e3e8f0; }
.decide { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.decide input { flex: 1 1 140px; min-width: 0; padding: 4px 6px; }
button { padding: 4px 10px; cursor: pointer; }
button.approve { background: #2bb673; color: white; border: 1px solid #1b7f4b; border-radius: 4px; }
button.reject { background: white; color: #d64545; border: 1px solid #d64545; border-radius: 4px; }
button.copy { font-size: 11px; padding: 1px 6px; }
code.command { font-size: 12px; display: block; margin-top: 4px; }
.filters { display: flex; flex-wrap: wrap; gap: 12px; margin-bottom: 8px; }
.phase { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
${PHASES.map((phase) => `.phase.${phase} { background: ${PHASE_COLOURS[phase]}; }`).join('\n')}
`;

/** The page's script (plain ES2019, no library): polls /api/state, renders, and sends approve / reject. */
export const LIVE_SCRIPT = `'use strict';
(function () {
  var csrf = document.querySelector('meta[name="agent-session-csrf"]').getAttribute('content');
  var last = null;
  var model = null;
  var rows = new Map();
  var filters = { phase: '', agent: '', project: '', host: '' };

  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      var value = props[key];
      if (value === undefined || value === null) return;
      if (key === 'text') node.textContent = value;
      else if (key === 'className') node.className = value;
      else if (key === 'onclick') node.addEventListener('click', value);
      else node.setAttribute(key, String(value));
    });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function duration(seconds) {
    var units = [[86400, 'd'], [3600, 'h'], [60, 'm'], [1, 's']];
    var parts = [];
    for (var i = 0; i < units.length && parts.length < 2; i++) {
      var n = Math.floor(seconds / units[i][0]);
      if (n > 0 || parts.length > 0) { parts.push(n + units[i][1]); seconds -= n * units[i][0]; }
    }
    return parts.length === 0 ? '0s' : parts.join(' ');
  }

  function flash(text, error) {
    var node = document.getElementById('flash');
    node.textContent = text;
    node.className = error ? 'error' : '';
  }

  function copyButton(text) {
    return el('button', { className: 'copy', type: 'button', title: 'Copy the command', text: 'copy', onclick: function () {
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(function () { flash('Copied: ' + text); },
        function () { flash('Copy refused by the browser; select the command instead', true); });
    } });
  }

  function signature(row) {
    var copy = Object.assign({}, row);
    delete copy.waited_seconds;
    return JSON.stringify(copy);
  }

  function decisionRow(row) {
    var waits = row.waits_on === null ? '' : row.waits_on.source + ': ' + row.waits_on.text;
    var what = row.allows !== null ? el('pre', { className: 'allows', text: row.allows }) : el('span', { className: 'muted', text: waits || 'nothing recorded' });
    var decide = el('div', { className: 'decide' });
    if (row.kind === 'approval' || row.kind === 'permission') {
      var note = el('input', { type: 'text', className: 'note', placeholder: 'note (a reason to reject)', 'aria-label': 'note' });
      decide.appendChild(el('button', { type: 'button', className: 'approve', text: 'Approve', onclick: function () { send('approve', row.id, note.value); } }));
      decide.appendChild(note);
      decide.appendChild(el('button', { type: 'button', className: 'reject', text: 'Reject', onclick: function () { send('reject', row.id, note.value); } }));
    }
    var commands = row.commands.map(function (command) { return el('code', { className: 'command' }, [command + ' ', copyButton(command)]); });
    var agentCell = el('td', {}, [el('strong', { className: 'agent', text: row.agent }), el('br'),
      el('span', { className: 'kind ' + row.kind, text: row.kind === 'approval' ? 'approval' : row.kind === 'permission' ? 'permission request' : row.kind === 'interrupted' ? row.phase + ', interrupted' : row.phase }),
      ' ', el('span', { className: 'muted id', text: row.id }), el('br'),
      el('span', { className: 'muted', text: (row.project === null ? 'no project' : row.project) + ' · ' + row.host })]);
    var tr = el('tr', { 'data-session': row.id, 'data-kind': row.kind }, [
      agentCell,
      el('td', { className: 'waited', text: duration(row.waited_seconds) }),
      el('td', {}, [what]),
      el('td', {}, [decide].concat(commands)),
    ]);
    return tr;
  }

  function renderDecisions(list) {
    var body = document.querySelector('#decisions tbody');
    var seen = new Set();
    list.forEach(function (row, index) {
      seen.add(row.id);
      var kept = rows.get(row.id);
      var sig = signature(row);
      if (!kept || kept.sig !== sig) {
        var node = decisionRow(row);
        var oldNote = kept && kept.node.querySelector('input.note');
        var newNote = node.querySelector('input.note');
        if (oldNote && newNote) newNote.value = oldNote.value;
        if (kept) body.replaceChild(node, kept.node);
        kept = { node: node, sig: sig };
        rows.set(row.id, kept);
      }
      kept.node.querySelector('td.waited').textContent = duration(row.waited_seconds);
      if (body.children[index] !== kept.node) body.insertBefore(kept.node, body.children[index] || null);
    });
    rows.forEach(function (kept, id) {
      if (!seen.has(id)) { kept.node.remove(); rows.delete(id); }
    });
    document.getElementById('decision-count').textContent = String(list.length);
    document.getElementById('no-decisions').hidden = list.length > 0;
  }

  function fillFilter(name, values) {
    var select = document.getElementById('filter-' + name);
    var current = filters[name];
    var wanted = [''].concat(values);
    var have = Array.prototype.map.call(select.options, function (o) { return o.value; });
    if (JSON.stringify(have) === JSON.stringify(wanted)) return;
    while (select.options.length > 1) select.remove(1);
    values.forEach(function (value) { select.appendChild(el('option', { value: value, text: value })); });
    select.value = values.indexOf(current) >= 0 ? current : '';
    filters[name] = select.value;
  }

  function uniq(list, key) {
    var out = [];
    list.forEach(function (row) { var v = row[key] === null ? '(none)' : row[key]; if (out.indexOf(v) < 0) out.push(v); });
    return out.sort();
  }

  function renderSessions() {
    if (model === null) return;
    var order = ${JSON.stringify(PHASES)};
    fillFilter('phase', order.filter(function (p) { return model.by_phase[p] > 0; }));
    fillFilter('agent', uniq(model.sessions, 'agent'));
    fillFilter('project', uniq(model.sessions, 'project'));
    fillFilter('host', uniq(model.sessions, 'host'));
    var shown = model.sessions.filter(function (row) {
      return ['phase', 'agent', 'project', 'host'].every(function (key) {
        var v = row[key] === null ? '(none)' : row[key];
        return filters[key] === '' || filters[key] === v;
      });
    }).sort(function (a, b) { return order.indexOf(a.phase) - order.indexOf(b.phase); });
    var body = document.querySelector('#sessions tbody');
    var now = Date.parse(model.now);
    var fresh = document.createDocumentFragment();
    shown.forEach(function (row) {
      fresh.appendChild(el('tr', { 'data-session': row.id, 'data-phase': row.phase }, [
        el('td', {}, [el('span', { className: 'phase ' + row.phase }), row.phase]),
        el('td', { className: 'agent', text: row.agent }),
        el('td', { text: row.id }),
        el('td', { text: row.project === null ? '(none)' : row.project }),
        el('td', { text: row.host }),
        el('td', { text: duration(Math.max(0, (now - Date.parse(row.last_updated)) / 1000)) + ' ago' }),
        el('td', { text: row.purpose }),
      ]));
    });
    body.replaceChildren(fresh);
    document.getElementById('session-count').textContent = shown.length + ' of ' + model.total +
      (model.sessions_left_out > 0 ? ' (' + model.sessions_left_out + ' older not listed)' : '');
    document.getElementById('phase-counts').textContent = order.filter(function (p) { return model.by_phase[p] > 0; })
      .map(function (p) { return p + ' ' + model.by_phase[p]; }).join(' · ') +
      (model.corrupt > 0 ? ' · ' + model.corrupt + ' corrupt left out' : '');
  }

  function send(verb, id, note) {
    var body = verb === 'approve' ? { id: id } : { id: id, reason: note };
    if (verb === 'approve' && note.trim() !== '') body.note = note;
    if (verb === 'reject' && note.trim() === '') { flash('A rejection needs a reason: write it in the note', true); return; }
    fetch('/api/' + verb, { method: 'POST', credentials: 'same-origin', cache: 'no-store',
      headers: { 'content-type': 'application/json', 'x-agent-session-csrf': csrf }, body: JSON.stringify(body) })
      .then(function (response) { return response.json().then(function (answer) { return { ok: response.ok, answer: answer }; }); })
      .then(function (result) {
        if (result.ok) flash((verb === 'approve' ? 'Approved ' : 'Rejected ') + id + ': now ' + result.answer.phase);
        else flash('Not ' + verb + 'd: ' + result.answer.message, true);
        poll(false);
      }, function () { flash('The server did not answer', true); });
  }

  function poll(again) {
    fetch('/api/state', { credentials: 'same-origin', cache: 'no-store' })
      .then(function (response) { if (!response.ok) throw new Error(String(response.status)); return response.text(); })
      .then(function (text) {
        var status = document.getElementById('live');
        status.textContent = 'live';
        status.className = 'status live';
        if (text !== last) {
          last = text;
          model = JSON.parse(text);
          renderDecisions(model.decisions);
          renderSessions();
        }
      })
      .catch(function () {
        var status = document.getElementById('live');
        status.textContent = 'offline (retrying)';
        status.className = 'status offline';
      })
      .then(function () { if (again) setTimeout(function () { poll(true); }, 1000); });
  }

  document.querySelectorAll('select[data-filter]').forEach(function (select) {
    select.addEventListener('change', function () { filters[select.getAttribute('data-filter')] = select.value; renderSessions(); });
  });
  poll(true);
})();
`;
