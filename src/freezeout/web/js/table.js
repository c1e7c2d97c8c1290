// The live table page: one WebSocket, the felt, the action bar, the hand
// result during the pause (R30) — the game's last hand too, before the end
// screen — turn alerts, history and fairness.  Each job of its own is a module:
// the head (tablehead.js), the bar (tablebar.js), the felt's fit (tablefit.js),
// the keyboard (tablekeys.js), a waiting table (tablewait.js), a run-out
// (tablerunout.js), what is said aloud (tableannounce.js), a cash table
// (cashtable.js), a private one (privatetable.js) and the end (endscreen.js).
import {h, setText, fill} from './dom.js';
import {t} from './i18n.js';
import {TableConnection} from './conn.js';
import {Felt} from './felt.js';
import {DEAL_STAGGER} from './cards.js';
import {ActionBar} from './actionbar.js';
import {tableModel, handFacts} from './model.js';
import {GameLog, rememberGame} from './gamelog.js';
import {Replayer, stepsOfTable} from './replayer.js';
import {Commitments, fairnessPanel} from './fairness.js';
import {splitCards} from './poker.js';
import {shownName} from './names.js';
import {renderEnd} from './endscreen.js';
import {TurnAlerts, soundOn, setSound} from './alerts.js';
import * as api from './api.js';
import {toast, dialog, confirmDialog} from './ui.js';
import {isCash} from './cashview.js';
import {HOUSE_GAME} from './gamenames.js';
import {CashTable} from './cashtable.js';
import {PrivateTable} from './privatetable.js';
import {ChatPanel} from './chat.js';
import {loadNotes, onNotes, accountsOf, decorateSeats, editNote} from './notes.js';
import {liveRunOut, showRunOutOdds} from './runoutodds.js';
import {renderInfo, icon} from './tablehead.js';
import {renderBar} from './tablebar.js';
import {fit, holdBarHeight} from './tablefit.js';
import {onKey} from './tablekeys.js';
import {renderWaiting} from './tablewait.js';
import {DEAL_SETTLE, runOutEnds, runOutOrder, beforeTheResult} from './tablerunout.js';
import {announceEvents} from './tableannounce.js';

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
    this.dealOrder = null;  // the run-out being dealt: each card's place in it (tablerunout.js runOutOrder)
    this.chatIds = new Set();  // the ids of the chat lines sent: their refusals are the chat's to say
    this.build();
    this.conn = this.connect(tableId, {
      onMessage: msg => this.onMessage(msg),
      onStatus: status => this.onStatus(status),
    });
    this._key = e => onKey(this, e);
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
    this.barObserver = new ResizeObserver(() => holdBarHeight(this));
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
    if (settle != null) {
      this.settleUntil = settle;
      this.dealOrder = runOutOrder(events);  // the felt deals the run-out street by street (stud too)
    } else if (events.some(e => e.type === 'hand_started')) this.settleUntil = null;
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
    announceEvents(this, events);
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
    renderInfo(this);
    const you = s.you || {};
    const playing = s.view && !s.view.finished;
    const me = s.view && you.seat != null ? s.view.seats[you.seat] : null;
    if (!s.view) { this.resignBtn.hidden = !(playing && me && me.in_tournament); renderWaiting(this); return; }
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
    this.felt.render({...model, result: null, dealOrder: this.settling() ? this.dealOrder : null});
    // the run-out being dealt: each face-up hand's share of the pot by its seat (issue #36)
    const street = this.settling() ? liveRunOut(model, s.events, now, this.settleUntil, DEAL_STAGGER, DEAL_SETTLE) : null;
    showRunOutOdds(this.felt, street, s.view.game || HOUSE_GAME, () => this.model === model);
    renderBar(this, model, now, ended);
    renderEnd(this);
  }

  /** Shrink the felt into the room the head and the bar leave it (tablefit.js; cashtable.js asks too). */
  fit() { fit(this); }

  /** The cash table's part of the page (cashtable.js), made when a cash table is seen. */
  cashTable() {
    if (!this.cash) this.cash = new CashTable(this);
    return this.cash;
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

export {handFacts};
