// The live table page: one WebSocket, the felt, the action bar, the hand
// result during the pause (R30) — the game's last hand too, before the end
// screen — turn alerts, history and fairness.
import {h, setText, announce, fill} from './dom.js';
import {t, num, ordinal} from './i18n.js';
import {TableConnection} from './conn.js';
import {Felt} from './felt.js';
import {DEAL_STAGGER, stillQuery} from './cards.js';
import {ActionBar} from './actionbar.js';
import {tableModel, handFacts, lateFor} from './model.js';
import {GameLog, rememberGame} from './gamelog.js';
import {Replayer, stepsOfTable} from './replayer.js';
import {Commitments, fairnessPanel} from './fairness.js';
import {handName, splitCards} from './poker.js';
import {shownName, botOf} from './names.js';
import {renderEnd} from './endscreen.js';
import {TurnAlerts, soundOn, setSound} from './alerts.js';
import * as api from './api.js';
import {toast, dialog, confirmDialog} from './ui.js';
import {isCash} from './cashview.js';
import {shortGame, HOUSE_GAME} from './gamenames.js';
import {CashTable} from './cashtable.js';
import {PrivateTable} from './privatetable.js';
import {ChatPanel} from './chat.js';
import {loadNotes, onNotes, accountsOf, decorateSeats, editNote} from './notes.js';
import {liveRunOut, showRunOutOdds} from './runoutodds.js';

/** The least height (px, as drawn) of a seat's name and stack on a shrunk felt (issue #31 item 2). */
const TEXT_MIN = 11.5;

const HURRY_SECONDS = 10;

const metrics = (window.__fzMetrics = window.__fzMetrics || {updates: []});

export class TablePage {
  constructor(main, tableId, {connect, invite = null} = {}) {
    api.setInvite(tableId, invite);  // a private table's link (privatetable.js): sent with the join and every request
    this.privacy = null;
    this.connect = connect || ((id, handlers) => new TableConnection(id, handlers));
    this.main = main;
    this.tableId = tableId;
    this.state = {view: null, table: null, clock: null, presence: null, you: null, events: [], fairness: null, version: null};
    this.skew = 0;
    this.busy = false;
    this.gameOver = null;
    this.rematchFrom = new Set();
    this.myCards = {};
    this.dealing = {};
    this.felt = new Felt({onSeatClick: seat => this.seatClicked(seat)});
    this.bar = new ActionBar({
      onAct: (move, amount) => this.act(move, amount),
      onDontWait: () => this.dontWait(),
      onFoldFree: () => this.askFoldFree(),
      onDraw: cards => this.draw(cards),
    });
    this.alerts = new TurnAlerts(() => t('table.yourTurn'));
    this.finalUntil = null;
    this.chatIds = new Set();  // the ids of the chat lines sent: their refusals are the chat's to say
    this.build();
    this.conn = this.connect(tableId, {
      onMessage: msg => this.onMessage(msg),
      onStatus: status => this.onStatus(status),
    });
    this._key = e => this.onKey(e);
    document.addEventListener('keydown', this._key);
    this.ticker = setInterval(() => this.tick(), 250);
    this.offNotes = onNotes(() => this.decorateNotes());
    loadNotes();
    window.__fzTable = this; // for the browser tests and the curious
  }

  destroy() {
    if (window.__fzTable === this) window.__fzTable = null;
    if (api.inviteFor(this.tableId)) api.setInvite(null);
    clearInterval(this.ticker);
    this.offNotes();
    this.alerts.destroy();
    document.removeEventListener('keydown', this._key);
    this.conn.close();
    this.fitObserver.disconnect();
    this.barObserver.disconnect();
    this.felt.destroy();
    if (this.replayer) this.replayer.destroy();
    if (this.cash) this.cash.destroy();
  }

