// From the server's view + events to what the felt draws. Pure functions
// (no DOM), so they are easy to test. Every poker fact (hand names, the best
// five, winners, blinds) comes from the server's events and view.
import {t, ordinal, num} from './i18n.js';
import {splitCards, handName} from './poker.js';
import {shownName} from './names.js';

/** Facts about the current hand from its public events. */
export function handFacts(events) {
  const facts = {sb: null, bb: null, shown: {}, awarded: [], returned: [], eliminated: [], resigned: [], forfeited: [],
    number: null, ended: false, showdown: false, started: null, streets: 0};
  for (const e of events || []) {
    switch (e.type) {
      case 'hand_started': facts.number = e.number; facts.started = e; break;
      case 'blind_posted':
        if (e.kind === 'small blind') facts.sb = e.seat;
        else if (e.kind === 'big blind') facts.bb = e.seat;
        break;
      case 'street_dealt': facts.streets++; break;
      case 'cards_shown': facts.shown[e.seat] = {cards: splitCards(e.cards), name: handName(e), best: splitCards(e.best)}; break;
      case 'pot_awarded': facts.awarded.push(e); break;
      case 'bet_returned': facts.returned.push(e); break;
      case 'eliminated': facts.eliminated.push(e); break;
      case 'resigned': facts.resigned.push(e); break;
      case 'forfeited': facts.forfeited.push(e); break;
      case 'hand_ended': facts.ended = true; facts.showdown = !!e.showdown; break;
      default: break;
    }
  }
  return facts;
}

/** Chips each seat won in the hand (from pot_awarded). */
export function winnings(facts) {
  const won = {};
  for (const pot of facts.awarded) for (const [seat, chips] of pot.shares) if (chips > 0) won[seat] = (won[seat] || 0) + chips;
  return won;
}

/** The hand's result in words, for the pause (R30). `me`: the viewer's seat.
 * Pots won by the same players (a main and a side pot to one winner) read as
 * one line; a lone pot is not named; the viewer is "you", never an id. */
export function resultOf(facts, view, me = null) {
  if (!facts.awarded.length && !facts.resigned.length) return null;
  const name = seat => shownName((view.seats[seat] || {}).player || '?');
  const groups = [];
  for (const pot of facts.awarded) {
    const winners = pot.shares.filter(([, chips]) => chips > 0).map(([seat]) => seat);
    const key = winners.join(',');
    const same = groups.find(g => g.key === key && handName(g.pots[0]) === handName(pot));
    if (same) same.pots.push(pot);
    else groups.push({key, winners, pots: [pot]});
  }
  const one = groups.length === 1;
  const potName = pot => pot.pot === 0 ? t('result.mainPot') : t('result.sidePot', {n: pot.pot});
  const lines = groups.map(({winners, pots}) => {
    const amount = pots.reduce((sum, p) => sum + p.amount, 0);
    const pot = pots.map(potName).join(' + ');
    const others = winners.filter(seat => seat !== me).map(name).join(' & ');
    let text;
    if (winners.length > 1 && winners.includes(me)) text = t(one ? 'result.splitYou' : 'result.splitsYou', {names: others, pot, amount});
    else if (winners.length > 1) text = t(one ? 'result.split' : 'result.splits', {names: others, pot, amount});
    else if (winners[0] === me) text = one ? t('result.youWin', {amount}) : t('result.youWinPot', {pot, amount});
    else if (!one) text = t('result.winsPot', {name: name(winners[0]), pot, amount});
    else text = t('result.wins', {name: name(winners[0]), amount});
    let hand = handName(pots[0]);
    if (!hand && !facts.showdown) hand = t('result.noShowdown');
    return {text, hand, winners};
  });
  const out = [];
  const twice = new Set(facts.forfeited.filter(e => e.in_a_row >= 2).map(e => e.seat));
  const place = {};
  for (const e of facts.eliminated) place[e.seat] = e.place;
  for (const e of facts.resigned) {
    // out by resigning or two timeouts: one line that also gives the place
    const who = e.seat === me ? 'You' : '';
    const key = (twice.has(e.seat) ? 'result.timedOut' : 'result.resigned') + who + (place[e.seat] != null ? 'Place' : '');
    out.push(t(key, {name: name(e.seat), n: e.vanished, place: place[e.seat] != null ? ordinal(place[e.seat]) : ''}));
  }
  const resigned = new Set(facts.resigned.map(e => e.seat));
  for (const e of facts.eliminated) {
    if (resigned.has(e.seat)) continue;
    out.push(e.seat === me ? t('result.youOut', {place: ordinal(e.place)}) : t('result.eliminated', {name: name(e.seat), place: ordinal(e.place)}));
  }
  return {title: t('result.title', {n: facts.number ?? view.hand_number}), lines, out};
}

/** The label under each shown hand: its name up to the kickers, or the whole name
 * when another shown hand reads the same up to there (then the kickers decide). */
