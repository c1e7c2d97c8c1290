// The cash table on the live table page (issue #25, docs/protocol.md "Cash tables"): the
// felt drawn from the cash view, the buy-in and top-up dialogs, and the seat's controls —
// Top up (between hands), Sit out / Sit in, Leave table, Straddle next hand, Run it twice?,
// auto top-up.  Every limit and refusal is the server's: the page offers what the view
// says, sends the intent, and shows the server's answer in words.
import {h, fill, setText, announce} from './dom.js';
import {t, num, ordinal} from './i18n.js';
import * as api from './api.js';
import {openAuth} from './auth.js';
import {dialog, confirmDialog, toast} from './ui.js';
import {refreshBalance, currentBalance, onBalance} from './balance.js';
import {shownName} from './names.js';
import {cashModel, cashResult, barView, stakesText} from './cashview.js';
import {shortGame} from './gamenames.js';
import {waitControls, waitState} from './waitlist.js';
import {showCashRunOut, cashBeforeTheResult} from './runoutodds.js';
import {startTurn} from './tablebar.js';

/** The refusal codes the cash intents get, in the page's words (the server's message kept). */
function refusal(msg) {
  const code = msg.code || 'generic';
  const known = ['insufficient', 'illegal', 'forbidden', 'transfer_mismatch', 'bad_message', 'not_seated', 'stale', 'storage', 'busy',
    'closed'];
  return t('cash.err.' + (known.includes(code) ? code : 'generic'), {message: msg.message || code});
}

export class CashTable {
  /** `page`: the TablePage (its state, connection, felt, action bar and elements). */
  constructor(page) {
    this.page = page;
    this.pending = new Map();  // message id -> what to do with its error: {onError}
    this.straddleWanted = false;
    this.el = h('section.cash-controls', {'aria-label': t('cash.controls')});
    // issue #34: on a phone the seat's controls fold into one button and a sheet over the page
    // (style.css), so the felt keeps the height and your cards stay readable; on a desktop the
    // sheet is drawn in place and the button is hidden
    this.sheet = h('div.cash-sheet', {id: 'cash-sheet', role: 'group', 'aria-label': t('cash.menuLong')});
    this.menuBtn = h('button.btn.small.cash-menu', {type: 'button', 'aria-expanded': 'false', 'aria-controls': 'cash-sheet',
      title: t('cash.menuLong'), onclick: () => this.openMenu(!this.el.classList.contains('open'))}, '⋯ ', t('cash.menu'));
    this.sheetClose = h('button.btn.small.ghost.cash-sheet-close', {type: 'button', onclick: () => this.openMenu(false)}, t('cash.menuClose'));
    this.el.addEventListener('keydown', e => { if (e.key === 'Escape' && this.el.classList.contains('open')) { e.stopPropagation(); this.openMenu(false); } });
    this.offBalance = onBalance(() => { if (this.lastModel) this.renderControls(); });
    // C13: a seat offered from the waiting list counts down while it is held for you
    this.offerTicker = setInterval(() => { if (this.offerShown && this.view) this.renderControls(); }, 1000);
  }

  destroy() {
    clearInterval(this.offerTicker);
    this.offBalance();
    if (this.buyIn) this.buyIn.close();
  }

  /** Open (or close) the phone's sheet of the seat's controls. */
  openMenu(open) {
    this.el.classList.toggle('open', open);
    this.menuBtn.setAttribute('aria-expanded', String(open));
    this.placeSheet();
    if (open) { const first = this.sheet.querySelector('button:not([disabled]):not(.cash-sheet-close), input'); if (first) first.focus(); }
    else if (this.menuBtn.isConnected) this.menuBtn.focus();
  }

  /** The open sheet rises from the action bar's top edge over the felt (style.css): the bar stays
   * whole and usable under it, so a turn that comes while it is open is played as ever. */
  placeSheet() {
    const bar = this.page.bar.el;
    const open = this.el.classList.contains('open') && !bar.hidden;
    const top = open ? bar.getBoundingClientRect().top : 0;
    this.sheet.style.bottom = open ? Math.max(0, innerHeight - top) + 'px' : '';
    this.sheet.style.maxHeight = open ? Math.max(160, top - 8) + 'px' : '';
  }