  // ------------------------------------------------------------------ DOM
  build() {
    this.info = h('div.info', {'aria-live': 'off'});
    this.connEl = h('span.conn', {role: 'status'});
    this.historyBtn = h('button.btn.small.ghost', {type: 'button', onclick: () => this.openHistory(), 'aria-keyshortcuts': 'H',
      'aria-label': t('table.history'), title: t('table.history')}, icon('i-history'), h('span.tool-label', t('table.history')), h('kbd', 'H'));
    this.fairBtn = h('button.btn.small.ghost', {type: 'button', onclick: () => this.openFairness(), 'aria-label': t('table.fairness'),
      title: t('table.fairness')}, icon('i-lock'), h('span.tool-label', t('table.fairness')));
    this.resignBtn = h('button.btn.small.danger.resign', {type: 'button', onclick: () => this.askResign(), hidden: true,
      'aria-label': t('table.resign'), title: t('table.resign')}, icon('i-flag'), h('span.tool-label', t('table.resign')));
    this.inviteBtn = h('button.btn.small.ghost.invite', {type: 'button', hidden: true, onclick: () => this.privacy && this.privacy.open(),
      'aria-label': t('private.title'), title: t('private.title')}, icon('i-link'), h('span.tool-label', t('private.title')));
    this.chat = new ChatPanel({tableId: this.tableId, send: text => this.sendChat(text)});
    this.soundBtn = h('button.btn.small.ghost.sound', {type: 'button', onclick: () => this.toggleSound()});
    this.renderSoundBtn();
    const head = h('div.table-head',
      h('a.btn.small.ghost', {href: '#/', 'aria-label': t('table.back')}, '←', h('span.tool-label', ' ' + t('table.back'))),
      this.info, h('span.spacer'), this.connEl,
      h('div.side-tools', this.inviteBtn, this.chat.toggleBtn, this.soundBtn, this.historyBtn, this.fairBtn, this.resignBtn));
    this.waitingEl = h('div.waiting-room', {hidden: true});
    this.endEl = h('section.endscreen', {hidden: true, 'aria-live': 'polite'});
    this.keysHint = h('p.muted.shortcut-hint', {style: {textAlign: 'center', fontSize: '.8rem', margin: 0}}, t('table.shortcuts'));
    // the felt takes the height the bar leaves it and shrinks to fit (fit())
    this.feltBox = h('div.felt-box', this.felt.el);
    this.page = h('div.table-page.with-chat', head, this.endEl, this.feltBox, this.waitingEl, this.bar.el, this.keysHint, this.chat.el);
    fill(this.main, this.page);
    this.fitObserver = new ResizeObserver(() => this.fit());
    this.fitObserver.observe(this.feltBox);  // the room: the window, the head and the bar
    this.fitObserver.observe(this.felt.el);  // what the table needs: seats, pots, hand names
    // the bar only grows during a game (a longer result, a game's draw picker), so the table
    // does not jump back and forth with every turn; a new width starts afresh
    this.barObserver = new ResizeObserver(() => this.holdBarHeight());
    this.barObserver.observe(this.bar.el);
    this.felt.render({viewer: 0, seats: [], board: [], pots: []});
    setText(this.connEl, t('table.connecting'));
  }

  onStatus(status) {
    this.connStatus = status;
    setText(this.connEl, status === 'open' ? '' : t(status === 'connecting' ? 'table.connecting' : 'table.reconnecting'));
  }

  // ------------------------------------------------------------ messages
  onMessage(msg) {
    const t0 = performance.now();
    switch (msg.type) {
      case 'snapshot': this.applySnapshot(msg); break;
      case 'update': this.applyUpdate(msg); break;
      case 'presence': this.state.presence = msg.online; break;
      case 'guests': if (this.privacy) this.privacy.onGuests(msg); return;
      case 'chat': this.chat.add(msg); return;  // issue #37: chat.js
      case 'error': if (this.chatIds.delete(msg.ref)) { this.chat.refused(msg); return; } this.onError(msg); return;
      case 'pong': if (typeof msg.now === 'number') this.skew = msg.now - Date.now() / 1000; return;
      default: return;
    }
    this.render();
    this.decorateNotes();
    if (msg.type !== 'presence') {
      requestAnimationFrame(() => {
        const ms = performance.now() - t0;
        metrics.updates.push({type: msg.type, version: msg.version, ms});
        if (metrics.updates.length > 500) metrics.updates.shift();
      });
    }
  }

  syncClock(clock) {
    if (clock && typeof clock.now === 'number') this.skew = clock.now - Date.now() / 1000;
  }

  now() { return Date.now() / 1000 + this.skew; }

  applySnapshot(msg) {
    const s = this.state;
    s.version = msg.version;
    s.you = msg.you;
    s.table = msg.table;
    s.view = msg.view;
    s.clock = msg.clock;
    s.presence = msg.presence;
    s.fairness = msg.fairness;
    s.events = msg.events || [];
    this.busy = false;
    this.syncClock(msg.clock);
    this.settleUntil = null;
    // joined (or came back) while the game's last hand is on the table: show it out (R30)
    const c = msg.clock || {};
    this.finalUntil = msg.view && msg.view.finished && c.result_until && c.result_until > c.now &&
      s.events.some(e => e.type === 'hand_ended') ? c.result_until : null;
    this.ensureLog();
    if (this.commitments) this.commitments.note(msg);
    if (this.log && s.events.length) this.log.setCurrent(s.events);
    if (this.log) this.log.addFairness(s.fairness);
    this.syncSeat();
    this.noteMyCards();
    this.noteDealing();
    this.noteTableEvents(msg.events || []);
  }

  applyUpdate(msg) {
    const s = this.state;
    const events = msg.events || [];
    s.version = msg.version;
    if (msg.table) s.table = msg.table;
    s.view = msg.view;
    s.clock = msg.clock;
    s.fairness = msg.fairness;
    this.busy = false;
    this.syncClock(msg.clock);
    // the current hand's public events (reset when a new hand starts)
    const startIdx = events.map(e => e.type).lastIndexOf('hand_started');
    if (startIdx >= 0) s.events = events.slice(startIdx);
    else s.events = s.events.concat(events);
    if (events.some(e => e.type === 'game_started')) this.onGameStarted(events.find(e => e.type === 'game_started'));
    // the hand that ended the game stays on the table for the pause (R30) before the end screen
    const settle = runOutEnds(events, this.now());
    if (settle != null) this.settleUntil = settle;
    else if (events.some(e => e.type === 'hand_started')) this.settleUntil = null;
    if (msg.view && msg.view.finished && events.some(e => e.type === 'hand_ended')) {
      const c = msg.clock || {};
      const now = c.now != null ? c.now : this.now();
      const until = c.result_until || now;
      // the result is readable for the whole pause (R30), counted from the last run-out card
      this.finalUntil = settle != null ? Math.max(until, settle + Math.max(0, until - now)) : until;
    }
    this.ensureLog();
    if (this.commitments) this.commitments.note(msg);
    if (this.log) { this.log.add(events); this.log.addFairness(s.fairness); }
    this.syncSeat();
    this.noteMyCards();
    this.noteDealing();
    this.noteTableEvents(events);
    this.announceEvents(events);
  }

