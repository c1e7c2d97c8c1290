// A cash table as the felt draws it (issue #25, docs/protocol.md "Cash tables"): pure
// functions from the server's cash view and the hand's public events to the felt's display
// model and the hand's result in words.  The page holds no poker: stacks, statuses, what a
// seat owes, whose turn, the moves, the pots won, the rake and each run's board all come
// from the server; this module only words and places them.
import {t, num} from './i18n.js';
import {splitCards, handName, cardsText} from './poker.js';
import {shownName} from './names.js';

/** Whether a table summary (or a snapshot's table) is a cash table, in every shape the
 * server has given it: the contract's `"format": "cash"`, or the game's own `format`. */
export function isCashTable(table) {
  if (!table) return false;
  if (table.format === 'cash') return true;
  if (table.format && typeof table.format === 'object' && (table.format.type === 'cash' || table.format.format === 'cash')) return true;
  return !!(table.table_game && table.table_game.format === 'cash');
}

/** Whether the state is a cash table's (its view says so, or its table does). */
export function isCash(state) {
  return !!((state.view && state.view.format === 'cash') || isCashTable(state.table));
}

/** What the current hand's public events say about its result: each pot's award (per run
 * when the board was run twice, C7), the rake (C5), and whether the hand is over. */
export function cashFacts(events) {
  const facts = {ended: false, runs: [], awards: [], rake: 0, shown: {}, blinds: {}, straddles: [], number: null};
  let run = null;
  for (const e of events || []) {
    switch (e.type) {
      case 'hand_started': facts.number = e.number ?? facts.number; break;
      case 'blind_posted':
        if (e.kind === 'small blind') facts.blinds.sb = e.seat;
        else if (e.kind === 'big blind' && facts.blinds.bb == null) facts.blinds.bb = e.seat;
        else if (e.kind === 'straddle') facts.straddles.push(e.seat);
        break;
      case 'run_showdown': run = {run: e.run, board: splitCards(e.board), awards: []}; facts.runs.push(run); break;
      case 'pot_awarded': (run ? run.awards : facts.awards).push(e); break;
      case 'rake_taken': facts.rake += e.amount || 0; break;
      case 'cards_shown': facts.shown[e.seat] = e; break;
      case 'hand_ended': facts.ended = true; break;
      default: break;
    }
  }
  return facts;
}

/** Chips each seat won in the hand (every pot of every run). */
export function cashWinnings(facts) {
  const won = {};
  const all = [...facts.awards, ...facts.runs.flatMap(r => r.awards)];
  for (const a of all) for (const [seat, chips] of a.shares || []) if (chips > 0) won[seat] = (won[seat] || 0) + chips;
  return won;
}

/** The hand's result in words: "Run 1 (board): Alice wins 380 — Three of a kind" per run,
 * or one line per pot, and the rake taken.  Null before the hand is over. */
export function cashResult(facts, view, me) {
  if (!facts.ended) return null;
  const who = seat => seat === me ? t('result.you') : shownName(((view.seats || [])[seat] || {}).player || '?');
  const line = (award, prefix) => {
    const winners = (award.shares || []).filter(x => x[1] > 0).map(x => x[0]);
    const names = winners.map(who).join(' & ');
    const text = winners.length === 1 && winners[0] === me ? t('result.youWin', {amount: award.amount})
      : t('cash.wins', {names, amount: award.amount});
    return {text: prefix ? `${prefix}: ${text}` : text, hand: handName(award), winners};
  };
  const lines = [];
  if (facts.runs.length) {
    for (const r of facts.runs) {
      const prefix = t('cash.run', {n: r.run, board: cardsText(r.board)});
      for (const award of r.awards) lines.push({...line(award, prefix), run: r.run});
    }
  } else {
    for (const award of facts.awards) lines.push(line(award, facts.awards.length > 1 && award.pot ? t('result.sidePot', {n: award.pot}) : ''));
  }
  return {lines, rake: facts.rake, runs: facts.runs.map(r => ({run: r.run, board: r.board}))};
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
  return '';
}

/** The felt's display model of a cash view (felt.js render's input). */
export function cashModel(state, now) {
  const view = state.view;
  const me = view.you ?? null;
  const facts = cashFacts(state.events);
  const inHand = !!view.in_hand;
  const acting = inHand && view.to_act != null && view.to_act >= 0 ? view.to_act : null;
  const clock = state.clock || {};
  const won = inHand ? {} : cashWinnings(facts);
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
    const shown = facts.shown[s.seat];
    const flags = {me: s.seat === me, acting: acting === s.seat, folded, allin: inHand && dealtIn && !folded && s.stack === 0,
      winner: (won[s.seat] || 0) > 0, out: s.status === 'sitting out' || s.status === 'away'};
    return {seat: s.seat, name: s.player, stack: s.stack, bet: inHand ? s.bet || 0 : 0, cards, up: null, flags,
      stateText: seatState(s, {acting: flags.acting, dealtIn, folded, inHand}),
      handName: !inHand && shown ? handName(shown) : '', handLabel: '', won: won[s.seat] || 0,
      winCards: !inHand && shown && won[s.seat] ? splitCards(shown.best) : null};
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
    button: view.button != null && view.button >= 0 && view.hand > 0 ? view.button : null,
    sb: inHand ? facts.blinds.sb ?? null : null,
    bb: inHand ? facts.blinds.bb ?? null : null,
    pots,
    board: splitCards(view.board),
    boardSize: view.board_size ?? (view.board ? Math.max(5, splitCards(view.board).length) : 5),
    clock: acting != null ? {seat: acting, started: clock.turn_started ?? now, deadline: clock.turn_deadline, now} : null,
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

/** The stakes in words: "100/200" (limit games: their bets when the server names them). */
export function stakesText(stakes) {
  if (!stakes) return '';
  if (stakes.small_bet && stakes.big_bet) return `${num(stakes.small_bet)}/${num(stakes.big_bet)}`;
  return `${num(stakes.small_blind)}/${num(stakes.big_blind)}`;
}