  get view() { return this.page.state.view; }
  get me() {
    const v = this.view;
    return v && v.you != null ? v.seats[v.you] : null;
  }

  /** Send a cash intent; `onError(msg)` gets its refusal (else a toast says it). */
  send(message, onError = null) {
    const id = this.page.conn.send(message);
    if (id == null) { toast(t('err.network')); return null; }
    this.pending.set(id, {onError});
    return id;
  }

  /** An error the page received: ours when it answers a cash intent. Returns true when handled. */
  onError(msg) {
    if (msg.ref == null || !this.pending.has(msg.ref)) return false;
    const {onError} = this.pending.get(msg.ref);
    this.pending.delete(msg.ref);
    if (onError) onError(msg); else toast(refusal(msg));
    this.renderControls();
    return true;
  }

  /** The table's events: say what happened at the seats; the balance moves with my chips. */
  onEvents(events) {
    const v = this.view;
    const mine = v && v.you != null ? v.you : null;
    const myName = api.currentUser() ? api.currentUser().name : null;
    for (const e of events) {
      const me = (e.slot != null && e.slot === mine) || (e.seat != null && e.seat === mine) || (e.name && e.name === myName);
      const who = shownName(e.name || ((v && v.seats[e.seat ?? e.slot]) || {}).player || '?');
      if (e.type === 'seated' && me && e.moved_from) {
        refreshBalance();
        toast(t('wait.movedIn', {chips: num(e.chips)}), 'info', 8000);
      } else if (e.type === 'seated') {
        if (me) { refreshBalance(); if (this.buyIn) this.buyIn.close('done'); announce(t('cash.youSat', {chips: num(e.chips)})); }
        else announce(t('cash.sat', {name: who, chips: num(e.chips)}));
      } else if (e.type === 'topped_up') {
        if (me) {
          refreshBalance();
          if (this.topUp) this.topUp.close('done');
          toast(t(e.auto ? 'cash.autoToppedUp' : 'cash.youToppedUp', {chips: num(e.chips)}), 'info');
        }
      } else if (e.type === 'auto_top_up_skipped' && me) {
        toast(t('cash.autoTopUpSkipped', {reason: e.reason || ''}), 'info', 6000);
      } else if (e.type === 'waitlist') {
        this.onWaitlist(e);
      } else if (e.type === 'stood' && me && e.moved_to) {
        // C14: this table broke; the server moves you, with your chips, to another of its kind
        toast(t('wait.moving'), 'info', 8000);
        location.hash = '#/table/' + encodeURIComponent(e.moved_to);
      } else if (e.type === 'stood') {
        if (me || e.name === myName) { refreshBalance(); toast(e.chips ? t('cash.youLeft', {chips: num(e.chips)}) : t('cash.youLeftEmpty'), 'info', 6000); }
        else announce(t('cash.left', {name: who}));
      } else if (e.type === 'leaving' && me) toast(t('cash.leavingAtEnd'), 'info', 6000);
      else if (e.type === 'straddle' && me) { this.straddleWanted = false; announce(t('cash.straddlePosted')); }
      else if (e.type === 'run_twice' && me) this.runVote = e.flag ?? true;  // the server's word on your vote (C7)
      else if (e.type === 'hand_started') this.runVote = null;
    }
  }

  /** A waiting-list event (C13): yours are said (a seat offered to you, an offer that lapsed). */
  onWaitlist(e) {
    const user = api.currentUser();
    if (!user || e.user !== user.id) return;
    if (e.event === 'offered') {
      announce(t('wait.offer', {seat: e.seat + 1, s: Math.max(0, Math.ceil(e.until - this.page.now()))}));
      if (this.page.alerts) this.page.alerts.turn();
    } else if (e.event === 'lapsed') toast(t('wait.lapsed'), 'info', 6000);
    else if (e.event === 'joined') announce(t('wait.place', {place: ordinal(e.place), n: e.place}));
  }

  /** "First available" (POST /api/cash/first_available): every public table of this game and stakes. */
  firstAvailable() {
    api.post('/api/cash/first_available', {table: this.page.tableId})
      .then(d => toast(d.free && d.free.length ? t('wait.freeNow') : t('wait.joinedAnywhere', {n: (d.joined || []).length}), 'info', 6000))
      .catch(error => toast(refusal({code: error.code, message: error.message})));
  }