  onGameStarted(e) {
    this.finalUntil = null;
    this.gameOver = null;
    this.rematchFrom = new Set();
    this.rematchSent = false;
    this.log = null;
    this.myCards = {};
    this.dealing = {};
    this.state.events = this.state.events.filter(x => x.type !== 'game_started');
    if (this.replayer) { this.replayer.destroy(); this.replayer = null; }
    void e;
  }

  ensureLog() {
    const table = this.state.table;
    const gameId = table && table.game_id;
    if (gameId == null) return;
    if (!this.log || this.log.gameId !== gameId) {
      this.log = new GameLog(gameId, table.players || []);
      this.commitments = new Commitments(gameId);  // what each hand committed to before its first card
      const you = this.state.you;
      if (you && you.seat != null) rememberGame({id: gameId, table: this.tableId, players: table.players, at: Date.now()});
    }
  }

  /** Our tournament seat: the view is built for it (updates carry no `you`). */
  syncSeat() {
    const s = this.state;
    if (!s.you) s.you = {user: api.currentUser(), seat: null, slot: null};
    if (s.view) s.you.seat = s.view.viewer ?? s.view.you ?? null;  // a cash view names its viewer `you`
  }

  noteMyCards() {
    const v = this.state.view;
    if (!v || v.viewer == null || !v.seats[v.viewer] || !v.seats[v.viewer].cards) return;
    this.myCards[v.hand_number] = splitCards(v.seats[v.viewer].cards);
  }

  /** What the table dealt in each hand (the view's `dealing`: deck positions, hole cards), noted
   * while the hand is on: the Fairness check is given the game of the hand it checks. */
  noteDealing() {
    const v = this.state.view;
    const number = v && (v.hand_number ?? v.hand);
    const live = v && (isCash(this.state) ? v.in_hand : !v.hand_over);
    if (v && v.dealing && number > 0 && live) this.dealing[number] = v.dealing;
  }

  noteTableEvents(events) {
    if (isCash(this.state)) this.cashTable().onEvents(events);  // issue #25: seats, chips, the balance
    for (const e of events) {
      if (e.type === 'game_over') {
        this.gameOver = e;
        if (e.ratings) api.loadSession().catch(() => {}); // the header's Elo
      }
      else if (e.type === 'rematch_accepted') this.rematchFrom.add(e.seat);
    }
  }

  announceEvents(events) {
    const v = this.state.view;
    if (!v) return;
    const me = this.state.you ? this.state.you.seat : null;
    const name = seat => shownName((v.seats[seat] || {}).player || '?');
    const twice = new Set(events.filter(e => e.type === 'forfeited' && e.in_a_row >= 2).map(e => e.seat));
    for (const e of events) {
      if (e.type === 'pot_awarded') {
        const winners = e.shares.filter(x => x[1] > 0).map(x => name(x[0])).join(', ');
        const hand = handName(e);
        announce(t('result.wins', {name: winners, amount: e.amount}) + (hand ? ', ' + hand : ''));
      } else if (e.type === 'resigned') {
        // a second forfeit in a row eliminates like a resignation (R27): say which it was
        const key = (twice.has(e.seat) ? 'table.timedOut' : 'table.resigned') + (e.seat === me ? 'You' : '');
        toast(t(key, {name: name(e.seat), n: e.vanished}), 'info', 6000);
      } else if (e.type === 'dont_wait') toast(t('table.dontWaitBy', {by: name(e.by), name: name(e.seat)}), 'info');
      else if (e.type === 'forfeited' && e.in_a_row < 2) {
        const forced = events.find(x => x.type === 'action_taken' && x.seat === e.seat && x.forced);
        const move = (forced && forced.kind === 'check' ? 'table.forcedCheck' : 'table.forcedFold') + (e.seat === me ? 'You' : '');
        if (e.seat === me) toast(t('table.forfeitedYou', {move: t(move)}), 'info', 6000);
        else announce(t('table.forfeited', {name: name(e.seat), move: t(move)}));
      }
    }
  }

  onError(msg) {
    this.busy = false;
    if (msg.code === 'refused') this.awaitingSeat = false;  // the creator said no (privatetable.js)
    if (this.cash && this.cash.onError(msg)) return;  // a cash intent's refusal, said where it was asked
    const key = 'err.' + msg.code;
    const text = t(key, {message: msg.message || msg.code});
    if (msg.code === 'not_found') {
      fill(this.main, h('div.panel', h('p', t('table.notFound')), h('a.btn', {href: '#/'}, t('table.back'))));
      this.conn.close();
      return;
    }
    toast(text === key ? t('err.generic', {message: msg.message || msg.code}) : text);
    this.render();
  }

  // -------------------------------------------------------------- intents
  act(move, amount) {
    if (this.busy || this.state.version == null) return;
    const message = {type: 'act', version: this.state.version, move};
    if (amount != null && (move === 'bet' || move === 'raise' || move === 'complete')) message.amount = amount;
    if (this.conn.send(message) != null) {
      this.busy = true;
      this.render();
    }
  }

