// A table's chat (issue #37, docs/protocol.md "Chat"): the players' room for those who
// hold a place, the spectators' room for everyone else (the server decides which; they
// never read each other's), and the table's own lines (joins, leaves, busts, rematch
// offers) worded here in the page's language.  Every line and name is put in the page as
// text (textContent), never as markup: "<script>" is shown, not run.  Each person's line
// has a menu: mute its author (for me only: stored on my account) or report it.  The whole
// chat can be hidden (remembered in this browser).  On a wide screen the panel stands
// beside the felt; on a phone it is a sheet from the top that the head's button opens, so
// it never covers the action bar.
import {h, fill, setText, svg} from './dom.js';
import {t} from './i18n.js';
import * as api from './api.js';
import {toast} from './ui.js';
import {shownName} from './names.js';

export const CHAT_MAX = 200;
const HIDDEN_KEY = 'fz-chat-hidden';
const KEEP = 300;  // lines kept on the page

function hiddenPref() {
  try { return localStorage.getItem(HIDDEN_KEY) === '1'; } catch { return false; }
}

function timeOf(at) {
  try { return new Date(at * 1000).toLocaleTimeString([], {hour: '2-digit', minute: '2-digit'}); } catch { return ''; }
}

/** A system line in words: what happened to whom. */
export function systemText(line) {
  return t('chat.sys.' + line.system, {name: shownName(line.author || '?')});
}

/** The muted accounts of the one logged in (shared by every panel of the page). */
let mutes = null;
async function loadMutes() {
  if (!api.currentUser()) { mutes = new Set(); return mutes; }
  try { mutes = new Set((await api.get('/api/chat/mutes')).muted); } catch { mutes = mutes || new Set(); }
  return mutes;
}

/** One line as an element; `menu`: give a person's line its mute/report menu. */
function lineEl(line, {menu = null} = {}) {
  if (line.room === 'system') {
    return h('li.chat-line.system', {dataset: {id: String(line.id)}}, h('span.chat-text', systemText(line)));
  }
  const me = api.currentUser();
  const mine = me && line.author_id === me.id;
  const li = h('li.chat-line', {dataset: {id: String(line.id), author: String(line.author_id ?? '')}},
    h('time.chat-at', {datetime: new Date(line.at * 1000).toISOString()}, timeOf(line.at)), ' ',
    h('b.chat-author', shownName(line.author || '?')), ': ',
    h('span.chat-text', line.text));
  if (menu && !mine && line.author_id != null) {
    li.append(h('button.chat-more', {type: 'button', 'aria-label': t('chat.menu', {name: shownName(line.author)}),
      title: t('chat.menu', {name: shownName(line.author)}), onclick: () => menu(line, li)}, '⋯'));
  }
  return li;
}

export class ChatPanel {
  /** `send(text)`: the line to the table (false when it cannot be sent now). */
  constructor({tableId, send}) {
    this.tableId = tableId;
    this.send = send;
    this.room = null;
    this.seen = new Set();
    this.unread = 0;
    this.open = false;  // the phone's sheet
    this.hidden = hiddenPref();
    this.build();
    this.load();
  }

  build() {
    this.titleEl = h('h2.chat-title', t('chat.title'));
    this.roomEl = h('span.chat-room.muted');
    this.hideBtn = h('button.btn.small.ghost.chat-hide', {type: 'button', onclick: () => this.setHidden(!this.hidden)});
    this.closeBtn = h('button.btn.small.ghost.chat-close', {type: 'button', 'aria-label': t('chat.close'), title: t('chat.close'),
      onclick: () => this.setOpen(false)}, '×');
    this.list = h('ol.chat-lines', {'aria-live': 'polite', 'aria-label': t('chat.title')});
    this.input = h('input.chat-input', {type: 'text', maxlength: String(CHAT_MAX), autocomplete: 'off',
      'aria-label': t('chat.placeholder'), placeholder: t('chat.placeholder')});
    this.sendBtn = h('button.btn.small.primary.chat-send', {type: 'submit'}, t('chat.send'));
    this.form = h('form.chat-form', {onsubmit: e => { e.preventDefault(); this.submit(); }}, this.input, this.sendBtn);
    this.hiddenNote = h('p.muted.chat-hidden-note', t('chat.hiddenNote'));
    this.el = h('section.chat-panel', {'aria-label': t('chat.title')},
      h('div.chat-head', this.titleEl, this.roomEl, h('span.spacer'), this.hideBtn, this.closeBtn),
      this.hiddenNote, this.list, this.form);
    // the head's button: opens the sheet on a phone, shows the unread count
    this.countEl = h('span.chat-count', {hidden: true});
    this.toggleBtn = h('button.btn.small.ghost.chat-toggle', {type: 'button', 'aria-label': t('chat.title'), title: t('chat.title'),
      'aria-expanded': 'false', onclick: () => this.setOpen(!this.open)}, chatIcon(),
      h('span.tool-label', t('chat.title')), this.countEl);
    this.renderHidden();
  }

  async load() {
    await loadMutes();
    try {
      const data = await api.get(`/api/tables/${encodeURIComponent(this.tableId)}/chat`);
      this.setRoom(data.room);
      for (const line of data.lines) this.add(line, {quiet: true});
    } catch { /* the live lines still come */ }
  }