  /** The waiting list's controls for a player without a seat here (waitlist.js), or null. */
  waitPart(v, user) {
    const wait = waitControls(v.waitlist, user, this.page.now(), {
      join: () => this.send({type: 'waitlist_join'}),
      leave: () => this.send({type: 'waitlist_leave'}),
      decline: () => this.send({type: 'decline_seat'}),
      take: offer => this.openBuyIn(offer.seat),
      anywhere: () => this.firstAvailable(),
    });
    this.offerShown = !!(user && waitState(v.waitlist, user.id).offer);
    return wait;
  }

  // ------------------------------------------------------------------ drawing
  render() {
    const page = this.page;
    const s = page.state;
    const v = s.view;
    const now = page.now();
    const model = cashBeforeTheResult(page, cashModel(s, now));  // issue #36: no result until the run-out's last card
    this.lastModel = model;
    page.model = model;
    page.waitingEl.hidden = true;
    page.resignBtn.hidden = true;
    page.endEl.hidden = true;
    page.feltBox.hidden = false;
    page.felt.el.hidden = false;
    if (!page.page.classList.contains('fit')) { page.page.classList.add('fit'); page.fit(); }
    if (!this.el.isConnected) page.bar.el.after(this.el);
    this.renderInfo();
    page.felt.render({...model, result: null, dealOrder: page.settling() ? page.dealOrder : null});
    showCashRunOut(page, model);  // issue #36: each hand's share of each pot while the run-out is dealt
    this.renderBar(model, now);
    this.renderControls();
    // the straddle the player asked for goes in between hands (C6: before the deal)
    if (this.straddleWanted && !v.in_hand && !this.straddleSent && this.me) {
      this.straddleSent = true;
      this.send({type: 'straddle'}, msg => { this.straddleWanted = false; this.straddleSent = false; toast(refusal(msg)); this.renderControls(); });
    }
    if (v.in_hand) this.straddleSent = false;
  }

  renderInfo() {
    const v = this.view;
    const parts = [h('span.pill.cash', t('cash.pill'))];
    if (v.hand > 0) parts.push(h('b', t('table.hand', {n: v.hand})));
    if (v.game_name) parts.push(h('span.game', {title: v.game_name}, shortGame(v.game, v.game_name)));
    parts.push(h('span.stakes', {title: t('cash.stakesLong')}, stakesText(v.stakes)));
    const rake = v.rake || {};
    if (rake.basis_points) parts.push(h('span.muted.rake', {title: t('cash.rakeLong')},
      t('cash.rakeShort', {pct: num(rake.basis_points / 100), cap: num(rake.cap || 0)})));
    const info = this.page.info;
    const key = 'cash|' + parts.map(p => p.textContent).join('|');
    if (info.dataset.key !== key) { info.dataset.key = key; fill(info, ...parts); }
  }

  renderBar(model, now) {
    const page = this.page;
    const s = page.state;
    const v = s.view;
    const clock = s.clock || {};
    const me = this.me;
    let status = '';
    let hurry = false;
    let dontWait = null;
    // C11: once the turn's clock runs out, the time bank runs (the clock's bank_deadline)
    const left = clock.turn_deadline ? Math.max(0, Math.ceil(clock.turn_deadline - now)) : null;
    const bank = left === 0 && clock.bank_deadline ? Math.max(0, Math.ceil(clock.bank_deadline - now)) : null;
    const timeText = bank != null ? t('cash.timeBankRunning', {s: bank}) : left != null ? t('table.timeLeft', {s: left}) : '';
    if (model.acting != null && model.acting === v.you) {
      hurry = left != null && (bank ?? left) <= 10;
      status = t('table.yourTurn') + (timeText ? ' · ' + timeText : '');
    } else if (model.acting != null) {
      const name = shownName(v.seats[model.acting].player || '');
      status = t('act.wait', {name}) + (timeText ? ' ' + timeText : '');
      // C8, R26: the clock and the bank ran out; a player still in the hand may end the turn
      if (clock.expired && me && me.in_hand) dontWait = name;
    } else {
      const result = page.settling() ? null : cashResult(model.facts, v, v.you);
      const next = clock.next_hand_at ? t('act.handOver', {s: Math.max(0, Math.ceil(clock.next_hand_at - now))}) : '';
      const seated = v.seats.filter(x => x.player != null).length;
      const waiting = seated < 2 ? t('cash.needTwo') : '';
      if (result) status = resultNode(result, next || waiting);
      else status = waiting || next;
    }
    if (!me && typeof status === 'string') status = t('cash.notSeated') + (status ? ' · ' + status : '');
    page.bar.el.hidden = false;
    page.bar.el.classList.toggle('hurry', hurry);
    page.keysHint.hidden = !me;
    const legal = model.acting != null && model.acting === v.you ? v.legal || null : null;
    const canPre = !!me && v.in_hand && me.in_hand && me.stack > 0 && model.acting != null && model.acting !== v.you;
    page.bar.update({legal, view: barView(v), status, dontWait, busy: page.busy, canPre});
    const turnKey = legal ? `${v.hand}:${clock.turn_started}` : null;
    if (startTurn(page, legal, turnKey)) return;
    if (!turnKey) page.alerts.stopFlash();
    page.turnKey = turnKey;
  }

