// Your seat while you are away from it (issue #21-2). Leaving a table where you
// still play asks first (a dialog of the page, in the page's language); the
// lobby then follows each table where you still play over its own WebSocket
// (the same protocol as the table page, so it works on one process and on a
// cluster alike) and, when it is your turn there, says so in a banner with one
// tap back, in the tab title, and with the table's own alert (alerts.js).
// Following the table also keeps you online at it (R26): your turn runs its
// full clock, as it would at the table.
import {h, fill} from './dom.js';
import {t} from './i18n.js';
import {TableConnection} from './conn.js';
import {TurnAlerts} from './alerts.js';
import {confirmDialog} from './ui.js';
import {shownName} from './names.js';

const HURRY_SECONDS = 10;

/** Whether the table page `page` shows a game you are still in (not over, not out). */
export function liveSeat(page) {
  const s = page && page.state;
  if (!s || !s.view || s.view.finished || !s.you || s.you.seat == null) return false;
  const me = s.view.seats[s.you.seat];
  return !!(me && me.in_tournament);
}

const LEFT = 'fz-left-tables';

/** Tables you left while still playing there (this tab), for the lobby to follow. */
export function leftTables() {
  try { return JSON.parse(sessionStorage.getItem(LEFT) || '[]'); } catch { return []; }
}

function rememberLeft(id, keep) {
  const ids = leftTables().filter(x => x !== id);
  if (keep) ids.push(id);
  try { sessionStorage.setItem(LEFT, JSON.stringify(ids.slice(-8))); } catch { /* storage may be blocked */ }
}

// Connections handed between pages, so that you are never offline at your table while the
// page changes (offline at an expired turn is a forfeit at once, R26): leaving the table, one
// joins before the table page's own closes and waits for the lobby to adopt it; going back,
// the lobby's stays until the table page has its own snapshot.
const HANDOVER_MS = 10000; // a connection nobody takes over closes after this
const spares = new Map(); // table id -> {conn, messages, timer}

function openSpare(id) {
  return new Promise(resolve => {
    const spare = {messages: [], timer: setTimeout(() => { closeSpare(id); resolve(); }, HANDOVER_MS)};
    spare.conn = new TableConnection(id, {onMessage: msg => {
      if (msg.type === 'snapshot') spare.messages = [msg];
      else if (spare.messages.length < 64) spare.messages.push(msg);
      if (msg.type === 'snapshot' || msg.type === 'error') resolve();
    }});
    spares.set(id, spare);
  });
}

function closeSpare(id) {
  const spare = spares.get(id);
  if (!spare) return;
  spares.delete(id);
  clearTimeout(spare.timer);
  spare.conn.close();
}

/** Keep `conn` (to table `id`) open until the table page has joined that table itself. */
function lingerFor(conn, id) {
  const started = Date.now();
  const check = setInterval(() => {
    const page = window.__fzTable;
    if ((page && page.tableId === id && page.state.version != null) || Date.now() - started > HANDOVER_MS) {
      clearInterval(check);
      conn.close();
    }
  }, 200);
}

/** Leaving the table page `page`: asks first while you still play there (the page's own
 * dialog, in its language). Resolves true to leave, false to stay. */
export async function confirmLeave(page) {
  if (!liveSeat(page)) return true;
  const ok = await confirmDialog({title: t('leave.title'), text: t('leave.text'), yes: t('leave.yes'), no: t('leave.no')});
  if (ok) {
    rememberLeft(page.tableId, true);
    await openSpare(page.tableId); // joined before the table page lets go
  }
  return ok;
}

/** Follows your live seats for the lobby; `onChange()` when what to show changed. */
export class SeatWatch {
  constructor(onChange) {
    this.onChange = onChange;
    this.watched = new Map(); // table id -> {conn, view, clock, skew, players}
    this.done = new Set(); // tables whose game is over for you: not followed again
    this.alerts = new TurnAlerts(() => this.titleText());
    this.turnKeys = new Map();
    this.hurryKeys = new Map();
    this.titleShown = null;
    this.baseTitle = document.title;
    this.ticker = setInterval(() => this.tick(), 1000);
    window.__fzSeatWatch = this; // for the browser tests
  }

  /** Follow exactly the tables in `ids` (those the lobby lists as playing with you seated). */
  follow(ids) {
    for (const id of ids) {
      if (this.watched.has(id) || this.done.has(id)) continue;
      const entry = {id, view: null, clock: null, skew: 0, players: []};
      this.watched.set(id, entry);
      const spare = spares.get(id);
      if (spare) { // the connection opened on leaving the table: adopt it, with what it heard
        spares.delete(id);
        clearTimeout(spare.timer);
        entry.conn = spare.conn;
        entry.conn.onMessage = msg => this.onMessage(entry, msg);
        for (const msg of spare.messages) if (this.watched.get(id) === entry) this.onMessage(entry, msg);
      } else {
        entry.conn = new TableConnection(id, {onMessage: msg => this.onMessage(entry, msg)});
      }
    }
  }

