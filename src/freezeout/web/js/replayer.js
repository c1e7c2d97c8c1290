// Step-by-step replayer of a finished hand: the server replays it through the
// rules and sends each step as the asker's view then (server/table/replaysteps.py);
// the page draws those views and words their events (issue #22: the page holds
// no poker, so every game replays, from hold'em to badugi and the mixes).
import {h, setText, fill} from './dom.js';
import {t, ordinal, num} from './i18n.js';
import {splitCards, handName, cardsText, inSentence} from './poker.js';
import {shownName} from './names.js';
import {Felt} from './felt.js';
import {tableModel} from './model.js';
import {cashModel, cashFacts, cashResult} from './cashview.js';
import * as api from './api.js';
import {chatLog} from './chat.js';
import {decorateByNames} from './notes.js';
import {showRunOutOdds, cashReplayRunOut} from './runoutodds.js';
import {fetchReview, decisionSteps, decisionText, reviewPanel} from './review.js';

/** The opened cards in their places: the server says which deck position became whose
 * card (`revealed.where`), so the page needs no dealing rules of its own; ?? where not opened. */
export function placeOpened(revealed) {
  const cards = splitCards(revealed.deck);
  const hole = {};
  for (const [seat, positions] of Object.entries(revealed.where.hole)) hole[seat] = positions.map(p => cards[p]);
  return {hole, board: revealed.where.board.map(p => cards[p])};
}

/** Where the replayer's steps come from: the server replays the hand through the rules
 * and sends each step as the asker's view then (GET …/hands/{n}/steps, docs/protocol.md
 * "Replayer steps"); the page draws them and words their events, nothing more. */
export function stepsOfGame(gameId) {
  return number => api.get(`/api/games/${encodeURIComponent(gameId)}/hands/${number}/steps`);
}

/** A live table's finished hands (its current or last game); once the table is gone, the
 * stored game (`gameId`, when known). */
export function stepsOfTable(tableId, gameId = null) {
  return async number => {
    try {
      return await api.get(`/api/tables/${encodeURIComponent(tableId)}/hands/${number}/steps`);
    } catch (error) {
      if (gameId == null || error.status !== 404) throw error;
      return stepsOfGame(gameId)(number);
    }
  };
}

const BLIND_WORDS = {'small blind': 'table.sbLong', 'big blind': 'table.bbLong', ante: 'history.kind.ante',
  dead: 'history.kind.dead', straddle: 'history.kind.straddle'};

/** One public event in words ('' for what the felt shows by itself, like cards dealt). */
export function eventText(e, name) {
  switch (e.type) {
    case 'blind_posted':
      return t('history.posts', {name: name(e.seat), kind: BLIND_WORDS[e.kind] ? t(BLIND_WORDS[e.kind]) : e.kind, amount: e.amount});
    case 'action_taken': {
      if (e.kind === 'discard' || e.kind === 'standpat') return '';  // the draw's own event says it
      const kind = e.kind;
      let text = t(e.forced ? 'history.timeout' : 'history.' + kind, {name: name(e.seat), amount: kind === 'call' ? e.added : e.total});
      if (e.forced) text += ' — ' + t('history.' + kind, {name: '', amount: e.kind === 'call' ? e.added : e.total}).trim();
      if (e.all_in && !e.forced) text += t('history.allin');
      return text;
    }
    case 'drew': {
      const n = splitCards(e.drawn).length;
      return n ? t('history.draws', {name: name(e.seat), n}) : t('history.standsPat', {name: name(e.seat)});
    }
    case 'bet_returned': return t('history.returned', {name: name(e.seat), amount: e.amount});
    case 'street_dealt': {
      const street = t('history.street.' + e.street);
      return splitCards(e.cards).length ? street + ': ' + cardsText(e.cards) : street;
    }
    case 'cards_shown': {
      const high = handName(e);
      const low = e.low_names ? handName({names: e.low_names}) : '';
      return t('history.shows', {name: name(e.seat), cards: cardsText(e.cards), hand: inSentence(low ? `${high} / ${t('result.lowWord')}: ${low}` : high)});
    }
    case 'pot_awarded': {
      const who = e.shares.filter(x => x[1] > 0).map(x => name(x[0])).join(' & ');
      const text = e.half ? t('history.wonHalf', {name: who, amount: e.amount, half: t('result.halfWord.' + e.half)}) : t('history.won', {name: who, amount: e.amount});
      return text + (handName(e) ? ' — ' + inSentence(handName(e)) : '');
    }
    case 'resigned': return t('history.resigned', {name: name(e.seat), n: e.vanished});
    case 'eliminated': return t('history.eliminated', {name: name(e.seat), place: ordinal(e.place)});
    case 'rake_taken': return t('cash.rakeTaken', {n: num(e.amount)});  // C5: the house's cut, in the history
    case 'hand_ended': return t('history.ended');
    default: return '';
  }
}