  /** The seat's controls, as the view allows them right now. */
  renderControls() {
    const v = this.view;
    if (!v) return;
    const me = this.me;
    const user = api.currentUser();
    if (!me) {
      const held = new Set(((v.waitlist || {}).offers || []).map(o => o.seat));
      const free = v.seats.some(x => x.player == null && !held.has(x.seat));
      const words = !user || user.kind === 'guest' ? t('cash.loginToPlay') : free ? t('cash.pickSeat') : t('cash.full');
      const state = user ? waitState(v.waitlist, user.id) : null;
      const countdown = state && state.offer ? Math.ceil(state.offer.until - this.page.now()) : null;
      const key = 'out|' + words + '|' + JSON.stringify(v.waitlist || null) + '|' + countdown;
      if (this.el.dataset.key === key) return;
      this.el.dataset.key = key;
      this.el.classList.remove('open');
      const wait = this.waitPart(v, user);
      fill(this.el, state && (state.offer || state.place != null) ? null : h('p.cash-hint', words,
        !user || user.kind === 'guest' ? [' ', h('button.btn.small.login', {type: 'button', onclick: () => openAuth('login')}, t('nav.login'))] : null),
      wait);
      return;
    }
    this.offerShown = false;
    const inHand = !!(v.in_hand && (me.in_hand || me.bet || (me.cards && me.cards.length)));
    const sittingOut = me.status === 'sitting out' || me.status === 'away';
    // C7: run it twice is agreed before the last chips go in; a player in the hand may agree
    // (or take it back) at any time, and is asked outright once someone in the hand is all in
    const voting = !!v.run_twice && !!v.in_hand && !!me.in_hand && (v.offers ? !!v.offers.run_twice : true);
    const allIn = voting && v.seats.some(x => x.player != null && x.in_hand && x.stack === 0);
    const bank = me.time_bank ?? me.bank ?? null;
    const free = v.seats.filter(x => x.player == null).length;
    const allInNow = !!v.in_hand && v.seats.some(x => x.player != null && x.in_hand && x.stack === 0);
    const key = JSON.stringify([allInNow, inHand, sittingOut, me.leaving, me.owes, me.stack, v.in_hand, voting, allIn, this.runVote, this.straddleWanted,
      v.straddle, me.auto_top_up, bank, v.buy_in, (currentBalance() || {}).balance, v.offers, v.bots, v.add_bot, free, this.botLevel]);
    if (this.el.dataset.key === key) return;
    this.el.dataset.key = key;
    const topUp = h('button.btn.small.topup', {type: 'button', disabled: inHand || me.leaving, onclick: () => this.openTopUp(),
      title: inHand ? t('cash.topUpInHand') : ''}, t('cash.topUp'));
    const sit = sittingOut
      ? h('button.btn.small.sitin', {type: 'button', disabled: me.leaving, onclick: () => this.sitIn()}, t('cash.sitIn'))
      : h('button.btn.small.ghost.sitout', {type: 'button', disabled: me.leaving, onclick: () => this.send({type: 'sit_out'})}, t('cash.sitOut'));
    const leave = h('button.btn.small.danger.leave', {type: 'button', disabled: me.leaving, onclick: () => this.leave(inHand)},
      me.leaving ? t('cash.status.leaving') : t('cash.leave'));
    const row = [topUp, sit, leave];
    const straddling = !!(v.offers && v.offers.straddling);  // C6: the server has it for the next hand
    if (v.straddle && !sittingOut && !me.leaving && (v.offers ? !!v.offers.straddle || straddling : true)) {
      const box = h('input', {type: 'checkbox', checked: this.straddleWanted || straddling, disabled: straddling, onchange: () => { this.straddleWanted = box.checked; this.straddleSent = false; this.page.render(); }});
      row.push(h('label.check.straddle', box, t('cash.straddle')));
    }
    if (me.auto_top_up !== undefined) {
      const box = h('input', {type: 'checkbox', checked: me.auto_top_up != null && me.auto_top_up !== false,
        onchange: () => this.send({type: 'auto_top_up', to: box.checked ? v.buy_in.max : null})});
      row.push(h('label.check.autotopup', box, t('cash.autoTopUp', {n: num(v.buy_in.max)})));
    }
    const vote = agree => { this.runVote = agree; this.send({type: 'run_twice', agree}); this.renderControls(); };
    if (voting && !allIn) {
      const box = h('input', {type: 'checkbox', checked: this.runVote === true, onchange: () => vote(box.checked)});
      row.push(h('label.check.runtwice-box', box, t('cash.runTwiceBox')));
    }
    const parts = [h('div.cash-row', ...row)];
    // a bot to play with, where a seat is free: the levels are the view's (the bots that play
    // this table's game); the server says whether one may sit now (`add_bot`: hidden where not)
    const levels = v.bots || [];
    if (free && levels.length && (!v.add_bot || v.add_bot.possible)) {
      if (!levels.includes(this.botLevel)) this.botLevel = levels.includes('medium') ? 'medium' : levels[0];
      const pick = h('select.bot-level', {'aria-label': t('cash.addBotLevel'), onchange: () => { this.botLevel = pick.value; }},
        ...levels.map(level => h('option', {value: level, selected: level === this.botLevel}, t('level.' + level))));
      const add = h('button.btn.small.addbot', {type: 'button', onclick: () => this.addBot(add)}, t('cash.addBot'));
      parts.push(h('div.cash-row.addbot-row', h('label.bot-pick', h('span.sr-only', t('cash.addBotLevel')), pick), add));
    }
    // C7: the server says why running it twice is not offered; with a bot in the pot, say so once chips are all in
    // (the all-in's question and its answer stay out of the phone's sheet: they are for now)
    const urgent = [];
    if (v.run_twice && me.in_hand && allInNow && v.offers && v.offers.run_twice_reason === 'bots') {
      urgent.push(h('p.cash-hint.runtwice-why', t('cash.runTwiceBots')));
    }
    if (inHand && !me.leaving) parts.push(h('p.cash-hint.why', t('cash.topUpInHand')));
    if (allIn) {
      urgent.push(h('div.cash-row.runtwice', {role: 'group', 'aria-label': t('cash.runTwice')},
        h('span', t('cash.runTwice')),
        h('button.btn.small.yes', {type: 'button', 'aria-pressed': String(this.runVote === true), onclick: () => vote(true)}, t('cash.yes')),
        h('button.btn.small.no', {type: 'button', 'aria-pressed': String(this.runVote === false), onclick: () => vote(false)}, t('cash.no'))));
    }
    if (bank != null) parts.push(h('p.cash-hint.bank', t('cash.timeBank', {s: num(Math.round(bank))})));
    fill(this.sheet, this.sheetClose, ...parts);
    if (this.menuBtn.parentNode !== this.el || this.sheet.parentNode !== this.el) fill(this.el, this.menuBtn, this.sheet, ...urgent);
    else { while (this.sheet.nextSibling) this.sheet.nextSibling.remove(); this.el.append(...urgent); }
    this.placeSheet();
  }