  /** The draw (V11): the cards thrown away ("" stands pat), docs/protocol.md `draw`. */
  draw(cards) {
    if (this.busy || this.state.version == null) return;
    if (this.conn.send({type: 'draw', version: this.state.version, cards}) != null) {
      this.busy = true;
      this.render();
    }
  }

  dontWait() {
    if (this.state.version == null) return;
    this.conn.send({type: 'dont_wait', version: this.state.version});
  }

  /** Fold when checking is free: asked first (docs/protocol.md "The web page"). */
  askFoldFree() {
    if (this.foldDialog) return;
    const version = this.state.version;
    const done = move => { d.close(); if (move && this.state.version === version) this.act(move); };
    const check = h('button.btn.primary', {type: 'button', onclick: () => done('check')}, t('act.check'));
    const fold = h('button.btn.danger', {type: 'button', onclick: () => done('fold')}, t('act.foldAnyway'));
    const d = dialog({title: t('act.foldFreeTitle'), body: h('p', t('act.foldFreeText')), actions: [fold, check],
      onClose: () => { this.foldDialog = null; }});
    d.el.classList.add('fold-guard');
    this.foldDialog = d;
    check.focus();
  }

  toggleSound() {
    setSound(!soundOn());
    this.renderSoundBtn();
  }

  renderSoundBtn() {
    const on = soundOn();
    fill(this.soundBtn, icon(on ? 'i-sound' : 'i-mute'));
    this.soundBtn.setAttribute('aria-pressed', String(on));
    this.soundBtn.setAttribute('aria-label', t('table.sound'));
    this.soundBtn.title = t(on ? 'table.soundOn' : 'table.soundOff');
  }

  async askResign() {
    const me = this.state.view && this.state.you && this.state.you.seat != null ? this.state.view.seats[this.state.you.seat] : null;
    if (!me || !me.in_tournament) return; // already out, the run-out still being dealt
    const ok = await confirmDialog({title: t('table.resignTitle'), text: t('table.resignText'),
      yes: t('table.resignYes'), no: t('table.resignNo'), danger: true});
    if (ok) this.conn.send({type: 'resign'});
  }

  rematch() {
    this.rematchSent = true;
    this.conn.send({type: 'rematch'});
    this.render();
  }

  async seatClicked(seat) {
    const s = this.state;
    const account = this.accountAt(seat);
    const me = api.currentUser();
    if (account != null && me && account !== me.id) { this.seatMenu(account, this.felt.model.seats.find(x => x.seat === seat).name); return; }
    if (isCash(s)) { this.cashTable().seatClicked(seat); return; }  // a cash seat is taken with a buy-in
    if (s.view || !s.table || s.table.status !== 'waiting') return;
    const slot = s.table.slots[seat];
    if (!slot || slot.user || slot.bot) return;
    if (s.you && s.you.slot != null) return;
    try {
      if (!api.currentUser()) await api.ensureGuest();
      // the WebSocket was authenticated before: sit over HTTP, then rejoin
      const data = await api.post(`/api/tables/${encodeURIComponent(this.tableId)}/sit`, {slot: seat});
      if (data && data.pending) { this.awaitingSeat = true; toast(t('err.pending'), 'info'); return; }  // privatetable.js
      this.reconnect();
    } catch (e) {
      toast(e.code === 'forbidden' ? t('err.forbidden', {message: e.message}) : t('err.generic', {message: e.message}));
    }
  }

  // ------------------------------------------------------ chat and notes (issue #37)
  sendChat(text) {
    const id = this.conn ? this.conn.send({type: 'chat', text}) : null;
    if (id == null) return false;
    this.chatIds.add(id);
    return true;
  }

  /** The account in a seat of the felt (by the name the seat shows), or null. */
  accountAt(seat) {
    const model = this.felt.model;
    const found = model && model.seats ? model.seats.find(x => x.seat === seat) : null;
    if (!found || found.empty || !this.state.table) return null;
    return accountsOf(this.state.table.slots).get(found.name) ?? null;
  }

  /** Each seat's note by it (only the notes of the one logged in: the server gives no other). */
  decorateNotes() {
    if (this.felt.seatEls.length) decorateSeats(this.felt.seatEls, seat => this.accountAt(seat));
  }

  /** A seat's menu: my note and label on its player, and muting them in the chat. */
  seatMenu(account, name) {
    const shown = shownName(name);
    const mute = h('button.btn.small.ghost.seat-mute', {type: 'button', onclick: async () => {
      await this.chat.mute(account, shown);
      mute.disabled = true;
    }}, t('chat.mute', {name: shown}));
    editNote(account, shown, {extra: [mute]});
  }

  async stand() {
    try {
      await api.post(`/api/tables/${encodeURIComponent(this.tableId)}/stand`);
      this.reconnect();
    } catch (e) { toast(t('err.generic', {message: e.message})); }
  }

  reconnect() {
    this.conn.close();
    this.conn = this.connect(this.tableId, {onMessage: m => this.onMessage(m), onStatus: st => this.onStatus(st)});
  }

