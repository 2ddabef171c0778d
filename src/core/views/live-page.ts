import { PHASE_COLOURS } from './report/html';
import { PHASES } from '../phase-names';

// The page of `agent-session serve`: a skeleton, its style sheet and its script, each served from the server's own
// origin (the Content-Security-Policy allows scripts and styles from 'self' only: no inline code at all). None of the
// three holds data or a secret: the script takes the launch's token from the URL's fragment into this origin's
// storage (src/cli/serve/guard.ts says why), asks /api/state every second (a 304 when nothing changed), and builds
// every element with text nodes (never innerHTML), so a session's text cannot become markup. Every text it shows was
// escaped by the server (core/views/live.ts: what is shown is what is granted). Usable at 390 px without sideways
// scrolling, by keyboard (real buttons and links, a modal dialog that takes and gives back the focus) and by a screen
// reader (landmarks, headings, labels, live regions).

/** The Content-Security-Policy of every answer of the server. */
export const LIVE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page's skeleton: the same for every launch and every visitor (the data comes with the token). */
export function livePage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agent-session</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header><h1 id="title">agent-session</h1><p id="live" class="status" role="status">connecting…</p></header>
<p id="flash" role="status" aria-live="polite"></p>
<main id="main">
<section id="locked" hidden aria-labelledby="locked-title">
<h2 id="locked-title">This page needs its key</h2>
<p>Open the address <code>agent-session serve</code> printed in its terminal, once, in this browser: it starts with
<code id="locked-address">http://127.0.0.1:PORT/#token=</code>. The key stays with this address in this browser only
(no other server, not even another port of this machine, receives it); links to this page, such as a notification's,
then open here.</p>
<p>A key from an earlier run of <code>serve</code> no longer works: open the address the running one printed.</p>
</section>
<div id="list-view">
<section id="decisions" aria-labelledby="decisions-title">
<h2 id="decisions-title" tabindex="-1">Decisions <span class="count" id="decision-count"></span></h2>
<p id="recorded-as" class="muted"></p>
<p class="empty" id="no-decisions" hidden>Nothing waits for a decision.</p>
<ol id="decision-list" class="cards"></ol>
<p id="decisions-more" class="muted" hidden></p>
</section>
<section id="sessions" aria-labelledby="sessions-title">
<h2 id="sessions-title">Sessions <span class="count" id="session-count"></span></h2>
<div class="filters">
<label>Phase <select id="filter-phase" data-filter="phase"><option value="">all</option></select></label>
<label>Agent <select id="filter-agent" data-filter="agent"><option value="">all</option></select></label>
<label>Project <select id="filter-project" data-filter="project"><option value="">all</option></select></label>
<label>Host <select id="filter-host" data-filter="host"><option value="">all</option></select></label>
</div>
<p id="phase-counts"></p>
<table class="sessions"><thead><tr><th scope="col">Phase</th><th scope="col">Agent</th><th scope="col">Task</th><th scope="col">Project</th><th scope="col">Host</th><th scope="col">Active</th><th scope="col">Session</th></tr></thead>
<tbody></tbody></table>
</section>
</div>
<section id="detail-view" hidden aria-labelledby="detail-title">
<p><a href="#" id="back">← All sessions</a></p>
<h2 id="detail-title" tabindex="-1"></h2>
<div id="detail-body"></div>
</section>
</main>
<dialog id="confirm" aria-labelledby="confirm-title">
<h2 id="confirm-title"></h2>
<div id="confirm-body"></div>
<div class="actions"><button type="button" id="confirm-no">Cancel</button><button type="button" id="confirm-yes" class="approve">Approve</button></div>
</dialog>
</body>
</html>
`;
}

/** The page's style sheet. */
export const LIVE_CSS = `
:root { color-scheme: light; font: 15px/1.45 system-ui, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 0 12px 32px; color: #1d2430; }
header { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 16px; }
h1 { font-size: 20px; margin: 16px 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 17px; margin: 20px 0 8px; }
h3 { font-size: 15px; margin: 0 0 4px; overflow-wrap: anywhere; }
h4 { font-size: 13px; margin: 10px 0 4px; color: #4b5563; }
a { color: #1f5fbf; }
:focus-visible { outline: 3px solid #1f5fbf; outline-offset: 2px; }
.status { color: #6b7280; font-size: 13px; margin: 0; }
.status.live { color: #1b7f4b; }
.status.offline { color: #b42318; }
#flash { min-height: 1.4em; margin: 4px 0; overflow-wrap: anywhere; }
#flash.error { color: #b42318; }
.count { color: #6b7280; font-weight: normal; }
.muted { color: #5b6472; font-size: 13px; }
code { font: 13px/1.35 ui-monospace, monospace; overflow-wrap: anywhere; }
ol.cards { list-style: none; margin: 0; padding: 0; display: grid; gap: 12px; }
.card { border: 1px solid #d9dee5; border-radius: 8px; padding: 10px 12px; min-width: 0; background: #fff; }
.card.marked { border: 2px solid #b42318; }
.kind { display: inline-block; font-size: 12px; font-weight: normal; padding: 0 8px; border-radius: 8px;
  background: #fde9c4; margin-left: 4px; }
.kind.interrupted { background: #f8d4d4; } .kind.permission { background: #f3d9fa; } .kind.waiting { background: #e3e8f0; }
.warning { color: #b42318; font-weight: 600; margin: 6px 0; overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 6px 0; }
dl.facts dt { color: #5b6472; font-size: 13px; }
dl.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; white-space: pre-wrap; }
pre { margin: 0; max-height: 16em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere;
  font: 13px/1.35 ui-monospace, monospace; background: #f4f6f8; padding: 6px 8px; border-radius: 4px; }
.detail pre { max-height: none; }
.decide { display: flex; flex-wrap: wrap; gap: 8px; align-items: end; margin-top: 10px; }
.decide label { display: flex; flex-direction: column; flex: 1 1 180px; min-width: 0; font-size: 13px; color: #5b6472; }
.decide input { padding: 6px 8px; font: inherit; min-width: 0; }
button { padding: 6px 12px; cursor: pointer; font: inherit; border-radius: 6px; border: 1px solid #9aa5b1; background: #fff; }
button.approve { background: #1b7f4b; color: #fff; border-color: #14643b; }
button.reject { color: #b42318; border-color: #b42318; }
button.copy, button.more { font-size: 12px; padding: 2px 8px; }
details.commands { margin-top: 8px; }
details.commands code { display: block; margin-top: 4px; }
.filters { display: flex; flex-wrap: wrap; gap: 8px 12px; margin-bottom: 8px; }
.filters select { max-width: 12em; font: inherit; }
table.sessions { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.sessions th, table.sessions td { text-align: left; vertical-align: top; padding: 6px 8px;
  border-bottom: 1px solid #e5e7eb; overflow-wrap: anywhere; }
table.sessions th { font-size: 12px; color: #5b6472; font-weight: 600; }
table.sessions th:nth-child(1) { width: 12%; } table.sessions th:nth-child(2) { width: 16%; }
table.sessions th:nth-child(4) { width: 21%; } table.sessions th:nth-child(5) { width: 11%; }
table.sessions th:nth-child(6) { width: 9%; } table.sessions th:nth-child(7) { width: 10%; }
.phase { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
${PHASES.map((phase) => `.phase.${phase} { background: ${PHASE_COLOURS[phase]}; }`).join('\n')}
ol.timeline { list-style: none; padding: 0; margin: 0; }
ol.timeline li { padding: 3px 0; border-bottom: 1px solid #eef0f3; overflow-wrap: anywhere; }
ol.timeline li.nested { padding-left: 16px; }
ol.timeline .when { color: #5b6472; font-size: 13px; }
ol.timeline .what { font-weight: 600; } ol.timeline .tone-good { color: #1b7f4b; }
ol.timeline .tone-bad { color: #b42318; } ol.timeline .tone-warn { color: #9a5b00; }
ol.timeline .tone-plain { font-weight: normal; }
.detail > h3 { margin-top: 16px; }
ul.plain { padding-left: 18px; margin: 4px 0; } ul.plain li { overflow-wrap: anywhere; }
dialog { border: 1px solid #9aa5b1; border-radius: 8px; padding: 16px; width: min(40rem, calc(100vw - 24px));
  max-height: calc(100vh - 24px); overflow: auto; }
dialog::backdrop { background: rgba(17, 24, 39, 0.45); }
dialog .actions { display: flex; flex-wrap: wrap; gap: 8px; justify-content: flex-end; margin-top: 12px; }
@media (max-width: 640px) {
  body { padding: 0 8px 24px; }
  table.sessions, table.sessions tbody, table.sessions tr, table.sessions td { display: block; width: 100%; }
  table.sessions thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.sessions tr { border: 1px solid #d9dee5; border-radius: 8px; margin-bottom: 8px; padding: 4px 8px; }
  table.sessions td { border: 0; padding: 2px 0; }
  table.sessions td::before { content: attr(data-label) ": "; color: #5b6472; font-size: 12px; }
}
`;

/** The page's script (plain ES2019, no library). */
export const LIVE_SCRIPT = `'use strict';
(function () {
  var KEY = 'agent-session-token';
  var ORDER = ${JSON.stringify(PHASES)};
  var token = null;
  var etag = null;
  var offset = 0;
  var model = null;
  var cards = new Map();
  var filters = { phase: '', agent: '', project: '', host: '' };
  var route = null;
  var detailFor = null;
  var confirming = null;
  var opener = null;
  var polling = false;

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
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function stored(value) {
    try {
      if (value === undefined) return localStorage.getItem(KEY);
      if (value === null) localStorage.removeItem(KEY); else localStorage.setItem(KEY, value);
    } catch (e) { /* storage off: the token lives in this page only */ }
    return value;
  }

  /** The token from the fragment (kept in this origin's storage, and out of the address bar), else the stored one. */
  function takeToken() {
    var params = new URLSearchParams(location.hash.slice(1));
    var given = params.get('token');
    if (given) {
      token = given;
      stored(given);
      params.delete('token');
      var rest = params.toString();
      history.replaceState(null, '', location.pathname + location.search + (rest ? '#' + rest : ''));
    } else if (token === null) {
      token = stored();
    }
  }

  function duration(seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    var units = [[86400, 'd'], [3600, 'h'], [60, 'm'], [1, 's']];
    var parts = [];
    for (var i = 0; i < units.length && parts.length < 2; i++) {
      var n = Math.floor(seconds / units[i][0]);
      if (n > 0 || parts.length > 0) { parts.push(n + units[i][1]); seconds -= n * units[i][0]; }
    }
    return parts.length === 0 ? '0s' : parts.join(' ');
  }
  function now() { return Date.now() + offset; }
  function since(iso) { return duration((now() - Date.parse(iso)) / 1000); }
  function utc(iso) { return iso === null ? '(dropped)' : iso.slice(0, 19).replace('T', ' ') + ' UTC'; }
  function shortId(id) { return id.slice(-8); }

  function flash(text, error) {
    var node = document.getElementById('flash');
    node.textContent = text;
    node.className = error ? 'error' : '';
  }

  function api(path, options) {
    options = options || {};
    var headers = Object.assign({ authorization: 'Bearer ' + token }, options.headers || {});
    return fetch(path, { method: options.method || 'GET', headers: headers, body: options.body, cache: 'no-store',
      credentials: 'omit' }).then(function (response) {
      if (response.status === 403) {
        return response.json().then(function (answer) {
          if (answer.error === 'E_TOKEN') { lock(); throw new Error('locked'); }
          return response;
        }, function () { return response; });
      }
      var clock = response.headers.get('x-agent-session-now');
      if (clock) offset = Date.parse(clock) - Date.now();
      return response;
    });
  }

  function lock() {
    token = null;
    stored(null);
    etag = null;
    document.getElementById('locked').hidden = false;
    document.getElementById('list-view').hidden = true;
    document.getElementById('detail-view').hidden = true;
    document.getElementById('locked-address').textContent = location.origin + '/#token=';
    var status = document.getElementById('live');
    status.textContent = 'locked';
    status.className = 'status offline';
  }

  function copyButton(text) {
    return el('button', { className: 'copy', type: 'button', 'aria-label': 'Copy: ' + text, text: 'copy', onclick: function () {
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(function () { flash('Copied: ' + text); },
        function () { flash('Copy refused by the browser; select the command instead', true); });
    } });
  }

  var KIND_WORDS = { approval: 'approval', permission: 'permission request', interrupted: 'interrupted', waiting: 'waiting' };
  var SOURCE_WORDS = { purpose: 'given when it was created', agent: 'recorded by the agent', delegation: 'as delegated' };

  function hiddenWarning(row) {
    if (!row.hidden || row.hidden.length === 0) return null;
    return el('p', { className: 'warning', role: 'note', text: 'Holds characters that hide or reorder text (' +
      row.hidden.join(', ') + '): each is shown as a \\\\u escape where it stands. What approving allows is exactly ' +
      'the text shown, escapes and all.' });
  }

  function unverifiedWarning(row) {
    if (!row.unverified) return null;
    return el('p', { className: 'warning', role: 'note', text: 'Not verified here: its last decision was recorded ' +
      'elsewhere, by a copy or by hand, not by this machine\\'s user. It counts for nothing: decide again.' });
  }

  function factList(pairs) {
    var dl = el('dl', { className: 'facts' });
    pairs.forEach(function (pair) {
      if (pair[1] === null || pair[1] === undefined || pair[1] === '') return;
      dl.appendChild(el('dt', { text: pair[0] }));
      dl.appendChild(el('dd', {}, [pair[1]]));
    });
    return dl;
  }

  function parkedText(parked) {
    if (!parked) return null;
    return [parked.by === null ? null : 'by ' + parked.by, parked.machine === null ? null : 'on ' + parked.machine,
      parked.folder === null ? null : 'in ' + parked.folder, 'at ' + utc(parked.at)].filter(Boolean).join(' ');
  }

  function rowFacts(row) {
    return [
      ['Task', row.task ? row.task.text + ' (' + SOURCE_WORDS[row.task.source] + ')' : 'not recorded'],
      ['Parked', parkedText(row.parked)],
      ['Folder', row.call ? (row.call.folder === null ? 'not recorded with this request' : row.call.folder) : null],
      ['Last message', row.last_message],
    ];
  }

  function allowsTitle(row) {
    return row.kind === 'permission' ? 'The call approving allows, once' : 'What approving allows (its plan)';
  }

  function decideBlock(row, headingId) {
    var decide = el('div', { className: 'decide' });
    if (row.kind !== 'approval' && row.kind !== 'permission') return decide;
    var note = el('input', { type: 'text', className: 'note', autocomplete: 'off' });
    var approve = el('button', { type: 'button', className: 'approve', 'aria-describedby': headingId,
      text: row.kind === 'permission' ? 'Grant once…' : 'Approve…' });
    approve.addEventListener('click', function () { openConfirm(row, note, approve); });
    decide.appendChild(approve);
    decide.appendChild(el('label', {}, ['Note (a reason, to reject)', note]));
    decide.appendChild(el('button', { type: 'button', className: 'reject', 'aria-describedby': headingId, text: 'Reject',
      onclick: function () { send('reject', row, note.value); } }));
    return decide;
  }

  function decisionCard(row) {
    var headingId = 'd-' + row.id;
    var allows = row.allows === null
      ? el('p', { className: 'muted', text: row.waits_on === null ? 'nothing recorded' : row.waits_on.source + ': ' + row.waits_on.text })
      : el('pre', { className: 'allows', tabindex: '0', 'aria-label': allowsTitle(row), text: row.allows });
    var more = null;
    if (row.allows_cut) {
      more = el('button', { type: 'button', className: 'more', text: 'Show all of it' });
      more.addEventListener('click', function () {
        whole(row.id).then(function (detail) {
          if (detail.decision && detail.decision.allows !== null) allows.textContent = detail.decision.allows;
          more.remove();
        });
      });
    }
    var commands = el('details', { className: 'commands' }, [el('summary', { text: 'From a terminal' })].concat(
      row.commands.map(function (command) { return el('code', { className: 'command' }, [command + ' ', copyButton(command)]); })));
    var article = el('article', { 'aria-labelledby': headingId }, [
      el('h3', { id: headingId }, [el('span', { className: 'agent', text: row.agent }),
        el('span', { className: 'kind ' + row.kind, text: row.kind === 'interrupted' ? row.phase + ', interrupted' : row.kind === 'waiting' ? row.phase : KIND_WORDS[row.kind] })]),
      el('p', { className: 'muted' }, [el('a', { href: '#session=' + row.id, text: shortId(row.id) }),
        ' · ' + (row.project === null ? 'no project' : row.project) + ' · ' + row.host + ' · waits ',
        el('span', { className: 'waited', 'data-since': row.waiting_since, text: since(row.waiting_since) })]),
      hiddenWarning(row),
      unverifiedWarning(row),
      factList(rowFacts(row)),
      row.allows === null ? null : el('h4', { text: allowsTitle(row) }),
      allows, more,
      decideBlock(row, headingId),
      commands,
    ]);
    return el('li', { className: 'card' + (row.hidden.length > 0 ? ' marked' : ''), 'data-session': row.id,
      'data-kind': row.kind, 'data-hidden': row.hidden.length > 0 ? 'true' : 'false' }, [article]);
  }

  function renderDecisions() {
    var list = document.getElementById('decision-list');
    var seen = new Set();
    model.decisions.forEach(function (row, index) {
      seen.add(row.id);
      var kept = cards.get(row.id);
      var sig = JSON.stringify(row);
      if (!kept || kept.sig !== sig) {
        var node = decisionCard(row);
        var oldNote = kept && kept.node.querySelector('input.note');
        var newNote = node.querySelector('input.note');
        if (oldNote && newNote) newNote.value = oldNote.value;
        if (kept) list.replaceChild(node, kept.node);
        kept = { node: node, sig: sig, row: row };
        cards.set(row.id, kept);
      }
      if (list.children[index] !== kept.node) list.insertBefore(kept.node, list.children[index] || null);
    });
    cards.forEach(function (kept, id) { if (!seen.has(id)) { kept.node.remove(); cards.delete(id); } });
    document.getElementById('decision-count').textContent = String(model.decisions_total);
    document.getElementById('no-decisions').hidden = model.decisions_total > 0;
    document.getElementById('recorded-as').textContent = model.decisions_total > 0 ? 'Decisions here are recorded as made by ' + model.recorded_as + '.' : '';
    var more = document.getElementById('decisions-more');
    var left = model.decisions_total - model.decisions.length;
    more.hidden = left <= 0;
    if (left > 0) {
      var kinds = Object.keys(model.decisions_by_kind).filter(function (k) { return model.decisions_by_kind[k] > 0; })
        .map(function (k) { return KIND_WORDS[k] + ' ' + model.decisions_by_kind[k]; }).join(' · ');
      more.textContent = 'Showing the first ' + model.decisions.length + ' of ' + model.decisions_total + ' (' + kinds +
        '); ' + left + ' more: agent-session pending lists every one.';
    }
    if (confirming) {
      var now = cards.get(confirming.row.id);
      if (!now || now.row.subject !== confirming.row.subject) {
        closeConfirm();
        flash('That request changed while you looked at it: look again before deciding', true);
      }
    }
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

  function cell(label, children, props) {
    return el('td', Object.assign({ 'data-label': label }, props || {}), children);
  }

  function renderSessions() {
    fillFilter('phase', ORDER.filter(function (p) { return model.by_phase[p] > 0; }));
    fillFilter('agent', uniq(model.sessions, 'agent'));
    fillFilter('project', uniq(model.sessions, 'project'));
    fillFilter('host', uniq(model.sessions, 'host'));
    var shown = model.sessions.filter(function (row) {
      return ['phase', 'agent', 'project', 'host'].every(function (key) {
        var v = row[key] === null ? '(none)' : row[key];
        return filters[key] === '' || filters[key] === v;
      });
    }).sort(function (a, b) { return ORDER.indexOf(a.phase) - ORDER.indexOf(b.phase); });
    var fresh = document.createDocumentFragment();
    shown.forEach(function (row) {
      fresh.appendChild(el('tr', { 'data-session': row.id, 'data-phase': row.phase }, [
        cell('Phase', [el('span', { className: 'phase ' + row.phase, 'aria-hidden': 'true' }), row.phase]),
        cell('Agent', [el('a', { href: '#session=' + row.id, className: 'agent', text: row.agent })]),
        cell('Task', [row.task ? row.task.text : row.purpose]),
        cell('Project', [row.project === null ? '(none)' : row.project]),
        cell('Host', [row.host]),
        cell('Active', [el('span', { className: 'ago', 'data-since': row.last_updated, text: since(row.last_updated) }), ' ago']),
        cell('Session', [shortId(row.id)], { title: row.id }),
      ]));
    });
    document.querySelector('#sessions tbody').replaceChildren(fresh);
    document.getElementById('session-count').textContent = shown.length + ' of ' + model.total +
      (model.sessions_left_out > 0 ? ' (the ' + model.sessions_left_out + ' least recently active not listed)' : '');
    document.getElementById('phase-counts').textContent = ORDER.filter(function (p) { return model.by_phase[p] > 0; })
      .map(function (p) { return p + ' ' + model.by_phase[p]; }).join(' · ') +
      (model.corrupt > 0 ? ' · ' + model.corrupt + ' corrupt left out' : '');
  }

  function tick() {
    document.querySelectorAll('[data-since]').forEach(function (node) {
      node.textContent = since(node.getAttribute('data-since'));
    });
  }

  function render() {
    var title = model.project === null ? 'agent-session: every project' : 'agent-session: ' + model.project;
    document.title = title;
    document.getElementById('title').textContent = title;
    renderDecisions();
    renderSessions();
  }

  function whole(id) {
    return api('/api/session/' + encodeURIComponent(id)).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) throw new Error(answer.message || String(response.status));
        return answer;
      });
    });
  }

  // --- the confirmation: the exact call and folder (or the plan), who it is recorded as, before anything is sent ---

  function openConfirm(row, note, button) {
    var dialog = document.getElementById('confirm');
    opener = button;
    var ready = row.allows_cut ? whole(row.id).then(function (detail) { return detail.decision || row; }) : Promise.resolve(row);
    ready.then(function (full) {
      confirming = { row: row, note: note };
      var permission = row.kind === 'permission';
      document.getElementById('confirm-title').textContent = permission ? 'Grant this call once?' : 'Approve this plan?';
      document.getElementById('confirm-yes').textContent = permission ? 'Grant once' : 'Approve';
      var body = [
        el('p', { text: (permission ? 'The agent ' : 'The session of ') + row.agent + ' (' + shortId(row.id) + ') ' +
          (permission ? 'may run this call once, exactly as shown:' : 'moves to executing; its next delegation carries on with:') }),
        hiddenWarning(row),
      unverifiedWarning(row),
        el('pre', { className: 'allows', tabindex: '0', 'aria-label': allowsTitle(row), text: full.allows === null ? 'nothing recorded' : full.allows }),
        factList([
          ['Folder', permission ? (row.call.folder === null ? 'not recorded with this request: the call runs where the resumed agent works' : row.call.folder) : null],
          ['Task', row.task ? row.task.text : null],
          ['Recorded as', model.recorded_as],
          ['Note', note.value.trim() === '' ? null : note.value],
        ]),
      ];
      document.getElementById('confirm-body').replaceChildren.apply(document.getElementById('confirm-body'),
        body.filter(function (node) { return node !== null; }));
      dialog.showModal();
      document.getElementById('confirm-no').focus();
    }, function (error) { flash('Could not load the whole request: ' + error.message, true); });
  }

  function closeConfirm() {
    var dialog = document.getElementById('confirm');
    confirming = null;
    if (dialog.open) dialog.close();
  }

  document.getElementById('confirm-no').addEventListener('click', closeConfirm);
  document.getElementById('confirm-yes').addEventListener('click', function () {
    var chosen = confirming;
    closeConfirm();
    if (chosen) send('approve', chosen.row, chosen.note.value);
  });
  document.getElementById('confirm').addEventListener('close', function () {
    confirming = null;
    if (opener && document.body.contains(opener)) opener.focus();
    else document.getElementById('decisions-title').focus();
    opener = null;
  });

  function send(verb, row, note) {
    var body = { id: row.id, subject: row.subject };
    if (verb === 'approve' && note.trim() !== '') body.note = note;
    if (verb === 'reject') {
      if (note.trim() === '') { flash('A rejection needs a reason: write it in the note', true); return; }
      body.reason = note;
    }
    api('/api/' + verb, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(function (response) { return response.json().then(function (answer) { return { ok: response.ok, answer: answer }; }); })
      .then(function (result) {
        if (result.ok) flash((verb === 'approve' ? 'Approved ' : 'Rejected ') + result.answer.id + ': now ' + result.answer.phase);
        else flash('Not ' + verb + 'd: ' + result.answer.message, true);
        poll(false);
      }, function (error) { if (error.message !== 'locked') flash('The server did not answer', true); });
  }

  // --- the detail view of one session (#session=ID): its facts, its decision whole, its timeline, as show says ---

  function renderDetail(detail) {
    var s = detail.session;
    var title = document.getElementById('detail-title');
    title.textContent = s.agent + ' · ' + s.phase;
    var parts = [
      factList([
        ['Session', s.id],
        ['Task', detail.task ? detail.task.text + ' (' + SOURCE_WORDS[detail.task.source] + ')' : 'not recorded'],
        ['Purpose', s.purpose],
        ['Project', s.project === null ? '(none: unassigned)' : s.project],
        ['Host', s.host],
        ['Phase', s.phase],
        ['Parked', parkedText(detail.parked)],
        ['Resume now', (detail.resume.should_resume ? 'yes' : 'no') + ' (' + detail.resume.reason + ')'],
        ['Created', utc(s.created_at)],
        ['Last activity', utc(s.last_updated)],
        ['Errors', detail.errors.count + ' of ' + detail.errors.max + (detail.errors.last === null ? '' : ': ' + detail.errors.last)],
        ['Summary', detail.summary],
      ]),
      el('ul', { className: 'plain', 'aria-label': 'The resume rules' }, detail.resume.checks.map(function (c) { return el('li', { text: c }); })),
    ];
    var row = detail.decision;
    if (row) {
      var headingId = 'detail-decision';
      parts.push(el('section', { className: 'card' + (row.hidden.length > 0 ? ' marked' : ''), 'aria-labelledby': headingId,
        'data-kind': row.kind }, [
        el('h3', { id: headingId, text: row.kind === 'permission' ? 'Waits for your permission' : row.kind === 'approval' ? 'Waits for your approval' : row.kind === 'interrupted' ? 'Interrupted: waits for its next delegation' : 'Waits for its next delegation' }),
        el('p', { className: 'muted' }, ['since ' + utc(row.waiting_since) + ' (', el('span', { 'data-since': row.waiting_since, text: since(row.waiting_since) }), ')']),
        hiddenWarning(row),
      unverifiedWarning(row),
        row.allows === null ? null : el('h4', { text: allowsTitle(row) }),
        row.allows === null ? null : el('pre', { className: 'allows', tabindex: '0', 'aria-label': allowsTitle(row), text: row.allows }),
        factList([['Folder', row.call ? (row.call.folder === null ? 'not recorded with this request' : row.call.folder) : null]]),
        decideBlock(Object.assign({}, row, { allows_cut: false }), headingId),
      ]));
    }
    if (detail.last_message !== null) parts.push(el('h3', { text: 'Last message' }), el('pre', { tabindex: '0', text: detail.last_message }));
    if (detail.metadata !== null) parts.push(el('h3', { text: 'Metadata' }), el('pre', { tabindex: '0', text: detail.metadata }));
    parts.push(el('h3', { text: 'Timeline' + (detail.timeline_dropped > 0 ? ' (' + detail.timeline_dropped + ' older entries dropped by the history cap)' : '') }));
    parts.push(el('ol', { className: 'timeline' }, detail.timeline.map(function (line) {
      return el('li', { className: line.nested ? 'nested' : '' }, [el('span', { className: 'when', text: utc(line.at) }), ' ',
        el('span', { className: 'what tone-' + line.tone, text: line.what }), line.detail === '' ? '' : ' ' + line.detail]);
    })));
    if (detail.decisions.length > 0) {
      parts.push(el('h3', { text: 'Decisions' }));
      parts.push(el('ul', { className: 'plain' }, detail.decisions.map(function (d) {
        return el('li', { text: utc(d.at) + ' ' + d.decision + ' by ' + d.by + ', to ' + d.to_phase + (d.note === null ? '' : ': ' + d.note) });
      })));
    }
    if (detail.requests.length > 0) {
      parts.push(el('h3', { text: 'Permission requests' }));
      parts.push(el('ul', { className: 'plain' }, detail.requests.map(function (r) {
        return el('li', {}, [utc(r.at) + ' ' + r.tool + ', ' + r.status + ', asked by agent ' + r.by_agent +
          (r.folder === null ? '' : ', in ' + r.folder) + (r.reason === null ? '' : '; reason: ' + r.reason) +
          (r.spent_by === null ? '' : '; spent by ' + r.spent_by), el('pre', { tabindex: '0', text: r.input })]);
      })));
    }
    var body = document.getElementById('detail-body');
    body.className = 'detail';
    body.replaceChildren.apply(body, parts.filter(function (node) { return node !== null; }));
  }

  function loadDetail(id, focus) {
    whole(id).then(function (detail) {
      if (route !== id) return;
      detailFor = id;
      renderDetail(detail);
      tick();
      if (focus) document.getElementById('detail-title').focus();
    }, function (error) {
      if (error.message === 'locked' || route !== id) return;
      document.getElementById('detail-title').textContent = 'No such session here';
      document.getElementById('detail-body').replaceChildren(el('p', { text: error.message }));
      if (focus) document.getElementById('detail-title').focus();
    });
  }

  function onRoute() {
    takeToken();
    if (token === null) { lock(); return; }
    document.getElementById('locked').hidden = true;
    var params = new URLSearchParams(location.hash.slice(1));
    var id = params.get('session');
    var was = route;
    route = id;
    document.getElementById('list-view').hidden = id !== null;
    document.getElementById('detail-view').hidden = id === null;
    if (id !== null) {
      document.getElementById('detail-title').textContent = 'Session ' + shortId(id);
      document.getElementById('detail-body').replaceChildren(el('p', { className: 'muted', text: 'loading…' }));
      loadDetail(id, true);
    } else if (was !== null) {
      var back = document.querySelector('#sessions a[href="#session=' + was + '"], #decisions a[href="#session=' + was + '"]');
      (back || document.getElementById('decisions-title')).focus();
    }
    if (!polling) { polling = true; poll(true); }
  }

  function poll(again) {
    if (token === null) { polling = false; return; }
    api('/api/state', { headers: etag === null ? {} : { 'if-none-match': etag } })
      .then(function (response) {
        var status = document.getElementById('live');
        if (status.textContent !== 'live') { status.textContent = 'live'; status.className = 'status live'; }
        if (response.status === 304) return;
        if (!response.ok) throw new Error(String(response.status));
        etag = response.headers.get('etag');
        return response.json().then(function (fresh) {
          model = fresh;
          render();
          if (route !== null) loadDetail(route, false);
        });
      })
      .then(tick)
      .catch(function (error) {
        if (error.message === 'locked') return;
        var status = document.getElementById('live');
        status.textContent = 'offline (retrying)';
        status.className = 'status offline';
      })
      .then(function () {
        if (token === null) { polling = false; return; }
        if (again) setTimeout(function () { poll(true); }, 1000);
      });
  }

  document.querySelectorAll('select[data-filter]').forEach(function (select) {
    select.addEventListener('change', function () {
      filters[select.getAttribute('data-filter')] = select.value;
      if (model !== null) renderSessions();
    });
  });
  window.addEventListener('hashchange', onRoute);
  setInterval(tick, 1000);
  onRoute();
})();
`;
