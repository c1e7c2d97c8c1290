// A cash table as the felt draws it (issue #25, docs/protocol.md "Cash tables"): pure
// functions from the server's cash view and the hand's public events to the felt's display
// model and the hand's result in words.  The page holds no poker: stacks, statuses, what a
// seat owes, whose turn, the moves, the pots won, the rake and each run's board all come
// from the server; this module only words and places them.
import {t, num} from './i18n.js';
import {splitCards, handName, cardsText} from './poker.js';
import {shownName} from './names.js';
import {winnings} from './model.js';

/** Whether a table summary (the lobby's, the API's) is a cash table: its `format` (the game it
 * deals, docs/protocol.md "Format") says `"type": "cash"`. */
export function isCashTable(table) {
  return !!(table && table.format && table.format.type === 'cash');
}

/** Whether the table page shows a cash table: its view says `"format": "cash"` (a cash table
 * has a view from its opening; a freezeout's says `"freezeout"`). */
export function isCash(state) {
  return !!(state.view && state.view.format === 'cash');
}

/** What the current hand's public events say: whether it is over, its number and the rake
 * taken (C5, shown in the result's words).  Who won what is the view's `result`. */
export function cashFacts(events) {
  const facts = {ended: false, rake: 0, number: null};
  for (const e of events || []) {
    if (e.type === 'hand_started') facts.number = e.number ?? facts.number;
    else if (e.type === 'rake_taken') facts.rake += e.amount || 0;
    else if (e.type === 'hand_ended') facts.ended = true;
  }
  return facts;
}

/** The hand's result in words: "Run 1 (board): Alice wins 380 — Three of a kind" per run,
 * or one line per pot, and the rake taken.  Null before the hand is over.  The pots, their
 * halves and runs, the winners and the hand names are the view's `result` (as a freezeout
 * table's); the boards are its `boards`. */
export function cashResult(facts, view, me) {
  const pots = view.result || [];
  if (view.in_hand || (!facts.ended && !pots.length)) return null;
  const dealt = {};  // the name each winner was dealt the hand under (the seat may be empty now)
  for (const pot of pots) for (const w of pot.winners || []) if (w.player) dealt[w.seat] = w.player;
  const who = seat => seat === me ? t('result.you') : shownName(((view.seats || [])[seat] || {}).player || dealt[seat] || '?');
  const boards = (view.boards || [view.board || '']).map(splitCards);
  const line = (pot, prefix) => {
    const winners = (pot.winners || []).filter(w => w.chips > 0).map(w => w.seat);
    const names = winners.map(who).join(' & ');
    const text = winners.length === 1 && winners[0] === me ? t('result.youWin', {amount: pot.amount})
      : t('cash.wins', {names, amount: pot.amount});
    return {text: prefix ? `${prefix}: ${text}` : text, hand: handName(pot), winners, run: pot.run || 0};
  };
  const runs = [...new Set(pots.map(p => p.run || 0).filter(Boolean))];
  const lines = pots.map(pot => line(pot, pot.run ? t('cash.run', {n: pot.run, board: cardsText(boards[pot.run - 1] || [])})
    : pots.length > 1 && pot.pot ? t('result.sidePot', {n: pot.pot}) : ''));
  return {lines, rake: facts.rake, runs: runs.map(run => ({run, board: boards[run - 1] || []}))};
}

/** The cards that won each seat a share, per board: index 0 the (first) board, 1 the second
 * run's (C7); from the view's result. */
function winningCards(view) {
  const byBoard = [{}, {}];
  for (const pot of view.result || []) {
    const at = byBoard[pot.run === 2 ? 1 : 0];
    for (const w of pot.winners || []) if (w.chips > 0 && w.best) at[w.seat] = [...(at[w.seat] || []), ...splitCards(w.best)];
  }
  return byBoard;
}

/** A seat's words under its name: to act, all in, folded, or its cash status (C3, C4, C10). */
function seatState(s, {acting, dealtIn, folded, inHand}) {
  if (acting) return t('table.toAct');
  if (s.leaving) return t('cash.status.leaving');
  if (inHand && dealtIn && !folded && s.stack === 0) return t('table.allIn');
  if (folded) return t('table.folded');
  if (s.status === 'sitting out') return t('cash.status.sittingOut');
  if (s.status === 'waiting') return t('cash.status.waiting');
  if (s.status === 'away') return t('cash.status.away');
  if (s.owes) return t(s.owes & 2 ? 'cash.status.owesBig' : 'cash.status.owesSmall');
  // C6: who straddled this hand, and whose straddle is in for the next (the view's flags, when it has them)
  if (s.straddled && inHand) return t('cash.status.straddled');
  if (s.straddle_next) return t('cash.status.straddleNext');
  return '';
}

/** The seconds left of a time bank in use: never more than the seat's bank (C11). */
function bankLeft(seconds, bank) {
  const left = Math.max(0, Math.ceil(seconds));
  return typeof bank === 'number' ? Math.min(left, Math.ceil(bank)) : left;
}

/** A seat's time bank in words, when the view gives it (C11): the seconds, and the hands to its next step. */
function bankText(s) {
  if (s.time_bank == null) return '';
  const text = t('cash.seatBank', {n: s.time_bank});
  return s.time_bank_hands != null ? `${text} (${t('cash.seatBankNext', {n: s.time_bank_hands})})` : text;
}

