// Private notes on players (issue #37, docs/protocol.md "Notes"): a text and a colour label
// one account keeps on another, shown by that player's seat at every table and in the
// replayer, edited from the seat's menu and the profile.  Only its author ever reads it
// (the server answers each account its own notes).  Shown as text, never as markup.
import {h, fill, setText} from './dom.js';
import {t} from './i18n.js';
import * as api from './api.js';
import {dialog, toast} from './ui.js';

export const LABELS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple'];
export const NOTE_MAX = 500;

let notes = null;  // account id (text) -> {text, label}
let loading = null;
let owner = null;
const listeners = new Set();

/** The logged-in account's notes (loaded once; null before). */
export function loadNotes() {
  const me = api.currentUser();
  if (!me) { notes = {}; owner = null; return Promise.resolve(notes); }
  if (owner === me.id && notes) return Promise.resolve(notes);
  if (loading && owner === me.id) return loading;
  owner = me.id;
  loading = api.get('/api/notes').then(data => { notes = data.notes || {}; changed(); return notes; })
    .catch(() => { notes = {}; return notes; });
  return loading;
}

export function noteOf(account) {
  return notes && account != null ? notes[String(account)] || null : null;
}

export function onNotes(fn) { listeners.add(fn); return () => listeners.delete(fn); }
function changed() { for (const fn of listeners) fn(); }

/** The accounts seated, by the name a seat shows: from a table summary's slots. */
export function accountsOf(slots) {
  const byName = new Map();
  for (const slot of slots || []) if (slot && slot.user && slot.user.id != null) byName.set(slot.user.name, slot.user.id);
  return byName;
}

/** Put each seat's note (its label's colour and its text) by the seat; `accountOf(seat)`. */
export function decorateSeats(seatEls, accountOf) {
  seatEls.forEach((el, seat) => {
    const note = noteOf(accountOf(seat));
    let tag = el.querySelector('.note-tag');
    if (!note) { if (tag) tag.remove(); return; }
    if (!tag) {
      tag = h('span.note-tag', h('span.note-dot', {'aria-hidden': 'true'}), h('span.note-text'));
      el.querySelector('.plate').append(tag);
    }
    tag.dataset.label = note.label || '';
    setText(tag.querySelector('.note-text'), note.text || t('notes.label.' + note.label));
    tag.title = t('notes.yours') + ': ' + (note.text || t('notes.label.' + note.label));
    tag.setAttribute('aria-label', tag.title);
  });
}

/** The note editor for `account` (shown as `name`): save, or delete; resolves when closed. */
export function editNote(account, name, {extra = []} = {}) {
  const note = noteOf(account) || {text: '', label: null};
  const text = h('textarea.note-input', {maxlength: String(NOTE_MAX), rows: '3', 'aria-label': t('notes.text', {name})});
  text.value = note.text || '';
  let label = note.label;
  const swatches = h('div.note-labels', {role: 'radiogroup', 'aria-label': t('notes.labels')},
    ...[null, ...LABELS].map(l => {
      const b = h('button.note-swatch', {type: 'button', role: 'radio', dataset: {label: l || ''},
        'aria-checked': String(label === l), 'aria-label': l ? t('notes.label.' + l) : t('notes.noLabel'), title: l ? t('notes.label.' + l) : t('notes.noLabel'),
        onclick: () => { label = l; for (const s of swatches.children) s.setAttribute('aria-checked', String(s === b)); }});
      return b;
    }));
  const error = h('p.form-error', {role: 'alert'});
  const save = h('button.btn.primary', {type: 'button', onclick: async () => {
    try {
      if (!text.value.trim() && !label) await api.request('DELETE', `/api/notes/${account}`);
      else {
        const data = await api.request('PUT', `/api/notes/${account}`, {text: text.value, label});
        notes = {...(notes || {}), [String(account)]: data.note};
      }
      if (!text.value.trim() && !label) { notes = {...(notes || {})}; delete notes[String(account)]; }
      changed();
      d.close();
    } catch (e) {
      setText(error, e.code === 'too_long' ? t('notes.tooLong', {n: NOTE_MAX}) : e.code === 'self' ? t('notes.self') : t('err.generic', {message: e.message}));
    }
  }}, t('notes.save'));
  const remove = h('button.btn.danger', {type: 'button', hidden: !noteOf(account), onclick: async () => {
    try {
      await api.request('DELETE', `/api/notes/${account}`);
      notes = {...(notes || {})};
      delete notes[String(account)];
      changed();
      d.close();
    } catch (e) { toast(t('err.generic', {message: e.message})); }
  }}, t('notes.delete'));
  const body = h('div.note-editor', h('p.muted', t('notes.private')), text, swatches, error, ...extra);
  const d = dialog({title: t('notes.title', {name}), body, actions: [remove, save]});
  text.focus();
  return d;
}

/** The profile's note section (another account's profile). */
export function noteSection(account, name) {
  const shown = h('p.note-shown');
  const render = () => {
    const note = noteOf(account);
    fill(shown, note ? [h('span.note-tag', {dataset: {label: note.label || ''}}, h('span.note-dot', {'aria-hidden': 'true'}),
      h('span.note-text', note.text || t('notes.label.' + note.label)))] : [h('span.muted', t('notes.none'))]);
  };
  const el = h('section.panel.notes-panel', h('h2', t('notes.heading')), shown,
    h('button.btn.small', {type: 'button', onclick: () => editNote(account, name)}, t('notes.edit')));
  loadNotes().then(render);
  onNotes(render);
  return el;
}

/** The account ids of the names seats show (a display name too: the server finds who showed
 * as it); cached for the page's life.  For the replayer, whose steps name players only. */
const idsByName = new Map();
export async function accountsByName(names) {
  const wanted = [...new Set(names.filter(n => n && !idsByName.has(n)))].slice(0, 10);
  if (wanted.length) {
    const query = wanted.map(n => 'name=' + encodeURIComponent(n)).join('&');
    const found = api.get('/api/accounts/ids?' + query).then(d => d.ids || {}).catch(() => ({}));
    for (const n of wanted) idsByName.set(n, found.then(ids => ids[n] ?? null));
  }
  return Promise.all(names.map(n => (n && idsByName.has(n) ? idsByName.get(n) : null)));
}

/** Decorate a replayer's felt: each seat's note, once the names are resolved to accounts
 * (asked only when the asker keeps notes at all). */
export async function decorateByNames(seatEls, names) {
  if (!api.currentUser()) return;
  await loadNotes();
  if (!notes || !Object.keys(notes).length) return;
  const ids = await accountsByName(names);
  decorateSeats(seatEls, seat => ids[seat] ?? null);
}
