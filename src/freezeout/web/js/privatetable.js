// A private table's creator's controls (docs/protocol.md "Private tables"): the invite link
// with Copy and "New link (revoke old)", places held for named accounts, approval of seat
// requests, and removing a player before a freezeout starts.  Everyone else at a private
// table sees only that it is private.
import {h, fill} from './dom.js';
import {t} from './i18n.js';
import * as api from './api.js';
import {toast, dialog} from './ui.js';
import {isCash} from './cashview.js';

export class PrivateTable {
  constructor(page) {
    this.page = page;
    this.tableId = page.tableId;
    this.creator = null;  // null: not asked yet; then true or false
    this.invite = null;
    this.guests = {approval: false, holds: [], requests: []};
    this.box = null;  // the open dialog's body
  }

  base() { return `/api/tables/${encodeURIComponent(this.tableId)}`; }

  /** Ask once whether this account made the table (only the creator is told the link). */
  async check() {
    if (this.creator !== null || this.asking) return;
    const me = api.currentUser();
    const table = this.page.state.table || {};
    if (!me || me.id !== table.created_by) { this.creator = false; return; }
    this.asking = true;
    try {
      const data = await api.get(this.base() + '/invite');
      this.creator = true;
      this.invite = data.invite;
      if (data.guests) this.guests = data.guests;
    } catch {
      this.creator = false;
    }
    this.asking = false;
    this.page.render();
  }

  link() { return this.invite ? location.origin + '/' + this.invite.path.replace(/^\//, '') : ''; }

  /** The table changed: the dialog's list of players follows who sits (rarely: not at every move). */
  tableChanged() {
    const table = this.page.state.table || {};
    const key = table.status + ':' + (table.slots || []).map(s => (s.user ? s.user.id : '')).join(',');
    if (key === this.seatsKey) return;
    this.seatsKey = key;
    this.renderBox();
  }

  onGuests(msg) {
    const before = this.guests.requests.length;
    this.guests = {approval: msg.approval, holds: msg.holds || [], requests: msg.requests || []};
    if (this.guests.requests.length > before) toast(t('private.requestToast'), 'info');
    this.renderBox();
    this.page.render();
  }

  async call(path, body, done) {
    try {
      const data = await api.post(this.base() + path, body);
      if (data && data.guests) this.guests = data.guests;
      if (data && data.invite) this.invite = data.invite;
      if (done) toast(done, 'info');
      this.renderBox();
      return true;
    } catch (err) {
      toast(t('err.generic', {message: err.message}));
      this.renderBox();
      return false;
    }
  }

  async copy(input) {
    try {
      await navigator.clipboard.writeText(input.value);
      toast(t('private.copied'), 'info');
    } catch {
      input.select();
      const ok = document.execCommand && document.execCommand('copy');
      toast(ok ? t('private.copied') : t('private.copyByHand'), 'info');
    }
  }

  open() {
    this.box = h('div.private-box');
    this.renderBox();
    dialog({title: t('private.title'), body: this.box, onClose: () => { this.box = null; this.nameInput = null; }});
  }

  renderBox() {
    if (!this.box) return;
    const g = this.guests;
    const input = h('input.invite-link', {type: 'text', readOnly: true, value: this.link(), 'aria-label': t('private.link'),
      onfocus: () => input.select()});
    // one field for the dialog's life: what is typed in it survives a redraw
    const name = this.nameInput || (this.nameInput = h('input', {type: 'text', id: 'reserve-name', maxLength: 64,
      autocomplete: 'off', placeholder: t('private.reserveName')}));
    const table = this.page.state.table || {};
    const waiting = table.status === 'waiting' && !isCash(this.page.state);  // a cash table's players leave themselves
    const me = api.currentUser();
    const seated = waiting ? (table.slots || []).filter(s => s.user && !s.bot && (!me || s.user.id !== me.id)) : [];
    fill(this.box,
      h('p.muted', t('private.explain')),
      h('div.invite-row', input),
      h('div.invite-actions',
        h('button.btn.primary', {type: 'button', id: 'invite-copy', onclick: () => this.copy(input)}, t('private.copy')),
        h('button.btn.danger', {type: 'button', id: 'invite-renew', onclick: () => this.call('/invite', {}, t('private.renewed'))},
          t('private.renew'))),
      h('h3', t('private.reserveTitle')),
      h('form.reserve-form', {onsubmit: e => {
        e.preventDefault();
        if (name.value.trim()) this.call('/reserve', {name: name.value.trim()}).then(ok => { if (ok) name.value = ''; });
      }}, name, h('button.btn', {type: 'submit'}, t('private.reserve'))),
      g.holds.length ? h('ul.guest-list', ...g.holds.map(hold => h('li', {dataset: {slot: hold.slot}},
        h('span', t('private.held', {name: hold.name, n: hold.slot + 1})),
        h('button.btn.small.ghost', {type: 'button', onclick: () => this.call('/unreserve', {slot: hold.slot})}, t('private.release'))))) : null,
      h('label.check', h('input', {type: 'checkbox', id: 'approval', checked: g.approval,
        onchange: e => this.call('/approval', {on: e.target.checked})}), t('private.approval')),
      g.requests.length ? h('ul.guest-list.requests', ...g.requests.map(r => h('li', {dataset: {user: r.user_id}},
        h('span', t('private.asks', {name: r.name})),
        h('button.btn.small.primary', {type: 'button', onclick: () => this.call('/requests', {user_id: r.user_id, approve: true})},
          t('private.approve')),
        h('button.btn.small', {type: 'button', onclick: () => this.call('/requests', {user_id: r.user_id, approve: false})},
          t('private.refuse'))))) : null,
      seated.length ? h('h3', t('private.removeTitle')) : null,
      seated.length ? h('ul.guest-list', ...seated.map(s => h('li',
        h('span', s.user.name),
        h('button.btn.small.danger', {type: 'button', onclick: () => this.call('/remove', {slot: s.slot})}, t('private.remove'))))) : null);
  }
}
