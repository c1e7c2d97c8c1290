// An all-in run-out on the table page (table.js): the board cards that end a hand are dealt one
// after another (cards.js), and the result waits for the last of them.  Meanwhile the felt draws
// the table as it stood before the pots were awarded, as the view says it (`before_result`).
import {t} from './i18n.js';
import {DEAL_STAGGER, stillQuery} from './cards.js';
import {splitCards} from './poker.js';

/** The last card's own deal (.35 s, style.css) and a beat. */
export const DEAL_SETTLE = 0.75;

/** When the cards of an update that ends the hand (an all-in run-out) are all dealt: the felt
 * deals cards arriving together one after another (cards.js, in `runOutOrder`), and the result
 * waits for the last of them and a beat.  The board's cards, and stud's cards dealt after the
 * hands were turned up (V20: the run-out's streets, one card per hand per street).  Null when
 * nothing is run out or motion is reduced. */
export function runOutEnds(events, now) {
  if (!events.some(e => e.type === 'hand_ended') || stillQuery.matches) return null;
  const cards = runOutOrder(events).size;
  return cards ? now + cards * DEAL_STAGGER + DEAL_SETTLE : null;
}

/** The run-out's cards in the order they are dealt, each to its place in it (card → index): the
 *  board's streets, and in stud, street by street, each hand's card after the hands were turned
 *  up — so a stud run-out comes street by street across the seats, as a dealer deals it, not a
 *  seat's four cards at once.  Empty when the events run nothing out. */
export function runOutOrder(events) {
  const order = new Map();
  let after = false;
  for (const e of events) {
    if (e.type === 'hand_turned_up') after = true;
    else if (e.type === 'street_dealt') for (const c of splitCards(e.cards)) order.set(c, order.size);
    else if (e.type === 'hole_dealt' && after) for (const c of splitCards(e.cards)) order.set(c, order.size);
  }
  return order;
}

/** The table while a run-out is dealt: the tabled hands and the pot, but no
 * winner, result or hand name yet, and the stacks and pots as they were before
 * it — the view's `before_result` (docs/protocol.md "View"). */
export function beforeTheResult(model) {
  const before = model.view.before_result || {stacks: [], pots: []};
  const outNow = new Set(model.facts.eliminated.map(e => e.seat));
  const seats = model.seats.map(s => {
    const stack = before.stacks[s.seat] ?? s.stack;
    const allIn = stack === 0 && !!s.cards && !s.flags.folded;
    // who went out in an earlier hand stays out; who goes out in this one is not out yet
    const out = s.flags.out && !outNow.has(s.seat);
    return {...s, stack, won: 0, handName: '', handLabel: '', winCards: null, flags: {...s.flags, winner: false, out, allin: allIn && !out},
      stateText: out ? s.stateText : allIn ? t('table.allIn') : s.flags.out || s.flags.winner ? '' : s.stateText};
  });
  // the pots as they stood, each under its own name, until the last card is down
  const pots = before.pots.map(({pot, amount}) => ({label: pot === 0 ? t('table.pot') : t('table.sidePot', {n: pot}), amount}));
  return {...model, seats, result: null, pots};
}