export function handLabels(shown) {
  const head = name => name.split(';')[0];
  const count = {};
  for (const s of Object.values(shown)) if (s.name) count[head(s.name)] = (count[head(s.name)] || 0) + 1;
  const labels = {};
  for (const [seat, s] of Object.entries(shown)) if (s.name) labels[seat] = count[head(s.name)] > 1 ? s.name : head(s.name);
  return labels;
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
  const acting = !handOver && !finished && view.to_act != null && view.to_act >= 0 ? view.to_act : null;
  const clock = state.clock || {};
  const expired = acting != null && clock.turn_deadline != null && now >= clock.turn_deadline;
  const won = handOver ? winnings(facts) : {};
  const showHands = handOver && facts.showdown;
  const labels = showHands ? handLabels(facts.shown) : {};
  const bets = view.seats.reduce((a, s) => a + (s.bet || 0), 0);
  const seats = view.seats.map(s => {
    const online = state.presence ? state.presence[s.seat] !== false : true;
    const dealtIn = s.in_hand || s.folded || s.all_in;
    const {cards, up} = seatCards(s, view, handOver);
    const shown = showHands ? facts.shown[s.seat] : null;
    const flags = {
      me: s.seat === me,
      acting: acting === s.seat && !expired,
      expired: acting === s.seat && expired,
      folded: s.folded,
      allin: s.all_in,
      offline: !online && s.in_tournament,
      out: !s.in_tournament && s.place != null && !(finished && s.place === 1),
      winner: won[s.seat] > 0 || (finished && !handOver && s.place === 1),
      bot: false,
    };
    let stateText = '';
    if (finished && s.place === 1) stateText = t('table.winner');
    else if (!s.in_tournament && s.place != null) stateText = t('table.out', {place: ordinal(s.place)});
    else if (!online) stateText = t('table.offline');
    else if (flags.acting) stateText = t('table.toAct');
    else if (flags.expired) stateText = t('table.lateShort', {t: lateFor(now - clock.turn_deadline)});
    else if (s.all_in) stateText = t('table.allIn');
    else if (s.folded && !handOver) stateText = t('table.folded');
    else if (s.forfeits) stateText = t('table.forfeits', {n: s.forfeits});
    const stateTitle = s.forfeits && s.in_tournament ? t(s.seat === me ? 'table.forfeitsYou' : 'table.forfeitsLong', {n: s.forfeits, name: shownName(s.player)}) : '';
    return {seat: s.seat, name: s.player, stack: s.stack, bet: s.bet, cards, up, flags, stateText, stateTitle,
      handName: shown ? shown.name : '', handLabel: labels[s.seat] || '',
      winCards: shown && won[s.seat] > 0 ? shown.best : null, won: won[s.seat] || 0, dealtIn};
  });
  const pots = [];
  if (!handOver) {
    const list = view.pots || [];
    list.forEach((p, i) => {
      if (p.amount > 0) pots.push({label: i === 0 ? t('table.pot') : t('table.sidePot', {n: i}), amount: p.amount});
    });
    const total = list.reduce((a, p) => a + p.amount, 0) + bets;
    if (!pots.length && total > 0) pots.push({label: t('table.pot'), amount: total});
    else if (bets > 0 && total > 0) pots.push({label: t('table.total'), amount: total, total: true});
  }
  const blinds = facts.sb != null || facts.bb != null ? facts : {sb: null, bb: null};
  return {
    viewer: me ?? 0,
    seats,
    button: view.hand_number > 0 ? view.button : null,
    sb: view.hand_number > 0 && !handOver ? blinds.sb : null,
    bb: view.hand_number > 0 && !handOver ? blinds.bb : null,
    pots,
    board,
    clock: acting != null ? {seat: acting, started: clock.turn_started ?? now, deadline: clock.turn_deadline, now} : null,
    result: handOver ? resultOf(facts, view, me) : null,
    facts,
    acting,
    expired,
  };
}

/** A seat's cards as the felt draws them: from the view's card slots in any game
 * (docs/protocol.md "Every game": "up" face up for everyone, "down" seen by this
 * viewer, "unknown" a back); the house game's view has no slots, so a seat in the
 * hand whose cards are hidden holds two backs (R8). `up` flags stud's face-up cards. */
export function seatCards(s, view, handOver) {
  const text = splitCards(s.cards);
  if (Array.isArray(s.slots)) {
    if (!s.slots.length) return {cards: null, up: null};
    const cards = s.slots.map((slot, i) => slot === 'unknown' || !text[i] || text[i] === '??' ? 'back' : text[i]);
    return {cards, up: s.slots.map(slot => slot === 'up')};
  }
  if (text.length) return {cards: text.map(c => c === '??' ? 'back' : c), up: null};
  if (!handOver && s.in_hand && view.hand_number > 0) return {cards: ['back', 'back'], up: null};
  return {cards: null, up: null};
}

/** How long a turn has run past its clock, as m:ss (R26: the table waits for Don't wait). */
export function lateFor(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Total chips in the middle (pots + this round's bets). */
export function potTotal(view) {
  return (view.pots || []).reduce((a, p) => a + p.amount, 0) + view.seats.reduce((a, s) => a + (s.bet || 0), 0);
}

/**
 * Quick bet sizes for the action bar, clamped to the server's [min_to, max_to].
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

export {num};