  onMessage(entry, msg) {
    if (msg.type === 'error' && msg.code === 'not_found') { this.drop(entry); this.update(); return; }
    if (msg.type !== 'snapshot' && msg.type !== 'update') return;
    if (msg.table) entry.players = msg.table.players || entry.players;
    if ('view' in msg) entry.view = msg.view;
    if (msg.clock) {
      entry.clock = msg.clock;
      if (typeof msg.clock.now === 'number') entry.skew = msg.clock.now - Date.now() / 1000;
    }
    const v = entry.view;
    const me = v && v.viewer != null ? v.seats[v.viewer] : null;
    if (!v || v.finished || !me || !me.in_tournament) {
      // the game is over, or you are out of it, or you do not play here: nothing to follow
      if (v || msg.type === 'snapshot') this.drop(entry);
    }
    this.update();
  }

  /** Stop following a table (its game is over for you, or it is gone). */
  drop(entry) {
    entry.conn.close();
    this.watched.delete(entry.id);
    this.done.add(entry.id);
    rememberLeft(entry.id, false);
  }

  /** The tables where it is your turn now, with the seconds left. */
  turns() {
    const now = Date.now() / 1000;
    const out = [];
    for (const e of this.watched.values()) {
      const v = e.view;
      if (!v || v.finished || v.hand_over || v.viewer == null || v.to_act !== v.viewer) continue;
      const deadline = e.clock && e.clock.turn_deadline;
      const left = deadline ? Math.max(0, Math.ceil(deadline - (now + e.skew))) : null;
      out.push({id: e.id, names: this.others(e), left, key: `${v.hand_number}:${e.clock ? e.clock.turn_started : ''}`});
    }
    return out;
  }

  /** Live seats where it is not your turn. */
  waiting() {
    const turn = new Set(this.turns().map(x => x.id));
    return [...this.watched.values()].filter(e => e.view && !turn.has(e.id)).map(e => ({id: e.id, names: this.others(e)}));
  }

  others(entry) {
    const v = entry.view;
    const names = v ? v.seats.filter(s => s.seat !== v.viewer).map(s => shownName(s.player)) : [];
    return names.join(', ') || entry.id;
  }

  titleText() {
    const turn = this.turns()[0];
    return turn ? t('seatwatch.title', {names: turn.names}) : t('table.yourTurn');
  }

  update() {
    const turns = this.turns();
    if (turns.length) {
      const text = '▶ ' + this.titleText() + ' — Freezeout';
      if (this.titleShown == null) this.baseTitle = document.title;
      if (!this.alerts.flashTimer) document.title = text;
      this.titleShown = text;
    } else if (this.titleShown != null) {
      this.alerts.stopFlash();
      document.title = this.baseTitle;
      this.titleShown = null;
    }
    for (const turn of turns) {  // the table's own alert, once per turn and once more with 10 s left
      if (this.turnKeys.get(turn.id) !== turn.key) { this.turnKeys.set(turn.id, turn.key); this.alerts.turn(); this.alerted = (this.alerted || 0) + 1; }
      if (turn.left != null && turn.left <= HURRY_SECONDS && this.hurryKeys.get(turn.id) !== turn.key) {
        this.hurryKeys.set(turn.id, turn.key);
        this.alerts.hurry();
      }
    }
    this.onChange();
  }

  tick() {
    if (this.turns().length) this.update();
  }

  /** Draw the lobby's banner into `el`: your turn first (an alert), else the games that go
   * on without you; redrawn only when its words change (screen readers hear each once). */
  render(el) {
    const turns = this.turns();
    const waiting = this.waiting();
    const key = JSON.stringify([turns.map(x => [x.id, x.names, x.left]), waiting]);
    if (el.dataset.key === key) return;
    el.dataset.key = key;
    el.hidden = !turns.length && !waiting.length;
    el.classList.toggle('your-turn', turns.length > 0);
    fill(el,
      ...turns.map(x => h('div.seatwatch-row.turn', {dataset: {table: x.id}},
        h('span.seatwatch-text', h('b', t('seatwatch.turn', {names: x.names})),
          x.left != null ? h('span.seatwatch-left', ' · ' + t('seatwatch.left', {s: x.left})) : null),
        h('a.btn.primary.seatwatch-back', {href: '#/table/' + encodeURIComponent(x.id)}, t('seatwatch.back'), ' →'))),
      ...waiting.map(x => h('div.seatwatch-row', {dataset: {table: x.id}},
        h('span.seatwatch-text', t('seatwatch.playing', {names: x.names})),
        h('a.btn.small.seatwatch-back', {href: '#/table/' + encodeURIComponent(x.id)}, t('seatwatch.back')))));
  }

  destroy() {
    clearInterval(this.ticker);
    for (const e of this.watched.values()) {
      if (location.hash === '#/table/' + encodeURIComponent(e.id)) lingerFor(e.conn, e.id); // going back to it
      else e.conn.close();
    }
    this.watched.clear();
    this.alerts.destroy();
    if (this.titleShown != null) document.title = this.baseTitle;
    if (window.__fzSeatWatch === this) window.__fzSeatWatch = null;
  }
}

