// From the server's view + events to what the felt draws. Pure functions
// (no DOM), so they are easy to test.
import {t, ordinal} from './i18n.js';
import {splitCards, describeRank, evaluate} from './poker.js';

/** Facts about the current hand from its public events. */
export function handFacts(events) {
  const facts = {sb: null, bb: null, shown: {}, awarded: [], returned: [], eliminated: [], resigned: [],
    number: null, ended: false, showdown: false, started: null};
  for (const e of events || []) {
    switch (e.type) {
      case 'hand_started': facts.number = e.number; facts.started = e; break;
      case 'blind_posted':
        if (e.kind === 'small blind') facts.sb = e.seat;
        else if (e.kind === 'big blind') facts.bb = e.seat;
        break;
      case 'cards_shown': facts.shown[e.seat] = {cards: splitCards(e.cards), rank: e.rank}; break;
      case 'pot_awarded': facts.awarded.push(e); break;
      case 'bet_returned': facts.returned.push(e); break;
      case 'eliminated': facts.eliminated.push(e); break;
      case 'resigned': facts.resigned.push(e); break;
      case 'hand_ended': facts.ended = true; facts.showdown = !!e.showdown; break;
      default: break;
    }
  }
  return facts;
}

/** SB/BB seats computed from the button when no blind events are known (R5). */
export function blindSeats(view) {
  const alive = view.seats.filter(s => s.in_tournament || s.in_hand || s.folded).map(s => s.seat);
  if (alive.length < 2) return {sb: null, bb: null};
  const n = view.seats.length;
  const after = seat => { for (let i = 1; i <= n; i++) { const s = (seat + i) % n; if (alive.includes(s)) return s; } return null; };
  if (alive.length === 2) return {sb: view.button, bb: after(view.button)};
  const sb = after(view.button);
  return {sb, bb: after(sb)};
}

/** The hand's result in words, for the 4 s pause (R30). */
export function resultOf(facts, view) {
  if (!facts.awarded.length) return null;
  const name = seat => (view.seats[seat] || {}).player || '?';
  const lines = [];
  const many = facts.awarded.length > 1;
  for (const pot of facts.awarded) {
    const winners = pot.shares.filter(([, chips]) => chips > 0).map(([seat]) => seat);
    const potName = pot.pot === 0 ? t('result.mainPot') : t('result.sidePot', {n: pot.pot});
    let text;
    if (winners.length > 1) text = t('result.splits', {names: winners.map(name).join(' & '), pot: potName, amount: pot.amount});
    else if (many) text = t('result.winsPot', {name: name(winners[0]), pot: potName, amount: pot.amount});
    else text = t('result.wins', {name: name(winners[0]), amount: pot.amount});
    let hand = '';
    if (pot.rank) hand = describeRank(pot.rank);
    else if (!facts.showdown) hand = t('result.noShowdown');
    lines.push({text, hand, winners});
  }
  const out = facts.eliminated.map(e => t('result.eliminated', {name: name(e.seat), place: ordinal(e.place)}));
  return {title: t('result.title', {n: facts.number ?? view.hand_number}), lines, out};
}

/** Winning five cards (for highlighting) of a seat at showdown. */
export function bestFive(hole, board) {
  const cards = [...hole, ...board];
  if (cards.length < 5) return null;
  const key = JSON.stringify(evaluate(cards));
  // find a five-card subset with the best value
  const n = cards.length;
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) {
    const five = cards.filter((_, i) => i !== a && i !== b).slice(0, 5);
    if (n === 7 && JSON.stringify(evaluate(five)) === key) return five;
  }
  return n === 5 ? cards : null;
}

/**
 * Display model of the live table.
 * state: {view, table, clock, presence, you, events, skew}; now: server time.
 */