/** The server's steps of one hand as [{text, model}]: one line per thing that happened
 * (a blind, a move, a street, a hand shown, the result), each drawn with the view the
 * server gave for the move it belongs to (the same model as the live table's). */
export function handSteps(data) {
  const players = data.players || [];
  const name = seat => shownName(players[seat] ?? '?');
  const viewer = data.viewer;
  const out = [];
  const hand = (data.steps || []).flatMap(step => step.events || []);  // the whole hand's events (its pots)
  let sofar = [];
  (data.steps || []).forEach((step, i) => {
    const view = step.view;
    sofar = sofar.concat(step.events || []);
    // a cash table's steps carry its own view (docs/protocol.md "Cash tables"), drawn as the live cash table is
    const cash = view.format === 'cash';
    const built = cash ? {...cashModel({view, events: step.events, clock: {}}, 0), result: null}
      : tableModel({view, you: {seat: viewer}, events: step.events, presence: null, clock: {}}, 0);
    const cashWords = cash ? cashResult(cashFacts(step.events), view, view.you ?? viewer) : null;
    const model = {...built, animate: false, clock: null, result: null};
    if (cash) model.runOutModel = cashReplayRunOut(model, sofar, hand);  // issue #36: a cash run-out's shares
    const words = [];
    const blinds = cash ? [(view.stakes || {}).small_blind, (view.stakes || {}).big_blind] : view.blinds;
    if (i === 0) {
      const level = view.level || {};
      words.push(view.dealer_button != null ? t('history.start', {sb: blinds[0], bb: blinds[1], name: name(view.dealer_button)})
        : t('history.startAnte', {ante: level.ante || 0, bringIn: level.bring_in || 0}));
    }
    const twice = new Set(step.events.filter(e => e.type === 'forfeited' && e.in_a_row >= 2).map(e => e.seat));
    for (const e of step.events) {
      if (e.type === 'blind_posted' && i === 0 && e.kind === 'ante') continue;  // the first line names the antes
      if (e.type === 'resigned' && twice.has(e.seat)) { words.push(t('history.timedOut', {name: name(e.seat)})); continue; }
      if (e.type === 'pot_awarded' && (view.result || []).length) continue;  // the result's lines say it, halves and all
      if (e.type === 'hand_ended' && built.result) words.push(...resultWords(built.result));
      if (e.type === 'hand_ended' && cashWords) words.push(...resultWords(cashWords));
      const text = eventText(e, name);
      if (text) words.push(text);
    }
    if (!words.length) words.push('…');
    for (const text of words) out.push({text, model, at: i});  // at: the server's step drawn
  });
  return out;
}

/** The hand's result in the server's words: each pot, a split pot's halves (V6). */
function resultWords(result) {
  return result.lines.map(l => l.hand ? `${l.text} — ${inSentence(l.hand)}` : l.text);
}