  // ------------------------------------------------------------ keyboard
  onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (document.querySelector('dialog[open]')) return;
    const inField = e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT' || e.target.tagName === 'TEXTAREA');
    const k = e.key.toLowerCase();
    if (inField && e.target.type !== 'range') {
      if (e.key === 'Escape') e.target.blur();
      if (e.key === 'ArrowUp' || e.key === 'ArrowDown') { this.bar.adjust(e.key === 'ArrowUp' ? 1 : -1); e.preventDefault(); }
      return;
    }
    const bar = this.bar;
    const handled = {
      f: () => bar.fold(),
      c: () => bar.checkCall(),
      k: () => bar.checkCall(),
      r: () => bar.focusAmount(),
      b: () => bar.focusAmount(),
      a: () => bar.allIn(),
      d: () => bar.dontWait(),
      s: () => bar.standPat(),
      h: () => this.openHistory(),
      enter: () => { if (e.target === document.body || e.target.tagName !== 'BUTTON') bar.confirm(); else return false; },
      arrowup: () => bar.adjust(1),
      arrowdown: () => bar.adjust(-1),
      1: () => bar.quick(0), 2: () => bar.quick(1), 3: () => bar.quick(2), 4: () => bar.quick(3), 5: () => bar.quick(4),
      6: () => bar.quick(5), 7: () => bar.quick(6),
    }[k];
    if (handled && handled() !== false) e.preventDefault();
  }

  // -------------------------------------------------------------- render
  tick() {
    const s = this.state;
    if (!s.view || !s.clock) return;
    if (this.settleUntil != null && !this.settling()) { this.settleUntil = null; this.render(); return; }
    if (this.finalUntil != null && !this.holdingFinal()) { this.finalUntil = null; this.render(); return; }
    // repaint only while something time-dependent is visible
    if ((!s.view.hand_over && s.clock.turn_deadline) || s.clock.next_hand_at || this.finalUntil != null) this.render();
  }

  /** An all-in run-out is still being dealt: who won stays unsaid until the last card is down. */
  settling() {
    return this.settleUntil != null && this.now() < this.settleUntil;
  }

  /** Nobody but you can end `late`'s turn: everyone else still in is offline (no bot, R26). */
  aloneWith(late) {
    const s = this.state;
    const me = s.you ? s.you.seat : null;
    return !s.view.seats.some(x => x.in_tournament && x.seat !== me && x.seat !== late &&
      (botOf(x.player) || !s.presence || s.presence[x.seat] !== false));
  }

  /** You are out in the hand whose run-out is still being dealt: not said yet. */
  bustingNow(model) {
    const you = this.state.you || {};
    return this.settling() && you.seat != null && model.facts.eliminated.some(e => e.seat === you.seat);
  }

  /** The game's last hand is on the table (R30) and the end screen waits for it. */
  holdingFinal() {
    return this.finalUntil != null && this.now() < this.finalUntil;
  }

  /** Straight to the end screen (the button under the last hand's result). */
  skipFinal() {
    this.finalUntil = null;
    this.render();
  }

  render() {
    const s = this.state;
    if (!s.table) return;
    if (s.table.private && !this.privacy) { this.privacy = new PrivateTable(this); this.privacy.check(); }
    if (this.privacy) this.privacy.tableChanged();
    if (this.awaitingSeat && (s.table.slots || []).some(x => x.user && api.currentUser() && x.user.id === api.currentUser().id)) {
      this.awaitingSeat = false;  // the creator approved the seat: follow the table as its player
      this.reconnect();
    }
    this.inviteBtn.hidden = !(this.privacy && this.privacy.creator);
    if (s.view && isCash(s)) { this.cashTable().render(); return; }  // issue #25: cashtable.js draws a cash table
    this.renderInfo();
    const you = s.you || {};
    const playing = s.view && !s.view.finished;
    const me = s.view && you.seat != null ? s.view.seats[you.seat] : null;
    if (!s.view) { this.resignBtn.hidden = !(playing && me && me.in_tournament); this.renderWaiting(); return; }
    this.waitingEl.hidden = true;
    const now = this.now();
    const model = this.settling() ? beforeTheResult(tableModel(s, now)) : tableModel(s, now);
    // busting in a run-out shows with the last card, as the winner does
    this.resignBtn.hidden = !(playing && me && (me.in_tournament || this.bustingNow(model)));
    this.model = model;
    const ended = !!s.view.finished && !this.holdingFinal();
    this.feltBox.hidden = ended;
    this.felt.el.hidden = ended;
    if (this.page.classList.contains('fit') === ended) { this.page.classList.toggle('fit', !ended); this.fit(); }
    this.felt.render({...model, result: null});
    // the run-out being dealt: each face-up hand's share of the pot by its seat (issue #36)
    const street = this.settling() ? liveRunOut(model, s.events, now, this.settleUntil, DEAL_STAGGER, DEAL_SETTLE) : null;
    showRunOutOdds(this.felt, street, s.view.game || HOUSE_GAME, () => this.model === model);
    this.renderBar(model, now, ended);
    renderEnd(this);
  }

  /** The cash table's part of the page (cashtable.js), made when a cash table is seen. */
  cashTable() {
    if (!this.cash) this.cash = new CashTable(this);
    return this.cash;
  }

  holdBarHeight() {
    const bar = this.bar.el;
    if (bar.hidden) return;
    const {width, height} = bar.getBoundingClientRect();
    if (!height) return;
    if (this.barHold && Math.abs(this.barHold.width - width) > 1) { this.barHold = null; bar.style.minHeight = ''; return; }
    if (!this.barHold || height > this.barHold.height + 0.5) {
      this.barHold = {width, height};
      bar.style.minHeight = height + 'px';
    }
  }

  /** Shrink the table into the height the head and the action bar leave it,
   * so that on a phone the whole bar is on the screen on your turn without
   * scrolling, whatever the bar holds (style.css ".table-page.fit"). */
  fit() {
    const wrap = this.felt.el;
    const box = this.feltBox;
    if (box.hidden || !box.isConnected || !this.page.classList.contains('fit')) return;
    const room = box.clientHeight;
    if (!room) return;
    wrap.style.zoom = '';
    wrap.style.width = '';
    wrap.style.removeProperty('--tz');
    const natural = wrap.getBoundingClientRect();
    // the room is never taller than the table needs: the bar follows the table, the spare space goes below
    const most = Math.ceil(natural.height) + 'px';
    if (box.style.maxHeight !== most) box.style.maxHeight = most;
    let z = Math.min(1, room / natural.height);
    if (z >= 0.995) return;
    const grid = wrap.classList.contains('grid');
    // the oval keeps its proportions at its natural width; the phones' grid keeps the screen's width
    if (!grid) wrap.style.width = natural.width + 'px';
    wrap.style.zoom = String(Math.floor(z * 1000) / 1000);
    if (!grid) return;
    // The grid shrinks its decoration, never its text (issue #31 item 2): the names and stacks are
    // drawn back up to TEXT_MIN px (--tz, style.css) and the rest shrinks a little more for them.
    let tz = 1;
    for (let i = 0; i < 8; i++) {
      const heights = [...wrap.querySelectorAll('.seat .pname, .seat .stack')].map(el => el.getBoundingClientRect().height).filter(x => x > 0);
      const low = heights.length ? Math.min(...heights) : TEXT_MIN;
      const tall = wrap.getBoundingClientRect().height;
      if (low >= TEXT_MIN && tall <= room + 0.5) break;
      if (low < TEXT_MIN) { tz = tz * TEXT_MIN / low + 0.01; wrap.style.setProperty('--tz', tz.toFixed(3)); }
      z = Math.min(z, z * room / wrap.getBoundingClientRect().height);
      wrap.style.zoom = String(Math.floor(z * 1000) / 1000);
    }
  }

  /** The view with the game of the hand it shows: over a hand's result the server may already
   * name the next hand's game (a mix's new game, V19); the header switches when that hand
   * starts, not over the previous hand's showdown (issue #31 item 6). */
  gameOfHand(v) {
    const keys = ['game', 'game_name', 'mix', 'betting', 'level', 'limit'];
    if (!v.hand_over) {
      this.handGame = {hand: v.hand_number, ...Object.fromEntries(keys.map(k => [k, v[k]]))};
      return v;
    }
    const held = this.handGame;
    if (!held || held.hand !== v.hand_number) return v;
    const {hand, ...fields} = held;
    return {...v, ...fields};
  }

  renderInfo() {
    const s = this.state;
    let v = s.view;
    const parts = [];
    if (v && v.finished && !(this.settling() && this.holdingFinal())) {
      parts.push(h('b', t('table.gameOver')));
      parts.push(h('span', t('end.hands', {n: v.hand_number})));
    } else if (v && v.hand_number > 0) {
      v = this.gameOfHand(v);
      parts.push(h('b', t('table.hand', {n: v.hand_number})));
      // any game: its name (a mix: this game and the next), and the fixed-limit sizes
      // any game: its short name whole, the full one in the title (a mix: the mix, this game and the next)
      // (a view without a game's name is the house game's, no-limit hold'em: docs/protocol.md "Every game")
      const game = v.game_name ? shortGame(v.game, v.game_name) : shortGame(HOUSE_GAME);
      const full = v.game_name || t('table.houseGame');
      parts.push(h('span.game', {title: v.mix ? `${v.mix.name}: ${full}` : full}, v.mix ? `${shortGame(v.mix.code, v.mix.name)}: ${game}` : game));
      if (v.mix && v.mix.next_game) {
        const next = shortGame(v.mix.next_game, v.mix.next_game_name);
        // the hands until the next game's first one, as the level's (V19): "in 1 hand" on the last of this game
        const n = v.mix.hands_to_next_game + 1;
        const text = t('table.nextGame', {game: next, n});
        const title = t('table.nextGame', {game: v.mix.next_game_name || next, n});
        parts.push(h('span.muted.nextgame', {title}, h('span.long', text), h('span.short', {'aria-hidden': 'true'}, t('table.nextGameShort', {game: next}))));
      }
      const level = v.level || {};
      if (v.betting === 'fixed-limit' && level.small_bet) parts.push(h('span.stakes', `${num(level.small_bet)}/${num(level.big_bet)}`));
      else if (v.blinds[1]) parts.push(h('span.stakes', h('span.long', t('table.blindsWord') + ' '), `${num(v.blinds[0])}/${num(v.blinds[1])}`));
      // the level schedule as the server gives it (R6, V18): hands per level, and the next
      // level's forced bets (none after the last level)
      const left = v.hands_to_next_level;
      const per = v.hands_per_level ?? (v.schedule && v.schedule.hands_per_level) ?? 6;
      const dots = h('span.level-dots', {'aria-hidden': 'true'});
      for (let i = 0; i < per; i++) dots.append(h('i' + (i < per - left ? '.on' : '')));
      if (v.next_level) {
        const text = left === 0 ? t('table.lastOfLevel') : t('table.nextLevel', {n: left + 1});
        const short = left === 0 ? t('table.lastOfLevelShort') : t('table.nextLevelShort', {n: left + 1});
        parts.push(h('span.muted.level', {title: text, 'aria-label': text}, dots, ' ', h('span.long', text), h('span.short', {'aria-hidden': 'true'}, short)));
      }
    } else if (s.table) {
      parts.push(h('b', t('tables.table', {id: String(s.table.id).slice(0, 6)})));
    }
    if (s.table && s.table.ranked) parts.push(h('span.pill.ranked', t('tables.ranked')));
    const key = parts.map(p => p.textContent).join('|');
    if (this.info.dataset.key !== key) { this.info.dataset.key = key; fill(this.info, ...parts); }
  }

  renderBar(model, now, ended) {
    const s = this.state;
    const v = s.view;
    const you = s.you || {};
    const me = you.seat != null ? v.seats[you.seat] : null;
    const clock = s.clock || {};
    let status = '';
    let dontWait = null;
    let hurry = false;
    let lateKey = null;
    const acting = model.acting;
    const actingName = acting != null ? shownName(v.seats[acting].player) : '';
    if (ended || this.settling()) {
      status = '';
    } else if (v.hand_over) {
      let next = '';
      if (v.finished) next = h('button.btn.small.see-results', {type: 'button', onclick: () => this.skipFinal()}, t('end.seeResults'), ' →');
      else if (v.hand_number === 0) next = t('table.starting');
      else if (clock.next_hand_at) next = t('act.handOver', {s: Math.max(0, Math.ceil(clock.next_hand_at - now))});
      status = model.result ? resultNode(model.result, next) : next;
    } else if (acting != null && acting === you.seat) {
      const left = clock.turn_deadline ? Math.max(0, Math.ceil(clock.turn_deadline - now)) : null;
      hurry = left != null && left <= HURRY_SECONDS;
      if (left === 0) status = t('table.yourTimeUp') + ' · ' + t('table.lateShort', {t: lateFor(now - clock.turn_deadline)});
      else status = t('table.yourTurn') + (left != null ? ' · ' + t('table.timeLeft', {s: left}) : '') +
        (hurry && me && me.forfeits ? ' · ' + t('table.lastWarning') : '');
    } else if (acting != null) {
      if (model.expired) {
        // R26: the table waits for Don't wait, however long: say how long it has been
        status = t('table.timeUpFor', {name: actingName, t: lateFor(now - clock.turn_deadline)});
        if (me && me.in_tournament) {
          dontWait = actingName;
          if (this.aloneWith(acting)) lateKey = `${v.hand_number}:${clock.turn_started}`;
        }
      } else {
        const left = clock.turn_deadline ? Math.max(0, Math.ceil(clock.turn_deadline - now)) : null;
        status = t('act.wait', {name: actingName}) + (left != null ? ' ' + t('table.timeLeft', {s: left}) : '');
      }
    }
    const out = me && !me.in_tournament && !v.finished && !this.bustingNow(model);
    if (out && typeof status === 'string') status = t('table.youAreOut', {place: ordinal(me.place)}) + ' · ' + t('table.watching');
    else if (you.seat == null && !v.finished && typeof status === 'string') status = t('table.spectating') + (status ? ' ' + status : '');
    this.bar.el.hidden = ended;
    this.bar.el.classList.toggle('hurry', hurry);
    this.keysHint.hidden = you.seat == null || !!v.finished;
    const legal = !v.hand_over && acting === you.seat ? v.legal : null;
    const canPre = !v.hand_over && !v.finished && !!me && me.in_hand && !me.all_in && acting != null && acting !== you.seat;
    this.bar.update({legal, view: v, status, dontWait, busy: this.busy, canPre});
    const turnKey = legal ? `${v.hand_number}:${clock.turn_started}` : null;
    if (turnKey && turnKey !== this.turnKey) {
      const pre = this.bar.takePre(legal);
      if (pre && !this.busy) { this.turnKey = turnKey; this.act(pre); return; }
      announce(t('table.yourTurn'));
      this.alerts.turn();
    }
    if (turnKey && hurry && this.hurryKey !== turnKey) { this.hurryKey = turnKey; announce(t('table.hurry')); this.alerts.hurry(); }
    // nobody else will press Don't wait: alert this player as for a turn of their own
    if (lateKey && lateKey !== this.lateKey) this.alerts.late(t('table.lateAlert', {name: actingName}));
    this.lateKey = lateKey;
    if (!turnKey && !lateKey) this.alerts.stopFlash();
    this.turnKey = turnKey;
  }

  renderWaiting() {
    const s = this.state;
    const table = s.table;
    const you = s.you || {};
    const slots = table.slots || [];
    const n = slots.length;
    this.felt.render({
      viewer: you.slot ?? 0, board: [], pots: [],
      seats: slots.map((slot, i) => {
        const user = slot.user;
        const name = user ? user.name : '';
        return {seat: i, name, stack: 1000, bet: 0, cards: null, empty: !user && !slot.bot,
          stateText: !user && !slot.bot ? t('table.sitHere') : '', flags: {me: you.slot === i, empty: !user && !slot.bot}};
      }),
    });
    const free = slots.filter(x => !x.user && !x.bot).length;
    this.bar.el.hidden = false;
    this.feltBox.hidden = false;
    this.felt.el.hidden = false;
    this.page.classList.add('fit');
    this.bar.update({legal: null, view: null, status: free ? t('table.waitingFor', {n: free}) : t('table.starting')});
    this.waitingEl.hidden = false;
    const key = `${free}:${you.slot}:${n}:${this.privacy ? this.privacy.creator : ''}`;
    if (this.waitingEl.dataset.key === key) return;
    this.waitingEl.dataset.key = key;
    fill(this.waitingEl, table.private ? h('p.muted', {style: {textAlign: 'center'}}, t('private.waiting'), ' ',
      this.privacy && this.privacy.creator ? h('button.btn.small', {type: 'button', onclick: () => this.privacy.open()},
        t('private.title')) : null) : h('p.muted', {style: {textAlign: 'center'}}, t('table.share'), ' ',
      h('code', location.href)), you.slot != null ? h('p', {style: {textAlign: 'center'}},
      h('button.btn.small', {type: 'button', onclick: () => this.stand()}, t('table.leaveSeat'))) : null);
    this.endEl.hidden = true;
  }

  // -------------------------------------------------------------- dialogs
  /** The hand history; {last: true}: the game's final hand at its showdown. */
  openHistory({last = false} = {}) {
    const hands = this.log ? this.log.finished() : [];
    const v = this.state.view;
    if (this.replayer) this.replayer.destroy();
    const table = this.state.table || {};
    this.replayer = new Replayer({hands, players: this.log ? this.log.players : (v ? v.seats.map(x => x.player) : []),
      viewer: this.state.you && this.state.you.seat != null ? this.state.you.seat : 0, atEnd: last,
      source: stepsOfTable(table.id, table.game_id ?? null), tableId: table.id,
      gameId: v && v.finished ? table.game_id ?? null : null});  // a finished game's review (issue #36)
    const d = dialog({title: last ? t('end.finalHand') : t('history.title'), body: this.replayer.el, wide: true,
      onClose: () => { this.replayer && this.replayer.stop(); }});
    this.replayer.keysOn(d.el);
  }

  openFairness() {
    const you = this.state.you || {};
    dialog({title: t('fair.title'), body: fairnessPanel({fairness: this.state.fairness, log: this.log, mySeat: you.seat, myCardsByHand: this.myCards, gameByHand: this.dealing,
      commitments: this.commitments})});
  }
}

