// Step-by-step replayer of a hand from its public events (and, once the
// hand is over, the cards it opened: shown hands and your own, R17 + fairness).
import {h, setText, fill} from './dom.js';
import {t, ordinal} from './i18n.js';
import {splitCards, handName, cardsText, inSentence} from './poker.js';
import {shownName} from './names.js';
import {Felt} from './felt.js';

/** The opened cards in their places: the server says which deck position became whose
 * card (`revealed.where`), so the page needs no dealing rules of its own; ?? where not opened. */
export function placeOpened(revealed) {
  const cards = splitCards(revealed.deck);
  const hole = {};
  for (const [seat, positions] of Object.entries(revealed.where.hole)) hole[seat] = positions.map(p => cards[p]);
  return {hole, board: revealed.where.board.map(p => cards[p])};
}

/** Every step of a hand: [{text, model}], built from its events. */
export function handSteps(hand, players, viewer = 0) {
  const events = hand.events;
  const start = events.find(e => e.type === 'hand_started');
  if (!start) return [];
  const n = players.length;
  const name = seat => shownName(players[seat] ?? '?');
  const dealt = hand.revealed && hand.revealed.deck && hand.revealed.where ? placeOpened(hand.revealed) : null;
  const seats = players.map((player, seat) => {
    const i = start.seats.indexOf(seat);
    return {seat, name: player, stack: i >= 0 ? start.stacks[i] : 0, bet: 0, inHand: i >= 0, folded: false, allin: false,
      cards: i >= 0 ? (dealt ? dealt.hole[seat].map(c => c === '??' ? 'back' : c) : ['back', 'back']) : null, handName: '', out: i < 0, place: null,
      best: null, won: 0};
  });
  let board = [];
  let pot = 0;
  let sb = null, bb = null;
  const winners = new Set();
  const timedOut = new Set();
  const steps = [];
  const snap = text => {
    steps.push({text, model: {
      viewer, animate: false, button: start.button, sb, bb, board: board.slice(),
      pots: pot ? [{label: t('table.pot'), amount: pot}] : [],
      seats: seats.map(s => ({seat: s.seat, name: s.name, stack: s.stack, bet: s.bet, cards: s.folded ? null : s.cards,
        handName: s.handName, handLabel: s.handName.split(';')[0], won: s.won, winCards: s.won ? s.best : null,
        stateText: s.place != null ? t('table.out', {place: ordinal(s.place)}) : s.folded ? t('table.folded') : s.allin ? t('table.allIn') : '',
        flags: {folded: s.folded, allin: s.allin, out: s.out, winner: winners.has(s.seat)}})),
    }});
  };
  const collect = () => { for (const s of seats) { pot += s.bet; s.bet = 0; } };
  snap(t('history.start', {sb: start.small_blind, bb: start.big_blind, name: name(start.button)}));
  for (const e of events) {
    const s = seats[e.seat];
    switch (e.type) {
      case 'blind_posted':
        if (e.kind === 'small blind') sb = e.seat; else if (e.kind === 'big blind') bb = e.seat;
        s.bet += e.amount; s.stack -= e.amount; s.allin = e.all_in;
        snap(t('history.posts', {name: name(e.seat), kind: e.kind === 'small blind' ? t('table.sbLong') : e.kind === 'big blind' ? t('table.bbLong') : e.kind, amount: e.amount}));
        break;
      case 'action_taken': {
        s.bet = e.total; s.stack -= e.added; s.allin = e.all_in;
        if (e.kind === 'fold') s.folded = true;
        const key = e.forced ? 'history.timeout' : 'history.' + e.kind;
        let text = t(key, {name: name(e.seat), amount: e.kind === 'call' ? e.added : e.total});
        if (e.forced) text += ' — ' + t('history.' + e.kind, {name: '', amount: 0}).trim();
        if (e.all_in && !e.forced) text += t('history.allin');
        snap(text);
        break;
      }
      case 'bet_returned':
        s.bet -= e.amount; s.stack += e.amount;
        snap(t('history.returned', {name: name(e.seat), amount: e.amount}));
        break;
      case 'street_dealt':
        collect();
        board = board.concat(splitCards(e.cards));
        snap(t('history.street.' + e.street) + ': ' + cardsText(e.cards));
        break;
      case 'cards_shown':
        s.cards = splitCards(e.cards);
        s.handName = handName(e);
        s.best = e.best ? splitCards(e.best) : null;
        snap(t('history.shows', {name: name(e.seat), cards: cardsText(e.cards), hand: inSentence(s.handName)}));
        break;
      case 'pot_awarded':
        collect();
        for (const [seat, chips] of e.shares) { seats[seat].stack += chips; seats[seat].won += chips; if (chips > 0) winners.add(seat); }
        pot = Math.max(0, pot - e.amount);
        snap(t('history.won', {name: e.shares.filter(x => x[1] > 0).map(x => name(x[0])).join(' & '), amount: e.amount}) +
          (handName(e) ? ' — ' + inSentence(handName(e)) : ''));
        break;
      case 'forfeited':
        if (e.in_a_row >= 2) timedOut.add(e.seat);
        break;
      case 'resigned':
        if (s) { s.folded = true; s.stack = 0; }
        snap(t(timedOut.has(e.seat) ? 'history.timedOut' : 'history.resigned', {name: name(e.seat), n: e.vanished}));
        break;
      case 'eliminated':
        if (s) { s.place = e.place; s.out = true; }
        snap(t('history.eliminated', {name: name(e.seat), place: ordinal(e.place)}));
        break;
      case 'hand_ended':
        collect();
        pot = 0;
        e.stacks.forEach((v, seat) => { if (seats[seat]) seats[seat].stack = v; });
        snap(t('history.ended'));
        break;
      default: break;
    }
  }
  return steps;
}