  // ------------------------------------------------------------------ intents
  /** "Add bot" (POST /api/tables/{id}/bots): the server seats it, or says why not. */
  addBot(button) {
    const level = this.botLevel;
    button.disabled = true;
    api.post(`/api/tables/${encodeURIComponent(this.page.tableId)}/bots`, {level})
      .then(() => announce(t('cash.botAdded', {level: t('level.' + level)})))
      .catch(error => toast(refusal({code: error.code, message: error.message})))
      .finally(() => { button.disabled = false; });
  }

  leave(inHand) {
    if (!inHand) { this.send({type: 'stand'}); return; }
    confirmDialog({title: t('cash.leave'), text: t('cash.leaveInHand'), yes: t('cash.leaveYes'), no: t('cash.stay')})
      .then(ok => { if (ok) this.send({type: 'stand'}); });
  }

  sitIn() {
    const me = this.me;
    const v = this.view;
    const choice = v && v.offers ? !!v.offers.sit_in_choice : !!(me && me.owes);
    if (!me || !choice) { this.send({type: 'sit_in'}); return; }
    // C4, C10: owing missed blinds, post them now or wait for the big blind
    const done = post => { d.close(); this.send({type: 'sit_in', post}); };
    const d = dialog({title: t('cash.sitIn'), body: h('p', t('cash.owes')), actions: [
      h('button.btn.wait', {type: 'button', onclick: () => done(false)}, t('cash.waitBB')),
      h('button.btn.primary.post', {type: 'button', onclick: () => done(true)}, t('cash.postNow'))]});
  }

