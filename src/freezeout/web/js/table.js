// The live table page: one WebSocket, the felt, the action bar, the hand
// result during the pause (R30), the end screen, history and fairness.
import {h, setText, announce, fill} from './dom.js';
import {t, num, ordinal} from './i18n.js';
import {TableConnection} from './conn.js';
import {Felt} from './felt.js';
import {ActionBar} from './actionbar.js';
import {tableModel, handFacts, blindSeats} from './model.js';
import {GameLog, rememberGame} from './gamelog.js';
import {Replayer} from './replayer.js';
import {fairnessPanel} from './fairness.js';
import {lineChart, PALETTE} from './chart.js';
import {describeRank, splitCards} from './poker.js';
import * as api from './api.js';
import {toast, dialog, confirmDialog} from './ui.js';

const metrics = (window.__fzMetrics = window.__fzMetrics || {updates: []});

export class TablePage {
  constructor(main, tableId, {connect} = {}) {
    this.connect = connect || ((id, handlers) => new TableConnection(id, handlers));
    this.main = main;
    this.tableId = tableId;
    this.state = {view: null, table: null, clock: null, presence: null, you: null, events: [], fairness: null, version: null};
    this.skew = 0;
    this.busy = false;
    this.gameOver = null;
    this.rematchFrom = new Set();
    this.myCards = {};
    this.felt = new Felt({onSeatClick: seat => this.seatClicked(seat)});
    this.bar = new ActionBar({
      onAct: (move, amount) => this.act(move, amount),
      onDontWait: () => this.dontWait(),
    });
    this.build();
    this.conn = this.connect(tableId, {
      onMessage: msg => this.onMessage(msg),
      onStatus: status => this.onStatus(status),
    });
    this._key = e => this.onKey(e);
    document.addEventListener('keydown', this._key);
    this.ticker = setInterval(() => this.tick(), 250);
    window.__fzTable = this; // for the browser tests and the curious
  }

  destroy() {
    if (window.__fzTable === this) window.__fzTable = null;
    clearInterval(this.ticker);
    document.removeEventListener('keydown', this._key);
    this.conn.close();
    this.felt.destroy();
    if (this.replayer) this.replayer.destroy();
  }