  setRoom(room) {
    this.room = room;
    setText(this.roomEl, room ? t('chat.room.' + room) : '');
  }

  /** A line from the server (the WebSocket's `chat`, or the history). */
  add(line, {quiet = false} = {}) {
    if (this.seen.has(line.id)) return;
    this.seen.add(line.id);
    if (line.room !== 'system') this.setRoom(line.room);  // a line of my room: taking or leaving a place changes it
    if (line.room !== 'system' && mutes && mutes.has(line.author_id)) return;  // muted: not shown to me
    const stick = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 8;
    this.list.append(lineEl(line, {menu: (l, li) => this.menu(l, li)}));
    while (this.list.children.length > KEEP) this.list.firstChild.remove();
    if (stick || quiet) this.list.scrollTop = this.list.scrollHeight;
    if (!quiet && !this.open && line.room !== 'system') {
      this.unread += 1;
      setText(this.countEl, String(this.unread));
      this.countEl.hidden = this.hidden;
    }
  }

  submit() {
    const text = this.input.value.trim();
    if (!text) return;
    if (text.length > CHAT_MAX) { toast(t('chat.tooLong', {n: CHAT_MAX})); return; }
    if (this.send(text) === false) { toast(t('chat.cannotSend')); return; }
    this.input.value = '';
  }

  /** The server refused a line (an `error` for a chat message). */
  refused(error) {
    const known = ['banned', 'rate_limited', 'too_long', 'unauthorized'];
    toast(known.includes(error.code) ? t('chat.err.' + error.code, {n: CHAT_MAX}) : t('chat.err.other', {message: error.message}));
  }

  menu(line, li) {
    const open = li.querySelector('.chat-menu');
    for (const other of this.list.querySelectorAll('.chat-menu')) other.remove();
    if (open) return;
    const name = shownName(line.author);
    const box = h('div.chat-menu', {role: 'group', 'aria-label': t('chat.menu', {name})},
      h('button.btn.small', {type: 'button', onclick: () => this.mute(line.author_id, name)}, t('chat.mute', {name})),
      h('button.btn.small.danger', {type: 'button', onclick: () => this.report(line, box)}, t('chat.report')));
    li.append(box);
    box.querySelector('button').focus();
  }

  async mute(account, name) {
    try {
      const data = await api.request('PUT', `/api/chat/mutes/${account}`);
      mutes = new Set(data.muted);
      for (const li of [...this.list.querySelectorAll('.chat-line')]) if (li.dataset.author === String(account)) li.remove();
      toast(t('chat.muted', {name}), 'info');
    } catch (e) { toast(t('chat.err.other', {message: e.message})); }
  }

  async report(line, box) {
    try {
      await api.post('/api/chat/reports', {message: line.id});
      toast(t('chat.reported'), 'info');
    } catch (e) {
      toast(e.code === 'already_reported' ? t('chat.err.already_reported') : e.code === 'rate_limited' ? t('chat.err.reports')
        : t('chat.err.other', {message: e.message}));
    }
    box.remove();
  }

  setHidden(hidden) {
    this.hidden = hidden;
    try { localStorage.setItem(HIDDEN_KEY, hidden ? '1' : '0'); } catch { /* ignore */ }
    this.renderHidden();
  }

  renderHidden() {
    this.el.classList.toggle('is-hidden', this.hidden);
    this.list.hidden = this.hidden;
    this.form.hidden = this.hidden;
    this.hiddenNote.hidden = !this.hidden;
    setText(this.hideBtn, this.hidden ? t('chat.show') : t('chat.hide'));
    this.hideBtn.setAttribute('aria-pressed', String(this.hidden));
    if (this.hidden) this.countEl.hidden = true;
  }

  /** The phone's sheet open or closed (a wide screen always shows the panel). */
  setOpen(open) {
    this.open = open;
    this.el.classList.toggle('open', open);
    this.toggleBtn.setAttribute('aria-expanded', String(open));
    if (open) {
      this.unread = 0;
      this.countEl.hidden = true;
      this.list.scrollTop = this.list.scrollHeight;
      if (!this.hidden) this.input.focus({preventScroll: true});
    }
  }
}

/** A finished table's chat, read only (the replayer): the room the asker may read. */
export function chatLog(tableId) {
  const list = h('ol.chat-lines.chat-log');
  const el = h('section.chat-replay', h('h3', t('chat.title')), list);
  (async () => {
    await loadMutes();
    try {
      const data = await api.get(`/api/tables/${encodeURIComponent(tableId)}/chat`);
      if (!data.room) { el.hidden = true; return; }  // no such table (a scripted one)
      const shown = data.lines.filter(l => l.room === 'system' || !mutes.has(l.author_id));
      fill(list, ...(shown.length ? shown.map(l => lineEl(l)) : [h('li.muted', t('chat.empty'))]));
    } catch { el.hidden = true; }
  })();
  return el;
}

/** The head button's speech bubble: an icon of the page's own set (index.html), not an emoji a
 * phone may lack the font for (it drew an empty box in Debian's chromium). */
function chatIcon() {
  return svg('svg', {class: 'icon', 'aria-hidden': 'true'}, svg('use', {href: '#i-chat'}));
}