  /** The seat is empty and you are not seated: the buy-in dialog (guests are told to log in). */
  seatClicked(seat) {
    const v = this.view;
    if (!v || this.me || !v.seats[seat] || v.seats[seat].player != null) return;
    const user = api.currentUser();
    if (!user || user.kind === 'guest') { toast(t('cash.loginToPlay'), 'info', 6000); openAuth('login'); return; }
    const held = ((v.waitlist || {}).offers || []).find(o => o.seat === seat);  // C13: held for the one it is offered to
    if (held && held.user !== user.id) { toast(t('wait.heldFor', {name: shownName(held.name)}), 'info', 6000); return; }
    this.openBuyIn(seat);
  }

  openBuyIn(seat) {
    if (this.buyIn) return;
    const v = this.view;
    const low = v.buy_in.min;
    const balance = currentBalance();
    const high = balance ? Math.min(v.buy_in.max, balance.balance) : v.buy_in.max;
    const form = this.chipsForm({low, high, start: Math.min(high, v.buy_in.max), balance, id: 'buyin'});
    // C4: post a big blind now or wait for it, where the view says the choice is there
    const choice = v.post_choice ?? v.hand > 0;
    let post = null;
    const radios = choice ? h('fieldset.post-choice', h('legend', t('cash.postLegend')),
      ...[['wait', false, t('cash.waitBB')], ['post', true, t('cash.postBB')]].map(([k, value, text]) => {
        const input = h('input', {type: 'radio', name: 'post', id: 'post-' + k, value: k, checked: value === false, onchange: () => { post = value; }});
        return h('label.check', {for: 'post-' + k}, input, text);
      })) : null;
    if (choice) post = false;
    const submit = h('button.btn.primary.buyin-go', {type: 'submit', disabled: high < low}, t('cash.buyIn'));
    const body = h('form.cash-form', {novalidate: true, onsubmit: e => {
      e.preventDefault();
      const chips = form.value();
      if (!(chips >= low && chips <= high)) { form.error(t('cash.outOfRange', {min: num(low), max: num(high)})); return; }
      submit.disabled = true;
      form.error('');
      const message = {type: 'buy_in', chips, slot: seat};
      if (post != null) message.post = post;
      const id = this.send(message, msg => {
        submit.disabled = false;
        form.error(refusal(msg));
        // the balance moved behind this dialog's back (another tab): its limit and the header follow
        if (msg.code === 'insufficient') refreshBalance().then(fresh => { if (fresh && this.buyIn) form.setHigh(Math.min(v.buy_in.max, fresh.balance), fresh, false); });
      });
      if (id == null) submit.disabled = false;
    }}, form.el, radios, h('div.actions', submit));
    this.buyIn = dialog({title: t('cash.buyInTitle', {n: seat + 1}), body, onClose: () => { this.buyIn = null; }});
    this.buyIn.el.classList.add('buyin-dialog');
    refreshBalance().then(fresh => { if (fresh && this.buyIn) form.setHigh(Math.min(v.buy_in.max, fresh.balance), fresh); });
  }

