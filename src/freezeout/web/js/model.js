// From the server's view + events to what the felt draws. Pure functions
// (no DOM), so they are easy to test. Every poker fact (hand names, the best
// five, winners, the blinds' and the button's seats, card slots) comes from the
// server's view: the page holds no poker (issue #22).
import {t, ordinal, num, getLang} from './i18n.js';
import {splitCards} from './poker.js';
import {shownName} from './names.js';

/** What the current hand's public events say that the view does not keep: who
 * resigned, went out or timed out (the result's closing lines), whether it ended. */
export function handFacts(events) {
  const facts = {eliminated: [], resigned: [], forfeited: [], number: null, ended: false, started: null, streets: 0};
  for (const e of events || []) {
    switch (e.type) {
      case 'hand_started': facts.number = e.number; facts.started = e; break;
      case 'street_dealt': facts.streets++; break;
      case 'eliminated': facts.eliminated.push(e); break;
      case 'resigned': facts.resigned.push(e); break;
      case 'forfeited': facts.forfeited.push(e); break;
      case 'hand_ended': facts.ended = true; break;
      default: break;
    }
  }
  return facts;
}

/** A hand's name as the server said it, in the page's language (`names` per language). */
export function said(names, fallback = '') {
  if (!names) return fallback || '';
  return names[getLang()] || names.en || fallback || '';
}

/** Chips each seat won in the hand: the server's result (view.result), every pot and half. */
export function winnings(view) {
  const won = {};
  for (const pot of (view && view.result) || []) for (const w of pot.winners) if (w.chips > 0) won[w.seat] = (won[w.seat] || 0) + w.chips;
  return won;
}

/** The hands shown down (R17), by seat, from the view: the high hand's name and cards, and a
 * split game's low (V6); `name` reads "high; low" when both halves are named. */
export function shownHands(view) {
  const shown = {};
  for (const s of view.seats) {
    const x = s.shown;
    if (!x) continue;
    const high = said(x.names, x.hand);
    const low = said(x.low_names, x.low);
    shown[s.seat] = {name: low ? `${high} / ${t('result.lowWord')}: ${low}` : high, head: high.split(';')[0] + (low ? ` / ${low.split(';')[0]}` : ''),
      best: splitCards(x.best), bestLow: splitCards(x.best_low)};
  }
  return shown;
}

/** The hand's result in words, for the pause (R30), from the server's result (view.result):
 * each pot, and a split pot's halves in one line ("High: … — Alice; Low: 8-6-4-2-A — Bob", V6).
 * Pots won by the same players with the same hand read as one line; a lone pot is not named;
 * the viewer is "you", never an id.  `facts`: the events' closing lines (who went out). */
export function resultOf(facts, view, me = null) {
  const result = view.result || [];
  if (!result.length && !facts.resigned.length) return null;
  const name = seat => seat === me ? t('result.you') : shownName((view.seats[seat] || {}).player || '?');
  const byPot = new Map();
  for (const part of result) {
    if (!byPot.has(part.pot)) byPot.set(part.pot, []);
    byPot.get(part.pot).push(part);
  }
  const potName = pot => pot === 0 ? t('result.mainPot') : t('result.sidePot', {n: pot});
  const groups = [];
  const lines = [];
  for (const [pot, parts] of byPot) {
    const halves = parts.filter(p => p.half);
    if (halves.length > 1) {
      // V6: a split pot, each half with its hand and winners
      const amount = parts.reduce((sum, p) => sum + p.amount, 0);
      // each half's amount and winners as the server counted them (a quartered half: each
      // winner's chips, the odd chip included, V9): "High 120 — you (…); Low 120 — Eli (…)"
      const text = halves.map(p => {
        const winners = p.winners.filter(w => w.chips > 0);
        const hand = said(p.names, p.hand);
        const names = winners.length > 1 ? winners.map(w => `${name(w.seat)} ${num(w.chips)}`).join(' & ') : winners.map(w => name(w.seat)).join('');
        return t('result.half.' + p.half, {hand: hand || t('result.noShowdown'), names, amount: p.amount});
      }).join('; ');
      lines.push({text, hand: byPot.size === 1 ? '' : `${potName(pot)} (${amount})`, winners: [...new Set(halves.flatMap(p => p.winners.filter(w => w.chips > 0).map(w => w.seat)))]});
      continue;
    }
    for (const p of parts) {
      const winners = p.winners.filter(w => w.chips > 0).map(w => w.seat);
      const key = winners.join(',') + '|' + said(p.names, p.hand);
      const same = groups.find(g => g.key === key);
      if (same) { same.parts.push(p); continue; }
      const group = {key, winners, parts: [p], line: null};
      groups.push(group);
      lines.push(group);
    }
  }
  // one line for the whole hand (one winner of every pot, with one hand): no pot is named
  const one = lines.length === 1;
  const out = lines.map(line => {
    if (!line.parts) return line;
    const {winners, parts} = line;
    const amount = parts.reduce((sum, p) => sum + p.amount, 0);
    const pot = parts.map(p => potName(p.pot)).join(' + ');
    const others = winners.filter(seat => seat !== me).map(name).join(' & ');
    let text;
    if (winners.length > 1 && winners.includes(me)) text = t(one ? 'result.splitYou' : 'result.splitsYou', {names: others, pot, amount});
    else if (winners.length > 1) text = t(one ? 'result.split' : 'result.splits', {names: others, pot, amount});
    else if (winners[0] === me) text = one ? t('result.youWin', {amount}) : t('result.youWinPot', {pot, amount});
    else if (!one) text = t('result.winsPot', {name: name(winners[0]), pot, amount});
    else text = t('result.wins', {name: name(winners[0]), amount});
    let hand = said(parts[0].names, parts[0].hand);
    if (!hand && !view.showdown) hand = t('result.noShowdown');
    return {text, hand, winners};
  });
  const closing = [];
  const twice = new Set(facts.forfeited.filter(e => e.in_a_row >= 2).map(e => e.seat));
  const place = {};
  for (const e of facts.eliminated) place[e.seat] = e.place;
  for (const e of facts.resigned) {
    // out by resigning or two timeouts: one line that also gives the place
    const who = e.seat === me ? 'You' : '';
    const key = (twice.has(e.seat) ? 'result.timedOut' : 'result.resigned') + who + (place[e.seat] != null ? 'Place' : '');
    closing.push(t(key, {name: shownName((view.seats[e.seat] || {}).player || '?'), n: e.vanished, place: place[e.seat] != null ? ordinal(place[e.seat]) : ''}));
  }
  const resigned = new Set(facts.resigned.map(e => e.seat));
  for (const e of facts.eliminated) {
    if (resigned.has(e.seat)) continue;
    closing.push(e.seat === me ? t('result.youOut', {place: ordinal(e.place)}) : t('result.eliminated', {name: shownName((view.seats[e.seat] || {}).player || '?'), place: ordinal(e.place)}));
  }
  return {title: t('result.title', {n: facts.number ?? view.hand_number}), lines: out, out: closing};
}