/** The replayer widget: hand picker, felt, controls, step log. */
export class Replayer {
  constructor({hands, players, viewer = 0, atEnd = false}) {
    this.atEnd = atEnd;
    this.hands = hands;
    this.players = players;
    this.viewer = viewer;
    this.felt = new Felt();
    this.stage = h('div.stage', this.felt.el);
    this.stepText = h('p.step-text', {'aria-live': 'polite'});
    this.counter = h('span.muted.num');
    this.playBtn = h('button.btn.small', {type: 'button', onclick: () => this.togglePlay()}, t('history.play'));
    const btn = (label, key, fn) => h('button.btn.small.ghost', {type: 'button', 'aria-label': label, title: `${label} (${key})`, onclick: fn}, key);
    this.controls = h('div.controls',
      btn(t('history.first'), '|◀', () => this.go(0)),
      btn(t('history.prev'), '◀', () => this.go(this.i - 1)),
      this.playBtn,
      btn(t('history.next'), '▶', () => this.go(this.i + 1)),
      btn(t('history.last'), '▶|', () => this.go(this.steps.length - 1)),
      this.counter);
    this.list = h('div.hands', {role: 'group', 'aria-label': t('history.title')});
    this.log = h('ol.log');
    this.el = h('div.replayer', {tabindex: '-1'}, this.list, this.stage, this.stepText, this.controls, this.log);
    this.renderList();
    if (hands.length) this.pick(hands[hands.length - 1].number);
    else {
      // nothing finished yet (hand 1): say so, no empty felt with stray markers
      this.stepText.textContent = t('history.empty');
      this.stage.hidden = true;
      this.controls.hidden = true;
    }
  }

  renderList() {
    fill(this.list, ...this.hands.map(hand =>
      h('button.btn.small', {type: 'button', 'aria-pressed': 'false', dataset: {hand: String(hand.number)},
        onclick: () => this.pick(hand.number)}, String(hand.number))));
  }

  pick(number) {
    const hand = this.hands.find(x => x.number === number);
    if (!hand) return;
    for (const b of this.list.children) b.setAttribute('aria-pressed', String(Number(b.dataset.hand) === number));
    this.steps = handSteps(hand, this.players, this.viewer);
    fill(this.log, ...this.steps.map((s, i) => h('li', {onclick: () => this.go(i)}, s.text)));
    this.go(this.atEnd ? this.steps.length - 1 : 0);
  }

  go(i) {
    if (!this.steps || !this.steps.length) return;
    this.i = Math.max(0, Math.min(this.steps.length - 1, i));
    const step = this.steps[this.i];
    this.felt.render(step.model);
    setText(this.stepText, step.text);
    setText(this.counter, t('history.step', {i: this.i + 1, n: this.steps.length}));
    [...this.log.children].forEach((li, k) => li.classList.toggle('cur', k === this.i));
    const cur = this.log.children[this.i];
    if (cur && cur.scrollIntoView) cur.scrollIntoView({block: 'nearest'});
    if (this.i >= this.steps.length - 1) this.stop();
  }

  togglePlay() { if (this.timer) this.stop(); else this.play(); }
  play() {
    if (this.i >= this.steps.length - 1) this.go(0);
    this.timer = setInterval(() => this.go(this.i + 1), 900);
    this.playBtn.textContent = t('history.pause');
  }
  stop() { clearInterval(this.timer); this.timer = null; this.playBtn.textContent = t('history.play'); }
  /** Arrow keys, Home, End and Space anywhere in `el` (the dialog around the replayer). */
  keysOn(el) {
    el.addEventListener('keydown', e => { if (!e.target.closest || !e.target.closest('input, select, textarea')) this.key(e); });
    this.el.focus();
  }

  key(e) {
    if (e.key === 'ArrowRight') { this.go(this.i + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft') { this.go(this.i - 1); e.preventDefault(); }
    else if (e.key === 'Home') this.go(0);
    else if (e.key === 'End') this.go(this.steps.length - 1);
    else if (e.key === ' ') { this.togglePlay(); e.preventDefault(); }
  }
  destroy() { this.stop(); this.felt.destroy(); }
}