/** The replayer widget: hand picker, felt, controls, step log. */
export class Replayer {
  /** hands: [{number}] finished; source: number → Promise of the server's steps
   * (stepsOfGame / stepsOfTable); players/viewer: the felt until the first steps arrive;
   * gameId: a finished game, whose review (issue #36) shows beside each push/fold decision. */
  constructor({hands, players, viewer = 0, atEnd = false, source = null, tableId = null, gameId = null}) {
    this.atEnd = atEnd;
    this.hands = hands;
    this.players = players;
    this.viewer = viewer;
    this.source = source;
    this.cache = new Map();
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
    // the review: the equilibrium's move and the EV given up beside a push/fold decision, the game's luck and EV
    this.decisionEl = h('div.decision-review', {hidden: true, 'aria-live': 'polite'});
    this.reviewEl = h('div.replayer-review');
    this.review = gameId != null ? fetchReview(gameId) : null;
    this.decisions = new Map();
    // the table's chat, read only (issue #37): the room the asker may read, system lines too
    this.el = h('div.replayer', {tabindex: '-1'}, this.list, this.stage, this.stepText, this.decisionEl, this.controls,
      this.log, this.reviewEl, tableId ? chatLog(tableId) : null);
    if (this.review) this.review.then(review => { if (review) this.reviewEl.replaceChildren(reviewPanel(review)); });
    this.steps = [];
    this.renderList();
    if (hands.length && source) this.pick(hands[hands.length - 1].number);
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

  async pick(number) {
    const hand = this.hands.find(x => x.number === number);
    if (!hand) return;
    this.picked = number;
    for (const b of this.list.children) b.setAttribute('aria-pressed', String(Number(b.dataset.hand) === number));
    let data = this.cache.get(number);
    if (!data) {
      this.el.setAttribute('aria-busy', 'true');
      try {
        data = await this.source(number);
        this.cache.set(number, data);
      } catch (error) {
        if (this.picked !== number) return;
        this.el.removeAttribute('aria-busy');
        this.stop();
        this.steps = [];
        fill(this.log);
        this.stepText.textContent = t('history.unavailable', {message: error.message || ''});
        return;
      } finally {
        if (this.picked === number) this.el.removeAttribute('aria-busy');
      }
      if (this.picked !== number) return;  // another hand was picked meanwhile
    }
    this.steps = handSteps(data);
    this.el.dataset.hand = String(number);
    this.el.dataset.game = data.game || '';
    fill(this.log, ...this.steps.map((s, i) => h('li', {onclick: () => this.go(i)}, s.text)));
    this.decisions = new Map();
    this.go(this.atEnd ? this.steps.length - 1 : 0);
    if (this.review) this.showDecisions(number, data);
  }

  /** The hand's push/fold decisions by the steps they were made at, marked in the log. */
  async showDecisions(number, data) {
    const review = await this.review;
    if (!review || this.picked !== number) return;
    const hand = review.hands.find(x => x.number === number);
    const byStep = decisionSteps(hand, data);
    this.decisions = new Map();
    this.steps.forEach((s, i) => {
      const found = byStep.get(s.at);
      if (!found || (i > 0 && this.steps[i - 1].at === s.at)) return;  // the step's first line
      this.decisions.set(i, found);
      const li = this.log.children[i];
      if (li && found.some(d => d.mistake)) li.append(h('span.mark', {title: t('review.mistakeMark')}, '?!'));
    });
    this.go(this.i);
  }

  go(i) {
    if (!this.steps || !this.steps.length) return;
    this.i = Math.max(0, Math.min(this.steps.length - 1, i));
    const step = this.steps[this.i];
    this.felt.render(step.model);
    // my notes by the seats (issue #37): the seats' names resolved to accounts
    const names = [];
    for (const seat of step.model.seats || []) names[seat.seat] = seat.empty ? null : seat.name;
    decorateByNames(this.felt.seatEls, names);
    // a run-out's street: each face-up hand's share of the pot by its seat (issue #36)
    showRunOutOdds(this.felt, step.model, this.el.dataset.game || 'NT', () => this.steps[this.i] === step);
    setText(this.stepText, step.text);
    const decided = this.decisions.get(this.i) || [];
    this.decisionEl.hidden = !decided.length;
    this.decisionEl.classList.toggle('mistake', decided.some(d => d.mistake));
    fill(this.decisionEl, ...decided.map(d => h('p', {dataset: {player: d.player}},
      h('b', shownName(d.player)), ': ', decisionText(d))));
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