/** The label under each shown hand: its name up to the kickers, or the whole name
 * when another shown hand reads the same up to there (then the kickers decide). */
export function handLabels(shown) {
  const count = {};
  for (const s of Object.values(shown)) if (s.name) count[s.head] = (count[s.head] || 0) + 1;
  const labels = {};
  for (const [seat, s] of Object.entries(shown)) if (s.name) labels[seat] = count[s.head] > 1 ? s.name : s.head;
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
  const won = handOver ? winnings(view) : {};
  const showHands = handOver && view.showdown;
  const shownNow = showHands ? shownHands(view) : {};
  const labels = handLabels(shownNow);
  const bets = view.seats.reduce((a, s) => a + (s.bet || 0), 0);
  const seats = view.seats.map(s => {
    const online = state.presence ? state.presence[s.seat] !== false : true;
    const dealtIn = s.in_hand || s.folded || s.all_in;
    const {cards, up} = seatCards(s);
    const shown = shownNow[s.seat] || null;
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
    return {seat: s.seat, name: s.player, stack: s.stack, bet: s.bet, cards, up, flags, stateText, stateTitle, position: s.position || '',
      handName: shown ? shown.name : '', handLabel: labels[s.seat] || '',
      winCards: shown && won[s.seat] > 0 ? winningCards(view, s.seat) : null, won: won[s.seat] || 0, dealtIn};
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
  const [sb, bb] = view.blind_seats || [null, null];
  return {
    viewer: me ?? 0,
    seats,
    // the server marks the button's seat (none in stud, V7) and the blinds' (R5)
    button: view.hand_number > 0 ? (view.dealer_button ?? null) : null,
    sb: view.hand_number > 0 && !handOver ? sb : null,
    bb: view.hand_number > 0 && !handOver ? bb : null,
    pots,
    board,
    boardSize: view.board_size ?? 5,
    clock: acting != null ? {seat: acting, started: clock.turn_started ?? now, deadline: clock.turn_deadline, now} : null,
    result: handOver ? resultOf(facts, view, me) : null,
    facts,
    view,
    acting,
    expired,
  };
}

/** A seat's cards as the felt draws them, from the view's card slots (docs/protocol.md
 * "Drawing any game"): "up" face up for everyone, "down" seen by this viewer, "unknown" a
 * back, any count; no slots: no cards.  `up` flags stud's face-up cards (V7). */
export function seatCards(s) {
  const slots = s.slots || [];
  if (!slots.length) return {cards: null, up: null};
  const text = splitCards(s.cards);
  const cards = slots.map((slot, i) => slot === 'unknown' || !text[i] || text[i] === '??' ? 'back' : text[i]);
  return {cards, up: slots.map(slot => slot === 'up')};
}

/** The cards that won a seat chips: the best five of each half it won (server's result). */
export function winningCards(view, seat) {
  const cards = [];
  for (const pot of view.result || []) for (const w of pot.winners) if (w.seat === seat && w.chips > 0) cards.push(...splitCards(w.best));
  return cards.length ? [...new Set(cards)] : null;
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
  // the last button is the most the view allows: "All-in" only when that is all your chips (a
  // pot limit's most is the pot: then it is the Pot button already, and is dropped, issue #31 item 11)
  const allIn = legal.all_in_to == null || legal.max_to >= legal.all_in_to;
  const sizes = [
    {key: 'min', label: t('act.min'), to: legal.min_to},
    {key: 'half', label: t('act.half'), to: clamp(base + potAfterCall / 2)},
    {key: 'threeQuarters', label: t('act.threeQuarters'), to: clamp(base + potAfterCall * 3 / 4)},
    {key: 'pot', label: t('act.pot'), to: clamp(base + potAfterCall)},
    {key: 'max', label: allIn ? t('act.max') : t('act.maxBet'), to: legal.max_to},
  ];
  // one button per amount: the first one naming it stays
  return sizes.filter((q, i) => q.key === 'min' || !sizes.slice(0, i).some(p => p.to === q.to));
}

export {num};