/** When the board cards of an update that ends the hand (an all-in run-out)
 * are all dealt: the felt deals cards arriving together one after another
 * (cards.js), and the result waits for the last of them and a beat.  Null
 * when nothing is run out or motion is reduced. */
const DEAL_SETTLE = 0.75;  // the last card's own deal (.35 s, style.css) and a beat
function runOutEnds(events, now) {
  if (!events.some(e => e.type === 'hand_ended') || stillQuery.matches) return null;
  const cards = events.filter(e => e.type === 'street_dealt').reduce((n, e) => n + splitCards(e.cards).length, 0);
  return cards ? now + cards * DEAL_STAGGER + DEAL_SETTLE : null;
}

/** The table while a run-out is dealt: the tabled hands and the pot, but no
 * winner, result or hand name yet, and the stacks as they were before it. */
function beforeTheResult(model) {
  const outNow = new Set(model.facts.eliminated.map(e => e.seat));
  const seats = model.seats.map(s => {
    const stack = s.stack - (s.won || 0);
    const allIn = stack === 0 && !!s.cards && !s.flags.folded;
    // who went out in an earlier hand stays out; who goes out in this one is not out yet
    const out = s.flags.out && !outNow.has(s.seat);
    return {...s, stack, won: 0, handName: '', handLabel: '', winCards: null, flags: {...s.flags, winner: false, out, allin: allIn && !out},
      stateText: out ? s.stateText : allIn ? t('table.allIn') : s.flags.out || s.flags.winner ? '' : s.stateText};
  });
  // the pots as they stood, each under its own name, until the last card is down
  const byPot = new Map();
  for (const p of model.view.result || []) byPot.set(p.pot, (byPot.get(p.pot) || 0) + p.amount);
  const pots = [...byPot].filter(([, amount]) => amount > 0)
    .map(([pot, amount]) => ({label: pot === 0 ? t('table.pot') : t('table.sidePot', {n: pot}), amount}));
  return {...model, seats, result: null, pots};
}

/** The hand's result in words for the action bar during the pause (R30). */
function resultNode(result, next) {
  return h('div.hand-result',
    ...result.lines.map(line => h('p', h('b', line.text), line.hand ? h('span.hand', line.hand) : null)),
    ...(result.out || []).map(text => h('p.out', text)),
    next ? h('p.next.muted', next) : null);
}

function icon(id) {
  const ns = 'http://www.w3.org/2000/svg';
  const s = document.createElementNS(ns, 'svg');
  s.setAttribute('class', 'icon');
  s.setAttribute('aria-hidden', 'true');
  const use = document.createElementNS(ns, 'use');
  use.setAttribute('href', '#' + id);
  s.append(use);
  return s;
}

export {handFacts};
