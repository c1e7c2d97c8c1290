// The player's play chips (C9, docs/protocol.md "Play chips"): the balance in the page
// header, and the profile's "Play chips" section (the balance, the daily reload, the
// ledger as a plot and a list, the cash sessions' results).
//
// The page carries no ledger rules: whether a reload is possible, its amount, the floor and
// the time of the next one all come from GET /api/me/balance; the page only words them.
import {h, fill} from './dom.js';
import {t, num, getLang, onLangChange} from './i18n.js';
import * as api from './api.js';
import {lineChart} from './chart.js';

/** The last GET /api/me/balance answer for the signed-in player (null: nobody, or not yet). */
let state = null;
let asked = 0;  // the newest read: an older answer arriving late never overwrites a newer one
const listeners = new Set();

/** Call fn(state) now and on every change of the balance; returns the unsubscribe. */
export function onBalance(fn) { listeners.add(fn); fn(state); return () => listeners.delete(fn); }
export function currentBalance() { return state; }

function publish(next) {
  state = next;
  for (const fn of listeners) fn(state);
}

/** Read the balance again (the lobby is shown, a reload happened, someone signed in). */
export async function refreshBalance() {
  const mine = ++asked;
  if (!api.currentUser()) { publish(null); return null; }  // nobody signed in: nothing to ask (a 401 is noise)
  try {
    const data = await api.get('/api/me/balance');
    if (mine === asked) publish(data);
    return data;
  } catch (e) {
    if (mine === asked && e.status === 401) publish(null);
    return null;
  }
}

// -- the reload ------------------------------------------------------------
/** The transfer id of the reload not yet answered for certain: a network error keeps it, so
 * the next try (automatic, or the player's next click) is the same reload and the server
 * answers it at most once (docs/protocol.md: the same `transfer` again moves nothing). */
let unsent = null;
let inFlight = null;
const RETRY_MS = [400, 1200, 3000];  // backoff between automatic retries after a network error

let whose = null;
api.onUser(user => {
  const id = user ? user.id ?? user.name : null;
  if (id !== whose) { whose = id; unsent = null; publish(null); }  // another player's chips are never shown meanwhile
  refreshBalance();
});

function transferId() {
  if (globalThis.crypto && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // crypto.randomUUID needs a secure context (https or localhost); getRandomValues does not
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map(b => b.toString(16).padStart(2, '0')).join('');
}

/** POST /api/me/reload once, however often it is asked for while it is on its way (a double
 * click), retrying the same transfer id on a network error.  Resolves to the server's answer;
 * rejects with the ApiError that ended it.  The balance is read again either way. */
export function reload() {
  if (inFlight) return inFlight;
  if (!unsent) unsent = transferId();
  const transfer = unsent;
  inFlight = (async () => {
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const answer = await api.post('/api/me/reload', {transfer});
          unsent = null;
          return answer;
        } catch (e) {
          if (e.code !== 'network') { unsent = null; throw e; }  // a definite answer: the next click is a new reload
          if (attempt >= RETRY_MS.length) throw e;               // still unanswered: the next click retries this id
          await new Promise(done => setTimeout(done, RETRY_MS[attempt]));
        }
      }
    } finally {
      inFlight = null;
      await refreshBalance();
    }
  })();
  return inFlight;
}

/** Why no reload now, in words the server's answer gives: the time of the next one when the
 * daily limit is what waits (`next_reload_at` is later than now), else the floor. */
function waitsForTomorrow(s) { return !!s && !s.can_reload && s.next_reload_at * 1000 > Date.now() + 5000; }

/** A refused or failed reload in the page's words (docs/protocol.md error codes); a
 * `reload_refused` says why from the balance read again after it. */
export function reloadError(err) {
  if (err.code === 'reload_refused' && state && !state.can_reload) {
    return waitsForTomorrow(state) ? t('chips.err.refusedToday') : t('chips.err.refusedFloor', {floor: state.reload_floor});
  }
  const key = {reload_refused: 'chips.err.refused', insufficient: 'chips.err.insufficient',
    transfer_mismatch: 'chips.err.mismatch', network: 'err.network', unauthorized: 'chips.err.unauthorized',
    rate_limited: 'err.rate_limited', bad_message: 'chips.err.bad'}[err.code];
  return key ? t(key) : t('err.generic', {message: err.message});
}

// -- the header --------------------------------------------------------------
const badge = h('a.balance#balance', {href: '#/profile', hidden: true});

function drawBadge() {
  if (!state || !api.currentUser()) { badge.hidden = true; return; }
  badge.hidden = false;
  badge.dataset.balance = String(state.balance);
  const label = t('chips.headerLabel', {n: state.balance});
  badge.setAttribute('aria-label', label);
  badge.title = label;
  fill(badge, h('span.chip-mark', {'aria-hidden': 'true'}), h('span.num', num(state.balance)));
}
onBalance(drawBadge);
onLangChange(drawBadge);

/** The header's balance: one element, moved into the header whenever it is drawn again. */
export function balanceBadge() { drawBadge(); return badge; }

// -- the profile's section -----------------------------------------------------
const PAGE = 50;  // ledger rows a page (GET /api/me/ledger?limit=)

/** The profile's "Play chips" section for the signed-in player: it reads what it shows
 * itself and keeps drawing only while it is on the page. */
