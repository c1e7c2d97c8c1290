// Equity on every run-out (issue #36): when the betting is over with two or more hands face up
// (V20) and cards remain to come, each of those hands' share of the pot is shown by its seat,
// asked of the odds calculator (GET /api/odds, docs/protocol.md "Odds").  Every game where no
// decision remains; draw games show nothing (a draw still to come is a decision).  The share is
// of a pot every hand still in contests: the main pot (side pots are the engine's review's).
import {h} from './dom.js';
import {getLang} from './i18n.js';
import * as api from './api.js';

const EQUITY_GAMES = new Set(['NT', 'PT', 'FT', 'NS', 'PS', 'PO', 'NO', 'FO', 'FO/8', 'PO/8', 'F7S', 'F7S/8', 'FR']);
const STUD = new Set(['F7S', 'F7S/8', 'FR']);
const answers = new Map();  // query → Promise of the server's answer: a step drawn again asks nothing

/** The odds calculator's query for a felt's model (model.js) in a run-out, or null when it is none:
 *  the hand is on, nobody is to act, 2+ hands in are all face up, at most one has chips behind,
 *  and cards remain (the board, or a stud hand short of seven). */
export function runOutQuery(model, game) {
  const code = game || 'NT';
  if (!model || model.result || model.acting != null || !EQUITY_GAMES.has(code)) return null;
  if (model.view && (model.view.hand_over || model.view.finished)) return null;
  const live = (model.seats || []).filter(s => s.dealtIn && !(s.flags && s.flags.folded) && (s.cards || []).length);
  if (live.length < 2 || live.filter(s => s.stack > 0).length > 1) return null;
  if (!live.every(s => s.cards.every((c, i) => c !== 'back' && s.up && s.up[i]))) return null;
  const stud = STUD.has(code);
  const board = model.board || [];
  if (stud ? live.every(s => s.cards.length >= 7) : board.length >= (model.boardSize ?? 5)) return null;
  const params = new URLSearchParams({game: code});
  for (const s of live) params.append('hand', s.cards.join(''));
  if (!stud && board.length) params.set('board', board.join(''));
  // stud: the up cards of players who folded are dead (their down cards stay in the deck)
  const dead = stud ? (model.seats || []).filter(s => s.flags && s.flags.folded && s.cards)
    .flatMap(s => s.cards.filter((c, i) => c !== 'back' && s.up && s.up[i])) : [];
  if (dead.length) params.set('dead', dead.join(''));
  return {query: params.toString(), seats: live.map(s => s.seat)};
}

/** Draw (or clear) each seat's share on `felt` for `model`; `still()` says whether the answer is
 *  still wanted when it comes. */
export async function showRunOutOdds(felt, model, game, still = () => true) {
  const asked = runOutQuery(model, game);
  for (const el of felt.el.querySelectorAll('.runout-eq')) el.hidden = true;
  if (!asked) return;
  let answer = answers.get(asked.query);
  if (!answer) {
    answer = api.get('/api/odds?' + asked.query);
    answers.set(asked.query, answer);
    answer.catch(() => answers.delete(asked.query));  // refused (a rate limit): asked again next time
  }
  let data;
  try { data = await answer; } catch { return; }
  if (!still()) return;
  const pct = new Intl.NumberFormat(getLang(), {minimumFractionDigits: 1, maximumFractionDigits: 1});
  asked.seats.forEach((seat, k) => {
    const seatEl = felt.seatEls && felt.seatEls[seat];
    if (!seatEl) return;
    let el = seatEl.querySelector('.runout-eq');
    if (!el) { el = h('span.runout-eq'); seatEl.querySelector('.plate').append(el); }
    const hand = data.hands[k];
    el.textContent = pct.format(100 * hand.equity) + ' %' + (data.exact ? '' : ' ±' + pct.format(100 * hand.error));
    el.title = data.exact ? '' : `±${pct.format(100 * hand.error)} (Monte Carlo)`;
    el.hidden = false;
  });
}

/** A live table's run-out as it is dealt (table.js: the whole run-out comes in one update and
 *  the felt deals its cards one after another, DEAL_STAGGER apart, until `until`): the model of
 *  the street on the felt at `now` — the board and stud hands without the streets still to
 *  land — or null when no run-out is being dealt.  `events`: the hand's events so far. */
export function liveRunOut(model, events, now, until, stagger, settle) {
  if (until == null || now >= until) return null;
  const turned = events.map(e => e.type).lastIndexOf('hand_turned_up');
  if (turned < 0) return null;
  // each street after the turn-up: the board's cards, and stud's cards per seat
  const streets = [];
  for (const e of events.slice(turned + 1)) {
    if (e.type === 'street_dealt') streets.push({board: e.cards ? e.cards.match(/../g) || [] : [], holes: {}});
    else if (e.type === 'hole_dealt' && streets.length) streets[streets.length - 1].holes[e.seat] = e.cards.match(/../g) || [];
  }
  if (!streets.length) return null;
  const count = street => street.board.length + Object.values(street.holes).reduce((n, c) => n + c.length, 0);
  const total = streets.reduce((n, street) => n + count(street), 0);
  const started = until - settle - total * stagger;
  let landed = 0;  // streets whose cards are all on the felt
  let dealt = 0;
  for (const street of streets) {
    dealt += count(street);
    if (now >= started + dealt * stagger) landed += 1;
  }
  const later = streets.slice(landed);
  const gone = new Set(later.flatMap(street => [...street.board, ...Object.values(street.holes).flat()]));
  const seats = model.seats.map(s => {
    if (!s.cards) return s;
    const keep = s.cards.map((c, i) => [c, s.up && s.up[i]]).filter(([c]) => !gone.has(c));
    return {...s, cards: keep.map(([c]) => c), up: keep.map(([, u]) => u)};
  });
  return {...model, seats, board: (model.board || []).filter(c => !gone.has(c)), result: null, acting: null,
    view: {...model.view, hand_over: false, finished: false}};
}