  // ------------------------------------------------------------------ DOM
  build() {
    this.info = h('div.info', {'aria-live': 'off'});
    this.connEl = h('span.conn', {role: 'status'});
    this.historyBtn = h('button.btn.small.ghost', {type: 'button', onclick: () => this.openHistory(), 'aria-keyshortcuts': 'H',
      'aria-label': t('table.history'), title: t('table.history')}, icon('i-history'), h('span.tool-label', t('table.history')), h('kbd', 'H'));
    this.fairBtn = h('button.btn.small.ghost', {type: 'button', onclick: () => this.openFairness(), 'aria-label': t('table.fairness'),
      title: t('table.fairness')}, icon('i-lock'), h('span.tool-label', t('table.fairness')));
    this.resignBtn = h('button.btn.small.danger', {type: 'button', onclick: () => this.askResign(), hidden: true}, t('table.resign'));
    const head = h('div.table-head',
      h('a.btn.small.ghost', {href: '#/', 'aria-label': t('table.back')}, '←', h('span.tool-label', ' ' + t('table.back'))),
      this.info, h('span.spacer'), this.connEl,
      h('div.side-tools', this.historyBtn, this.fairBtn, this.resignBtn));
    this.waitingEl = h('div.waiting-room', {hidden: true});
    this.endEl = h('section.endscreen', {hidden: true, 'aria-live': 'polite'});
    this.keysHint = h('p.muted.shortcut-hint', {style: {textAlign: 'center', fontSize: '.8rem', margin: 0}}, t('table.shortcuts'));
    this.page = h('div.table-page', head, this.endEl, this.felt.el, this.waitingEl, this.bar.el, this.keysHint);
    fill(this.main, this.page);
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
      case 'error': this.onError(msg); return;
      case 'pong': if (typeof msg.now === 'number') this.skew = msg.now - Date.now() / 1000; return;
      default: return;
    }
    this.render();
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
    if (msg.view) this.lastHand = msg.view.hand_number;
    for (const e of s.events) if (e.type === 'hand_ended') this.lastEndStacks = e.stacks;
    this.ensureLog();
    if (this.log && s.events.length) this.log.setCurrent(s.events);
    if (this.log) this.log.addFairness(s.fairness);
    this.syncSeat();
    this.noteMyCards();
    this.noteTableEvents(msg.events || []);
  }

  applyUpdate(msg) {
    const s = this.state;
    const events = this.repair(msg.events || [], msg.view);
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
    this.ensureLog();
    if (this.log) { this.log.add(events); this.log.addFairness(s.fairness); }
    this.syncSeat();
    this.noteMyCards();
    this.noteTableEvents(events);
    this.announceEvents(events);
  }

  /**
   * Work around a server that drops the first events of a deal (hand_started
   * and the small blind; see the report to the server lead): rebuild them
   * from the view and the previous hand's final stacks. A no-op once the
   * server sends them.
   */
  repair(events, view) {
    let out = events;
    const number = view && view.hand_number;
    if (number && number !== this.lastHand && !events.some(e => e.type === 'hand_started')) {
      const seats = view.seats.filter(x => x.in_hand || x.folded || x.all_in).map(x => x.seat);
      const prev = this.lastEndStacks;
      const stacks = seats.map(seat => prev && prev[seat] != null ? prev[seat] : view.seats[seat].stack + view.seats[seat].bet);
      const start = {type: 'hand_started', number, button: view.button, small_blind: view.blinds[0], big_blind: view.blinds[1], seats, stacks};
      const posted = new Set(events.filter(e => e.type === 'blind_posted').map(e => e.seat));
      const {sb, bb} = blindSeats(view);
      const extra = [];
      for (const [seat, kind] of [[sb, 'small blind'], [bb, 'big blind']]) {
        const x = seat != null && view.seats[seat];
        if (x && !posted.has(seat) && x.bet > 0) extra.push({type: 'blind_posted', seat, kind, amount: x.bet, all_in: x.stack === 0});
      }
      out = [start, ...extra, ...events];
    }
    // drop an exact repeat of the previous hand_ended
    out = out.filter((e, i) => !(e.type === 'hand_ended' && this.lastEnded && JSON.stringify(e) === this.lastEnded && i === out.findIndex(x => x.type === 'hand_ended')));
    for (const e of out) if (e.type === 'hand_ended') { this.lastEndStacks = e.stacks; this.lastEnded = JSON.stringify(e); }
    if (out.some(e => e.type === 'hand_started')) this.lastEnded = null;
    if (number) this.lastHand = number;
    return out;
  }

  onGameStarted(e) {
    this.lastHand = null;
    this.lastEndStacks = null;
    this.gameOver = null;
    this.rematchFrom = new Set();
    this.rematchSent = false;
    this.log = null;
    this.myCards = {};
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
      const you = this.state.you;
      if (you && you.seat != null) rememberGame({id: gameId, table: this.tableId, players: table.players, at: Date.now()});
    }
  }

  /** Our tournament seat: the view is built for it (updates carry no `you`). */
  syncSeat() {
    const s = this.state;
    if (!s.you) s.you = {user: api.currentUser(), seat: null, slot: null};
    if (s.view) s.you.seat = s.view.viewer ?? null;
  }

  noteMyCards() {
    const v = this.state.view;
    if (!v || v.viewer == null || !v.seats[v.viewer] || !v.seats[v.viewer].cards) return;
    this.myCards[v.hand_number] = splitCards(v.seats[v.viewer].cards);
  }

  noteTableEvents(events) {
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
    const name = seat => (v.seats[seat] || {}).player || '?';
    for (const e of events) {
      if (e.type === 'pot_awarded') {
        const winners = e.shares.filter(x => x[1] > 0).map(x => name(x[0])).join(', ');
        announce(t('result.wins', {name: winners, amount: e.amount}) + (e.rank ? ', ' + describeRank(e.rank) : ''));
      } else if (e.type === 'resigned') toast(t('table.resigned', {name: name(e.seat)}), 'info');
      else if (e.type === 'dont_wait') toast(t('table.dontWaitBy', {by: name(e.by), name: name(e.seat)}), 'info');
      else if (e.type === 'forfeited') announce(t('table.forfeited', {name: name(e.seat)}));
    }
  }

  onError(msg) {
    this.busy = false;
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
    if (amount != null && (move === 'bet' || move === 'raise')) message.amount = amount;
    if (this.conn.send(message) != null) {
      this.busy = true;
      this.render();
    }
  }

  dontWait() {
    if (this.state.version == null) return;
    this.conn.send({type: 'dont_wait', version: this.state.version});
  }

  async askResign() {
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
    if (s.view || !s.table || s.table.status !== 'waiting') return;
    const slot = s.table.slots[seat];
    if (!slot || slot.user || slot.bot) return;
    if (s.you && s.you.slot != null) return;
    try {
      if (!api.currentUser()) await api.ensureGuest();
      // the WebSocket was authenticated before: sit over HTTP, then rejoin
      await api.post(`/api/tables/${encodeURIComponent(this.tableId)}/sit`, {slot: seat});
      this.reconnect();
    } catch (e) {
      toast(e.code === 'forbidden' ? t('err.forbidden', {message: e.message}) : t('err.generic', {message: e.message}));
    }
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
      h: () => this.openHistory(),
      enter: () => { if (e.target === document.body || e.target.tagName !== 'BUTTON') bar.confirm(); else return false; },
      arrowup: () => bar.adjust(1),
      arrowdown: () => bar.adjust(-1),
      1: () => bar.quick(0), 2: () => bar.quick(1), 3: () => bar.quick(2), 4: () => bar.quick(3), 5: () => bar.quick(4),
    }[k];
    if (handled && handled() !== false) e.preventDefault();
  }

  // -------------------------------------------------------------- render
  tick() {
    const s = this.state;
    if (!s.view || !s.clock) return;
    // repaint only while something time-dependent is visible
    if ((!s.view.hand_over && s.clock.turn_deadline) || s.clock.next_hand_at) this.render();
  }

  render() {
    const s = this.state;
    if (!s.table) return;
    this.renderInfo();
    const you = s.you || {};
    const playing = s.view && !s.view.finished;
    const me = s.view && you.seat != null ? s.view.seats[you.seat] : null;
    this.resignBtn.hidden = !(playing && me && me.in_tournament);
    if (!s.view) { this.renderWaiting(); return; }
    this.waitingEl.hidden = true;
    const now = this.now();
    const model = tableModel(s, now);
    this.model = model;
    this.felt.el.hidden = !!s.view.finished;
    this.felt.render({...model, result: null});
    this.renderBar(model, now);
    this.renderEnd(model);
  }

  renderInfo() {
    const s = this.state;
    const v = s.view;
    const parts = [];
    if (v && v.hand_number > 0) {
      parts.push(h('b', t('table.hand', {n: v.hand_number})));
      parts.push(h('span', h('span.long', t('table.blindsWord') + ' '), `${num(v.blinds[0])}/${num(v.blinds[1])}`));
      const left = v.hands_to_next_level;
      const dots = h('span.level-dots', {'aria-hidden': 'true'});
      for (let i = 0; i < 6; i++) dots.append(h('i' + (i < 6 - left ? '.on' : '')));
      if (v.blinds[1] < 1000) {
        const text = left === 0 ? t('table.lastOfLevel') : t('table.nextLevel', {n: left + 1});
        parts.push(h('span.muted.level', {title: text, 'aria-label': text}, dots, ' ', h('span.long', text), h('span.short', {'aria-hidden': 'true'}, '↑' + (left + 1))));
      }
    } else if (s.table) {
      parts.push(h('b', t('tables.table', {id: String(s.table.id).slice(0, 6)})));
    }
    if (s.table && s.table.ranked) parts.push(h('span.pill.ranked', t('tables.ranked')));
    const key = parts.map(p => p.textContent).join('|');
    if (this.info.dataset.key !== key) { this.info.dataset.key = key; fill(this.info, ...parts); }
  }

  renderBar(model, now) {
    const s = this.state;
    const v = s.view;
    const you = s.you || {};
    const me = you.seat != null ? v.seats[you.seat] : null;
    const clock = s.clock || {};
    let status = '';
    let dontWait = null;
    const acting = model.acting;
    const actingName = acting != null ? v.seats[acting].player : '';
    if (v.finished) {
      status = '';
    } else if (v.hand_over) {
      const left = clock.next_hand_at ? Math.max(0, Math.ceil(clock.next_hand_at - now)) : null;
      const next = v.hand_number === 0 ? t('table.starting') : left != null ? t('act.handOver', {s: left}) : '';
      status = model.result ? resultNode(model.result, next) : next;
    } else if (acting != null && acting === you.seat) {
      const left = clock.turn_deadline ? Math.max(0, Math.ceil(clock.turn_deadline - now)) : null;
      status = t('table.yourTurn') + (left != null ? ' · ' + t('table.timeLeft', {s: left}) : '');
    } else if (acting != null) {
      if (model.expired) {
        status = t('table.timeUp', {name: actingName});
        if (me && me.in_tournament) dontWait = actingName;
      } else {
        const left = clock.turn_deadline ? Math.max(0, Math.ceil(clock.turn_deadline - now)) : null;
        status = t('act.wait', {name: actingName}) + (left != null ? ' ' + t('table.timeLeft', {s: left}) : '');
      }
    }
    if (you.seat == null && !v.finished) status = t('table.spectating') + (status ? ' ' + status : '');
    this.bar.el.hidden = !!v.finished;
    this.keysHint.hidden = you.seat == null || !!v.finished;
    const legal = !v.hand_over && acting === you.seat ? v.legal : null;
    this.bar.update({legal, view: v, status, dontWait, busy: this.busy});
    if (legal && !this.wasMyTurn) announce(t('table.yourTurn'));
    this.wasMyTurn = !!legal;
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
        const name = user ? user.name : slot.bot ? 'bot-' + slot.bot : '';
        return {seat: i, name, stack: 1000, bet: 0, cards: null, empty: !user && !slot.bot,
          stateText: !user && !slot.bot ? t('table.sitHere') : '', flags: {me: you.slot === i, empty: !user && !slot.bot}};
      }),
    });
    const free = slots.filter(x => !x.user && !x.bot).length;
    this.bar.el.hidden = false;
    this.bar.update({legal: null, view: null, status: free ? t('table.waitingFor', {n: free}) : t('table.starting')});
    this.waitingEl.hidden = false;
    const key = `${free}:${you.slot}:${n}`;
    if (this.waitingEl.dataset.key === key) return;
    this.waitingEl.dataset.key = key;
    fill(this.waitingEl, h('p.muted', {style: {textAlign: 'center'}}, t('table.share'), ' ',
      h('code', location.href)), you.slot != null ? h('p', {style: {textAlign: 'center'}},
      h('button.btn.small', {type: 'button', onclick: () => this.stand()}, t('table.leaveSeat'))) : null);
    this.endEl.hidden = true;
  }

  renderEnd(model) {
    const s = this.state;
    const v = s.view;
    if (!v.finished) { this.endEl.hidden = true; this.endKey = null; return; }
    const you = s.you || {};
    const status = s.table.status;
    const key = JSON.stringify([this.gameOver, [...this.rematchFrom], this.rematchSent, status, s.table.game_id, this.log ? this.log.hands.length : 0]);
    if (this.endKey === key) return;
    this.endKey = key;
    this.endEl.hidden = false;
    const players = v.seats.map(x => x.player);
    const winner = v.seats.find(x => x.place === 1);
    const ratings = this.gameOver && this.gameOver.ratings;
    const me = you.seat != null ? v.seats[you.seat] : null;
    const title = me && me.place === 1 ? t('end.youWin') : t('end.winner', {name: winner ? winner.player : '?'});
    const rows = [...v.seats].sort((a, b) => (a.place ?? 99) - (b.place ?? 99)).map(x => {
      const r = ratings && ratings[x.player];
      let elo = null;
      if (r) {
        const d = Math.round(r[1] - r[0]);
        elo = h('span', num(Math.round(r[0])), ' → ', h('b', num(Math.round(r[1]))), ' ',
          h('span.elo-delta.' + (d >= 0 ? 'up' : 'down'), (d >= 0 ? '+' : '−') + num(Math.abs(d))));
      }
      return h('tr' + (x.seat === you.seat ? '.me' : ''), h('td.num', x.place != null ? ordinal(x.place) : '–'),
        h('td', x.player), s.table.ranked ? h('td.num.elo', {dataset: {player: x.player}}, elo || '…') : null);
    });
    const standings = h('table.grid', h('caption', t('end.standings')),
      h('thead', h('tr', h('th.num', t('end.place')), h('th', t('end.player')), s.table.ranked ? h('th.num', t('end.elo')) : null)),
      h('tbody', ...rows));
    const series = this.log ? this.log.stackSeries(players.length) : [];
    const chart = series.length > 1 ? lineChart(players.map((p, i) => ({name: p, color: PALETTE[i], points: series.map(pt => [pt.hand, pt.stacks[i]])})),
      {label: t('end.chartLabel'), yZero: true}) : h('p.muted', t('history.empty'));
    const canRematch = me && status === 'finished';
    const accepted = [...this.rematchFrom].map(seat => players[seat]).filter(Boolean);
    const gameId = s.table.game_id;
    const actions = h('div.end-actions',
      canRematch ? h('button.btn.primary', {type: 'button', disabled: this.rematchSent || this.rematchFrom.has(you.seat),
        title: t('end.rematchHint'), onclick: () => this.rematch()}, '↻ ', t('end.rematch')) : null,
      h('button.btn', {type: 'button', onclick: () => this.openHistory()}, t('table.history')),
      gameId != null ? h('a.btn', {href: `/api/games/${gameId}/record`, download: `freezeout-game-${gameId}.json`}, '⤓ ', t('end.record')) : null,
      gameId != null ? h('a.btn', {href: `/api/games/${gameId}/phh`, download: `freezeout-game-${gameId}.phh`}, '⤓ ', t('end.phh')) : null,
      h('a.btn.ghost', {href: '#/'}, t('end.lobby')));
    const rematchInfo = h('p.muted', {style: {textAlign: 'center', margin: '.4rem 0 0'}, role: 'status'},
      this.rematchSent || this.rematchFrom.has(you.seat) ? t('end.rematchWaiting') : '',
      accepted.filter(n => !me || n !== me.player).map(n => ' ' + t('end.rematchAccepted', {name: n})).join(''));
    fill(this.endEl, 
      h('div.panel.banner', trophy(), h('h1', title),
        me && me.place !== 1 && me.place != null ? h('p', t('end.youPlace', {place: ordinal(me.place)})) : null,
        h('p.muted', t('end.hands', {n: v.hand_number}), s.table.ranked ? '' : ' · ' + t('end.unranked')), actions, rematchInfo),
      h('div.panel', standings),
      h('div.panel', h('h2', t('end.chart')), chart));
    if (s.table.ranked && !ratings) this.fetchRatings(players, gameId);
  }

  /** Elo after a reconnect (the game_over event may be gone): read the players' histories. */
  async fetchRatings(players, gameId) {
    if (this.fetchingRatings === gameId) return;
    this.fetchingRatings = gameId;
    const ratings = {};
    for (const p of players) {
      try {
        const data = await api.get(`/api/users/${encodeURIComponent(p)}/ratings`);
        const entry = (data.history || []).find(x => String(x.game) === String(gameId));
        if (entry) ratings[p] = [entry.before, entry.after];
      } catch { /* guests have no ratings */ }
    }
    if (Object.keys(ratings).length && !this.gameOver) {
      this.gameOver = {type: 'game_over', game_id: gameId, ratings};
      this.endKey = null;
      this.render();
    }
  }

  // -------------------------------------------------------------- dialogs
  openHistory() {
    const hands = this.log ? this.log.finished() : [];
    const v = this.state.view;
    if (this.replayer) this.replayer.destroy();
    // add the viewer's own hole cards to hands not revealed yet (none: a finished hand is revealed)
    this.replayer = new Replayer({hands, players: this.log ? this.log.players : (v ? v.seats.map(x => x.player) : []),
      viewer: this.state.you && this.state.you.seat != null ? this.state.you.seat : 0});
    dialog({title: t('history.title'), body: this.replayer.el, wide: true, onClose: () => { this.replayer && this.replayer.stop(); }});
    this.replayer.el.focus();
  }

  openFairness() {
    const you = this.state.you || {};
    dialog({title: t('fair.title'), body: fairnessPanel({fairness: this.state.fairness, log: this.log, mySeat: you.seat, myCardsByHand: this.myCards})});
  }
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

function trophy() {
  const ns = 'http://www.w3.org/2000/svg';
  const s = document.createElementNS(ns, 'svg');
  s.setAttribute('viewBox', '0 0 64 64');
  s.setAttribute('class', 'trophy');
  s.setAttribute('aria-hidden', 'true');
  s.innerHTML = '<path d="M18 8h28v10c0 10-6 18-14 18S18 28 18 18z" fill="#f2c14e"/><path d="M18 12H8c0 9 5 14 12 15M46 12h10c0 9-5 14-12 15" fill="none" stroke="#f2c14e" stroke-width="4"/><rect x="28" y="36" width="8" height="10" fill="#d9a531"/><rect x="20" y="46" width="24" height="8" rx="2" fill="#8a5a1c"/><path d="M32 14l2.4 5 5.4.6-4 3.7 1.1 5.3-4.9-2.8-4.9 2.8 1.1-5.3-4-3.7 5.4-.6z" fill="#fff8dc"/>';
  return s;
}

export {handFacts};