export function chipsSection() {
  const el = h('section.panel.chips#chips', {'aria-labelledby': 'chips-title'});
  const view = {rows: [], next: null, sessions: null, message: '', failed: false};
  const draw = () => { if (el.isConnected || !el.dataset.drawn) drawSection(el, view, actions); };
  const loadRows = async () => {
    try {
      const query = `/api/me/ledger?limit=${PAGE}` + (view.next ? `&before=${view.next}` : '');
      const data = await api.get(query);
      view.rows = [...view.rows, ...(data.rows || [])];
      view.next = data.next;
    } catch { view.failed = true; }
  };
  const actions = {
    reload: async button => {
      button.disabled = true;
      view.message = '';
      try {
        const answer = await reload();
        view.message = t('chips.reloaded', {amount: answer.row ? Math.abs(answer.row.amount) : 0});
        view.ok = true;
      } catch (e) {
        view.message = reloadError(e);
        view.ok = false;
      }
      view.rows = []; view.next = null;
      await loadRows();
      draw();
    },
    more: async () => { await loadRows(); draw(); },
  };
  const stop = onBalance(() => { if (el.isConnected || !el.dataset.drawn) draw(); else stop(); });
  fill(el, h('h2#chips-title', t('chips.title')), h('p.loading', t('app.loading')));
  (async () => {
    const [sessions] = await Promise.all([
      api.get('/api/me/sessions').then(d => d.sessions || []).catch(() => []),
      loadRows(), refreshBalance()]);
    view.sessions = sessions;
    draw();
  })();
  return el;
}

function drawSection(el, view, actions) {
  if (view.sessions == null) return;  // still reading
  el.dataset.drawn = '1';
  const when = new Intl.DateTimeFormat(getLang(), {dateStyle: 'medium', timeStyle: 'short'});
  const at = seconds => h('time', {datetime: new Date(seconds * 1000).toISOString()}, when.format(new Date(seconds * 1000)));
  fill(el, h('h2#chips-title', t('chips.title')),
    balanceLine(state, at, actions),
    view.message ? h('p.chips-message' + (view.ok ? '.ok' : '.error-text'), {role: view.ok ? 'status' : 'alert'}, view.message) : null,
    h('h3', t('chips.history')), plot(view.rows), rowList(view, at, actions),
    h('h3', t('chips.sessions')), sessionList(view.sessions, at));
}

function balanceLine(s, at, actions) {
  if (!s) return h('p.muted', t('chips.none'));
  const button = s.can_reload
    ? h('button.btn.primary.reload', {type: 'button', onclick: e => actions.reload(e.currentTarget)},
      t('chips.reload', {amount: s.reload_amount}))
    : null;
  const note = s.can_reload ? null
    : waitsForTomorrow(s) ? h('p.muted.next-reload', t('chips.nextReload'), ' ', at(s.next_reload_at))
      : h('p.muted.next-reload', t('chips.belowFloor', {floor: s.reload_floor}));
  return [h('div.chips-head',
    h('p.chips-balance', h('span.chip-mark', {'aria-hidden': 'true'}),
      h('b.num', {dataset: {balance: String(s.balance)}}, num(s.balance)), ' ', h('span.muted', t('chips.unit', {n: s.balance}))),
    button), note,
  h('p.muted.chips-help', t('chips.help', {floor: s.reload_floor, amount: s.reload_amount}))];
}

/** The balance after each row, oldest first, from the balance before the oldest row shown. */
function plot(rows) {
  if (!rows.length) return h('p.muted', t('chips.noRows'));
  const old = [...rows].reverse();
  const points = [[0, old[0].balance - old[0].amount], ...old.map((r, i) => [i + 1, r.balance])];
  return h('div.chips-plot', lineChart([{name: t('chips.title'), points}], {label: t('chips.plotLabel'), yZero: true, xLabel: () => '',
    pointTitle: (p, i) => (i ? kindWord(old[i - 1].kind) + ' ' + signed(old[i - 1].amount) + ' → ' : '') + num(p[1])}));
}

function kindWord(kind) {
  const key = 'chips.kind.' + kind;
  const word = t(key);
  return word === key ? kind : word;
}

function signed(amount) { return (amount >= 0 ? '+' : '−') + num(Math.abs(amount)); }

/** A link to a table, named by the label the server gives it for people (#31 item 9) where it has one. */
function tableLink(id, label) {
  return id ? h('a.table-link', {href: '#/table/' + encodeURIComponent(id)}, t('chips.table', {table: label || id})) : null;
}

function rowList(view, at, actions) {
  if (!view.rows.length) return view.failed ? h('p.error-text', t('err.network')) : null;
  return [h('ul.chips-rows', ...view.rows.map(r => h('li', {dataset: {kind: r.kind, row: String(r.id)}},
    h('span.kind', kindWord(r.kind)),
    h('span.num.amount.' + (r.amount >= 0 ? 'up' : 'down'), signed(r.amount)),
    h('span.num.after', t('chips.after', {balance: r.balance})),
    tableLink(r.table),
    h('span.when.muted', at(r.at))))),
  view.next ? h('button.btn.small.more', {type: 'button', onclick: () => actions.more()}, t('chips.more')) : null];
}

function sessionList(sessions, at) {
  if (!sessions.length) return h('p.muted.no-sessions', t('chips.noSessions'));
  return h('ul.chips-sessions', ...sessions.map(s => h('li', {dataset: {table: s.table}},
    tableLink(s.table, s.label),
    h('span.when.muted', at(s.started_at), s.ended_at != null ? [' – ', at(s.ended_at)] : [' – ', t('chips.open')]),
    h('span.num', t('chips.in', {amount: s.bought_in + s.topped_up})),
    h('span.num', t('chips.out', {amount: s.cashed_out})),
    s.open ? null : h('b.num.net.' + (s.net >= 0 ? 'up' : 'down'), signed(s.net)))));
}