/** The felt's display model of a cash view (felt.js render's input). */
export function cashModel(state, now) {
  const view = state.view;
  const me = view.you ?? null;
  const facts = cashFacts(state.events);
  const inHand = !!view.in_hand;
  const acting = inHand && view.to_act != null && view.to_act >= 0 ? view.to_act : null;
  const clock = state.clock || {};
  const won = inHand ? {} : winnings(view);
  const wins = inHand ? [{}, {}] : winningCards(view);
  // C11: once the turn's clock ran out the acting seat's time bank runs, to the clock's bank_deadline
  const banking = acting != null && clock.bank_deadline != null && clock.turn_deadline != null && now >= clock.turn_deadline;
  const seats = view.seats.map(s => {
    if (s.player == null) {
      return {seat: s.seat, name: '', stack: 0, bet: 0, cards: null, empty: true,
        stateText: me == null ? t('table.sitHere') : '', flags: {empty: true}};
    }
    const text = splitCards(s.cards);
    const dealtIn = s.cards != null && text.length > 0;
    const folded = inHand && dealtIn && !s.in_hand;
    const known = text.some(c => c !== '??');
    // in a hand: the cards of every seat still in (backs for the hidden ones); between
    // hands: only the cards someone may see (your own, the hands shown down, R17)
    let cards = null;
    if (dealtIn && (inHand ? !folded : known)) cards = text.map(c => (c === '??' ? 'back' : c));
    const shown = s.shown || null;  // the hand shown down, named as the freezeout view names it
    const flags = {me: s.seat === me, acting: acting === s.seat, folded, allin: inHand && dealtIn && !folded && s.stack === 0,
      winner: (won[s.seat] || 0) > 0, out: s.status === 'sitting out' || s.status === 'away'};
    let stateText = seatState(s, {acting: flags.acting, dealtIn, folded, inHand});
    if (flags.acting && banking) {
      flags.banking = true;
      stateText = t('cash.seatBankRunning', {s: bankLeft(clock.bank_deadline - now, s.time_bank)});
    }
    return {seat: s.seat, name: s.player, stack: s.stack, bet: inHand ? s.bet || 0 : 0, cards, up: null, flags, position: s.position || '',
      stateText,
      stateTitle: [seatState(s, {acting: flags.acting, dealtIn, folded, inHand}), bankText(s)].filter(Boolean).join(' · '),
      handName: !inHand && shown ? handName(shown) : '', handLabel: '', won: won[s.seat] || 0,
      winCards: wins[0][s.seat] || wins[1][s.seat] ? [...(wins[0][s.seat] || []), ...(wins[1][s.seat] || [])] : null};
  });
  const bets = view.seats.reduce((a, s) => a + (inHand ? s.bet || 0 : 0), 0);
  const pots = [];
  if (inHand && view.pot > 0) {
    // the view's pot counts this round's bets too: the middle shows what is already in it
    if (view.pot - bets > 0) pots.push({label: t('table.pot'), amount: view.pot - bets});
    if (bets > 0) pots.push({label: t('table.total'), amount: view.pot, total: true});
  }
  return {
    viewer: me ?? 0,
    seats,
    button: view.dealer_button ?? null,
    sb: inHand ? (view.blind_seats || [])[0] ?? null : null,
    bb: inHand ? (view.blind_seats || [])[1] ?? null : null,
    pots,
    board: splitCards(view.board),
    boardSize: view.board_size ?? 5,
    // C7: a board run twice: the second run's board under the first, each with its winners' cards
    secondBoard: view.boards && view.boards.length > 1 ? splitCards(view.boards[1]) : null,
    boardWins: [new Set(Object.values(wins[0]).flat()), new Set(Object.values(wins[1]).flat())],
    // the ring runs down the time bank once it is in use
    clock: acting != null ? (banking ? {seat: acting, started: clock.turn_deadline, deadline: clock.bank_deadline, now}
      : {seat: acting, started: clock.turn_started ?? now, deadline: clock.turn_deadline, now}) : null,
    result: null,
    facts,
    view,
    acting,
  };
}

/** The cash view in the shape the action bar reads (its quick sizes and labels): the
 * hand's number, the viewer, the blinds, and the pot apart from this round's bets. */
export function barView(view) {
  const bets = view.seats.reduce((a, s) => a + (s.bet || 0), 0);
  const stakes = view.stakes || {};
  return {...view, hand_number: view.hand, viewer: view.you, blinds: [stakes.small_blind || 0, stakes.big_blind || 0],
    pots: [{amount: Math.max(0, (view.pot || 0) - bets)}], seats: view.seats.map(s => ({...s, stack: s.stack ?? 0}))};
}

/** The stakes in words, from the server's one statement of them (docs/protocol.md "stakes"):
 * "100/200" (blinds), limit games their bets "20/40", stud its bets with the ante and
 * bring-in "20/40 (ante 2, bring-in 5)". */
export function stakesText(stakes) {
  if (!stakes) return '';
  const bets = stakes.small_bet && stakes.big_bet ? `${num(stakes.small_bet)}/${num(stakes.big_bet)}`
    : `${num(stakes.small_blind)}/${num(stakes.big_blind)}`;
  const forced = [stakes.ante ? t('game.level.ante', {n: num(stakes.ante)}) : '',
    stakes.bring_in ? t('game.level.bringIn', {n: num(stakes.bring_in)}) : ''].filter(Boolean);
  return forced.length ? `${bets} (${forced.join(', ')})` : bets;
}