export function tableModel(state, now) {
  const view = state.view;
  const you = state.you || {};
  const me = you.seat;
  const facts = handFacts(state.events);
  const handOver = view.hand_over;
  const finished = view.finished;
  const board = splitCards(view.board);
  const blinds = facts.sb != null || facts.bb != null ? facts : blindSeats(view);
  const acting = !handOver && !finished && view.to_act != null && view.to_act >= 0 ? view.to_act : null;
  const clock = state.clock || {};
  const expired = acting != null && clock.turn_deadline != null && now >= clock.turn_deadline;
  const winners = new Set(facts.awarded.flatMap(p => p.shares.filter(([, c]) => c > 0).map(([s]) => s)));
  const showHands = handOver && facts.showdown;
  const seats = view.seats.map(s => {
    const online = state.presence ? state.presence[s.seat] !== false : true;
    const dealtIn = s.in_hand || s.folded || s.all_in;
    let cards = null;
    if (s.cards) cards = splitCards(s.cards);
    else if (!handOver && s.in_hand && view.hand_number > 0) cards = ['back', 'back'];
    const flags = {
      me: s.seat === me,
      acting: acting === s.seat && !expired,
      expired: acting === s.seat && expired,
      folded: s.folded && !handOver,
      allin: s.all_in,
      offline: !online && s.in_tournament,
      out: !s.in_tournament && s.place != null && !(finished && s.place === 1),
      winner: (handOver && winners.has(s.seat)) || (finished && s.place === 1),
    };
    let stateText = '';
    if (finished && s.place === 1) stateText = t('table.winner');
    else if (!s.in_tournament && s.place != null) stateText = t('table.out', {place: ordinal(s.place)});
    else if (!online) stateText = t('table.offline');
    else if (flags.acting) stateText = t('table.toAct');
    else if (flags.expired) stateText = t('table.timeUpShort');
    else if (s.all_in) stateText = t('table.allIn');
    else if (s.folded && !handOver) stateText = t('table.folded');
    else if (s.forfeits) stateText = t('table.forfeits', {n: s.forfeits});
    let handName = '';
    let winCards = null;
    const shown = facts.shown[s.seat];
    if (showHands && shown && shown.rank) handName = describeRank(shown.rank);
    if (showHands && cards && cards[0] !== 'back' && winners.has(s.seat)) winCards = bestFive(cards, board);
    return {seat: s.seat, name: s.player, stack: s.stack, bet: s.bet, cards, flags, stateText, handName, winCards, dealtIn};
  });
  const pots = [];
  if (!handOver) {
    const list = view.pots || [];
    list.forEach((p, i) => {
      if (p.amount > 0) pots.push({label: i === 0 ? t('table.pot') : t('table.sidePot', {n: i}), amount: p.amount});
    });
  }
  return {
    viewer: me ?? 0,
    seats,
    button: view.hand_number > 0 ? view.button : null,
    sb: view.hand_number > 0 && !handOver ? blinds.sb : null,
    bb: view.hand_number > 0 && !handOver ? blinds.bb : null,
    pots,
    board,
    clock: acting != null ? {seat: acting, started: clock.turn_started ?? now, deadline: clock.turn_deadline, now} : null,
    result: handOver && !finished ? resultOf(facts, view) : null,
    facts,
    acting,
    expired,
  };
}

/** Total chips in the middle (pots + this round's bets). */
export function potTotal(view) {
  return (view.pots || []).reduce((a, p) => a + p.amount, 0) + view.seats.reduce((a, s) => a + (s.bet || 0), 0);
}

/**
 * Quick bet sizes for the action bar, clamped to [min_to, max_to] (R10–R11).
 * A pot-fraction raise is: to_match + f × (pot after calling).
 */
export function quickSizes(view, legal) {
  if (legal.min_to == null) return [];
  const call = legal.call || 0;
  const potAfterCall = potTotal(view) + call;
  const clamp = v => Math.max(legal.min_to, Math.min(legal.max_to, Math.round(v)));
  const base = legal.to_match;
  return [
    {key: 'min', label: t('act.min'), to: legal.min_to},
    {key: 'half', label: t('act.half'), to: clamp(base + potAfterCall / 2)},
    {key: 'threeQuarters', label: t('act.threeQuarters'), to: clamp(base + potAfterCall * 3 / 4)},
    {key: 'pot', label: t('act.pot'), to: clamp(base + potAfterCall)},
    {key: 'max', label: t('act.max'), to: legal.max_to},
  ];
}