  openTopUp() {
    if (this.topUp) return;
    const v = this.view;
    const me = this.me;
    if (!me || !v.top_up) return;
    const balance = currentBalance();
    // C1, C2: the chips a top-up may add are the view's (`top_up`); the balance caps them further
    const low = v.top_up.min;
    const room = Math.max(0, v.top_up.max);
    const high = balance ? Math.min(room, balance.balance) : room;
    const form = this.chipsForm({low, high, start: high, balance, id: 'topup', stack: me.stack, max: v.buy_in.max});
    const submit = h('button.btn.primary.topup-go', {type: 'submit', disabled: high < low}, t('cash.topUp'));
    const body = h('form.cash-form', {novalidate: true, onsubmit: e => {
      e.preventDefault();
      const chips = form.value();
      if (!(chips >= low && chips <= high)) { form.error(t('cash.outOfRange', {min: num(low), max: num(high)})); return; }
      submit.disabled = true;
      form.error('');
      const id = this.send({type: 'top_up', chips}, msg => { submit.disabled = false; form.error(refusal(msg)); });
      if (id == null) submit.disabled = false;
    }}, form.el, h('div.actions', submit));
    this.topUp = dialog({title: t('cash.topUpTitle'), body, onClose: () => { this.topUp = null; }});
    this.topUp.el.classList.add('topup-dialog');
    refreshBalance().then(fresh => { if (fresh && this.topUp) form.setHigh(Math.min(room, fresh.balance), fresh); });
  }

  /** An amount between `low` and `high`: a slider and a number box, the limits in words. */
  chipsForm({low, high, start, balance, id, stack = null, max = null}) {
    const range = h('input', {type: 'range', id: id + '-range', step: 1, 'aria-label': t('cash.amount')});
    const input = h('input', {type: 'number', id: id + '-amount', inputmode: 'numeric', step: 1, 'aria-label': t('cash.amount')});
    const limits = h('p.limits');
    const have = h('p.have');
    const err = h('p.error-text.cash-error', {role: 'alert', hidden: true});
    const set = (lo, hi, bal) => {
      range.min = input.min = String(lo);
      range.max = input.max = String(Math.max(lo, hi));
      setText(limits, t('cash.limits', {min: num(lo), max: num(Math.max(lo, hi))}));
      setText(have, (bal ? t('cash.balance', {n: num(bal.balance)}) : '') + (stack != null ? ' · ' + t('cash.stackNow', {n: num(stack), max: num(max)}) : ''));
      if (hi < lo) { err.hidden = false; setText(err, bal && bal.balance < lo ? t('cash.tooPoor', {min: num(lo)}) : t('cash.atMax')); }
    };
    set(low, high, balance);
    const value0 = Math.max(low, Math.min(high, start));
    range.value = input.value = String(value0);
    range.addEventListener('input', () => { input.value = range.value; });
    input.addEventListener('input', () => { range.value = input.value; });
    const el = h('div.chips-form', h('label', {for: id + '-amount'}, t('cash.amount')), h('div.amount-row', range, input), limits, have, err);
    return {
      el,
      value: () => Number(input.value),
      error: text => { err.hidden = !text; setText(err, text); },
      setHigh: (hi, bal, clear = true) => {
        if (clear) err.hidden = true;
        set(low, hi, bal);
        if (Number(input.value) > hi) range.value = input.value = String(Math.max(low, hi));
      },
    };
  }
}

/** The hand's result under the felt: each run's board and winners (C7) and the rake (C5). */
function resultNode(result, next) {
  return h('div.hand-result.cash-result',
    ...result.lines.map(line => h('p' + (line.run ? '.run' : ''), line.run ? {dataset: {run: String(line.run)}} : {},
      h('b', line.text), line.hand ? h('span.hand', line.hand) : null)),
    result.rake ? h('p.rake.muted', t('cash.rakeTaken', {n: num(result.rake)})) : null,
    next ? h('p.next.muted', next) : null);
}
