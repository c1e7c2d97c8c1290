// Equity on every run-out (issue #36): when the betting is over with two or more hands face up
// (V20) and cards remain to come, each of those hands' share of each pot is shown by its seat,
// asked of the odds calculator (GET /api/odds, docs/protocol.md "Odds").  Every game where no
// decision remains; draw games show nothing (a draw still to come is a decision).  Each pot is
// shared among the hands that contend it (the others' cards are dead to it); with more than one
// pot the seat shows its share of each.  A board run twice (C7) wins half of every pot per run:
// a share is the mean of the two runs', each run dealt from what neither run has shown yet.
// Freezeout tables, the replayer and cash tables (issue #25) all draw through here.
import {h} from './dom.js';
import {t, getLang} from './i18n.js';
import {DEAL_STAGGER} from './cards.js';
import {DEAL_SETTLE} from './tablerunout.js';
import * as api from './api.js';
import {splitCards} from './poker.js';

const EQUITY_GAMES = new Set(['NT', 'PT', 'FT', 'NS', 'PS', 'PO', 'NO', 'FO', 'FO/8', 'PO/8', 'F7S', 'F7S/8', 'FR']);
const STUD = new Set(['F7S', 'F7S/8', 'FR']);
const answers = new Map();  // query → Promise of the server's answer: a step drawn again asks nothing

/** The pots a run-out decides: `[{pot, seats}]`, each with the seats eligible to win it — from
 *  the hand's `pot_awarded` events when the update brought them (a live table's run-out), else
 *  the view's pots (the replayer's step), else one pot every hand contends. */
export function runOutPots(events, view) {
  const byPot = new Map();
  for (const e of events || []) if (e.type === 'pot_awarded' && !byPot.has(e.pot)) byPot.set(e.pot, e.eligible || []);
  if (byPot.size) return [...byPot].sort((a, b) => a[0] - b[0]).map(([pot, seats]) => ({pot, seats}));
  const pots = (view && view.pots) || [];
  return pots.filter(p => p.amount > 0 && p.eligible).map((p, pot) => ({pot, seats: p.eligible}));
}

/** The odds calculator's queries for a felt's model (model.js) in a run-out, or null when it is
 *  none: the hand is on, nobody is to act, 2+ hands in are all face up, at most one has chips
 *  behind, and cards remain (the board, or a stud hand short of seven).  `{seats, pots}`: the
 *  hands' seats, and per pot the seats that contend it with one query per run (a pot only one
 *  hand contends is that hand's: no query). */
export function runOutQuery(model, game) {
  const code = game || 'NT';
  if (!model || model.result || model.acting != null || !EQUITY_GAMES.has(code)) return null;
  if (model.view && (model.view.hand_over || model.view.finished)) return null;
  const live = (model.seats || []).filter(s => s.dealtIn && !(s.flags && s.flags.folded) && (s.cards || []).length);
  if (live.length < 2 || live.filter(s => s.stack > 0).length > 1) return null;
  if (!live.every(s => s.cards.every((c, i) => c !== 'back' && s.up && s.up[i]))) return null;
  const stud = STUD.has(code);
  const boards = [model.board || [], ...(model.secondBoard ? [model.secondBoard] : [])];
  const full = model.boardSize ?? 5;
  if (stud ? live.every(s => s.cards.length >= 7) : boards.every(b => b.length >= full)) return null;
  // stud: the up cards of players who folded are dead (their down cards stay in the deck)
  const folded = stud ? (model.seats || []).filter(s => s.flags && s.flags.folded && s.cards)
    .flatMap(s => s.cards.filter((c, i) => c !== 'back' && s.up && s.up[i])) : [];
  const common = boards.length > 1 ? boards[0].filter((c, i) => c === boards[1][i]) : [];
  const cardsOf = new Map(live.map(s => [s.seat, s.cards]));
  const seats = live.map(s => s.seat);
  const listed = (model.runOutPots || runOutPots(null, model.view)).map(p => ({pot: p.pot, seats: p.seats.filter(seat => cardsOf.has(seat))}))
    .filter(p => p.seats.length);
  const pots = listed.length ? listed : [{pot: 0, seats}];
  return {seats, pots: pots.map(p => ({...p, runs: p.seats.length < 2 ? [] : boards.map((board, run) => {
    const params = new URLSearchParams({game: code});
    for (const seat of p.seats) params.append('hand', cardsOf.get(seat).join(''));
    if (!stud && board.length) params.set('board', board.join(''));
    // dead to this pot: the hands that do not contend it, and the other run's cards beyond the common board
    const others = seats.filter(seat => !p.seats.includes(seat)).flatMap(seat => cardsOf.get(seat));
    const otherRun = boards.length > 1 ? boards[1 - run].slice(common.length) : [];
    const dead = [...folded, ...others, ...otherRun];
    if (dead.length) params.set('dead', dead.join(''));
    return params.toString();
  })}))};
}

const MAX_BATCH = 16;  // the server's cap on questions per batch (oddsdesk.py MAX_BATCH)
let asking = Promise.resolve();  // one request at a time from a page: a replayer clicked through never bursts the server's queue

/** The answers to `queries`, every one of a moment in one request (GET /api/odds/batch): the
 *  pots and runs of the street just dealt cost one request, and a question asked before costs
 *  nothing (the page keeps its answers; the server counts only questions it has not answered). */
function askAll(queries) {
  const fresh = [...new Set(queries.filter(q => !answers.has(q)))];
  for (let i = 0; i < fresh.length; i += MAX_BATCH) {
    const chunk = fresh.slice(i, i + MAX_BATCH);
    const params = new URLSearchParams();
    for (const q of chunk) params.append('q', q);
    const batch = asking.then(() => api.get('/api/odds/batch?' + params.toString()));
    asking = batch.catch(() => {});
    chunk.forEach((q, k) => {
      const answer = batch.then(data => data.answers[k]);
      answers.set(q, answer);
      answer.catch(() => answers.delete(q));  // refused (a rate limit, busy): asked again next time
    });
  }
  return Promise.all(queries.map(q => answers.get(q)));
}

/** Each seat's share of each pot: `[{pot, share: Map seat → {equity, error}}]`, exact when
 *  every answer is; each run counts half (C7). */
export function potShares(asked, answers) {
  let k = 0;
  let exact = true;
  const pots = asked.pots.map(p => {
    const share = new Map();
    if (!p.runs.length) { share.set(p.seats[0], {equity: 1, error: 0}); return {pot: p.pot, share}; }
    const runs = p.runs.map(() => answers[k++]);
    p.seats.forEach((seat, i) => {
      const equity = runs.reduce((sum, a) => sum + a.hands[i].equity, 0) / runs.length;
      const error = Math.sqrt(runs.reduce((sum, a) => sum + (a.hands[i].error || 0) ** 2, 0)) / runs.length;
      share.set(seat, {equity, error});
    });
    exact = exact && runs.every(a => a.exact);
    return {pot: p.pot, share};
  });
  return {pots, exact};
}

function badge(felt, seat) {
  const seatEl = felt.seatEls && felt.seatEls[seat];
  if (!seatEl) return null;
  let el = seatEl.querySelector('.runout-eq');
  if (!el) { el = h('span.runout-eq'); seatEl.querySelector('.plate').append(el); }
  el.classList.remove('refused');
  return el;
}

/** The server refused the odds (429 too many from this address, 503 busy): each seat's badge
 *  says so quietly — a dimmed "odds later" with the reason on hover — rather than vanishing. */
function refused(felt, seats, status) {
  for (const seat of seats) {
    const el = badge(felt, seat);
    if (!el) continue;
    el.replaceChildren(t('runout.refused'));
    el.classList.remove('pots');
    el.classList.add('refused');
    el.title = t(status === 429 ? 'runout.rateLimited' : 'runout.busy');
    el.hidden = false;
    keepOnScreen(el);
  }
}

/** Draw (or clear) each seat's share on `felt` for `model`; `still()` says whether the answer is
 *  still wanted when it comes. */
export async function showRunOutOdds(felt, model, game, still = () => true) {
  const asked = runOutQuery((model && model.runOutModel) || model, game);
  for (const el of felt.el.querySelectorAll('.runout-eq')) el.hidden = true;
  if (!asked) return;
  let data;
  try { data = await askAll(asked.pots.flatMap(p => p.runs)); } catch (e) {
    if (still() && e && (e.status === 429 || e.status === 503)) refused(felt, asked.seats, e.status);
    return;
  }
  if (!still()) return;
  const {pots, exact} = potShares(asked, data);
  const pct = new Intl.NumberFormat(getLang(), {minimumFractionDigits: 1, maximumFractionDigits: 1});
  const text = s => pct.format(100 * s.equity) + ' %' + (exact ? '' : ' ±' + pct.format(100 * s.error));
  const several = pots.length > 1;
  for (const seat of asked.seats) {
    const el = badge(felt, seat);
    if (!el) continue;
    const mine = pots.filter(p => p.share.has(seat));
    const lines = mine.map(p => several ? h('span.runout-pot', {dataset: {pot: String(p.pot)}},
      t(p.pot === 0 ? 'runout.mainPot' : 'runout.sidePot', {n: p.pot, pct: text(p.share.get(seat))})) : text(p.share.get(seat)));
    el.replaceChildren(...lines);
    el.classList.toggle('pots', several);
    el.title = exact ? '' : t('runout.monteCarlo');
    el.hidden = false;
    keepOnScreen(el);
  }
}

/** A badge takes no room on the felt (odds.css): the felt fits itself to the same plates as before
 *  the run-out, so the table does not shrink while the cards are dealt.  It hangs under its plate,
 *  or, where that would cover a name, a stack, a card or a pot, the nearest place that covers
 *  none (the seat's bet's place is empty while the run-out is dealt); never off the screen. */
function keepOnScreen(el) {
  el.style.translate = '';
  requestAnimationFrame(() => requestAnimationFrame(() => nudge(el)));
}

const COVERS_NOT = '.seat .pname, .seat .stack, .hole .card:not(.slot), .board .card, .pots .pot';
const overlaps = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

function nudge(el) {
  if (el.hidden || !el.isConnected) return;
  el.style.translate = '';
  const seatEl = el.closest('.seat');
  const wrap = seatEl.parentElement;
  const plate = el.parentElement.getBoundingClientRect();
  const zoom = el.parentElement.offsetWidth ? plate.width / el.parentElement.offsetWidth : 1;  // style px are unzoomed (tablefit.js)
  const box = el.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const others = [...wrap.querySelectorAll('.runout-eq:not([hidden])')].filter(b => b !== el && b.style.translate).map(b => b.getBoundingClientRect());
  const parts = [...wrap.querySelectorAll(COVERS_NOT)].map(p => p.getBoundingClientRect()).filter(r => r.width > 0).concat(others);
  const bet = wrap.querySelectorAll(':scope > .bet')[[...wrap.querySelectorAll(':scope > .seat')].indexOf(seatEl)];
  const b = bet ? bet.getBoundingClientRect() : null;
  const dys = [0, ...(b ? [b.top + b.height / 2 - (box.top + box.height / 2)] : []), -box.height / 2, box.height / 2, box.height, -box.height];
  const dxs = [0, ...(b ? [b.left + b.width / 2 - (box.left + box.width / 2)] : []), -box.width / 2, box.width / 2, -box.width, box.width];
  let best = [0, 0];
  found: for (const dy of dys) for (const dx of dxs) {
    const r = {left: box.left + dx, right: box.right + dx, top: box.top + dy, bottom: box.bottom + dy};
    if (r.left < 2 || r.right > width - 2) continue;
    if (!parts.some(p => overlaps(r, p))) { best = [dx, dy]; break found; }
  }
  let [dx, dy] = best;
  const left = box.left + dx;
  const right = box.right + dx;
  if (left < 2) dx += 2 - left; else if (right > width - 2) dx += width - 2 - right;
  el.style.translate = `${dx / zoom}px ${dy / zoom}px`;
}

/** A live table's run-out as it is dealt (the whole run-out comes in one update and the felt
 *  deals its cards one after another, DEAL_STAGGER apart, until `until`; a second run's board,
 *  C7, beside the first, card for card): the model of the street on the felt at `now` — the
 *  boards and stud hands without the streets still to land — or null when no run-out is being
 *  dealt.  `events`: the hand's events so far (their pots are the run-out's). */
export function liveRunOut(model, events, now, until, stagger, settle) {
  if (until == null || now >= until) return null;
  const turned = events.map(e => e.type).lastIndexOf('hand_turned_up');
  if (turned < 0) return null;
  // each street after the turn-up: the board's cards, and stud's cards per seat; the second run's
  const streets = [];
  const second = [];
  for (const e of events.slice(turned + 1)) {
    // (a stud street names no board cards: its `cards` is empty, a string or a list)
    if (e.type === 'street_dealt') streets.push({board: splitCards(e.cards), holes: {}});
    else if (e.type === 'second_run_dealt') second.push(splitCards(e.cards));
    else if (e.type === 'hole_dealt' && streets.length) streets[streets.length - 1].holes[e.seat] = splitCards(e.cards);
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
  let landed2 = 0;  // the second run's streets on the felt (its row is dealt beside the first)
  dealt = 0;
  for (const cards of second) {
    dealt += cards.length;
    if (now >= started + dealt * stagger) landed2 += 1;
  }
  const later = streets.slice(landed);
  const gone = new Set(later.flatMap(street => [...street.board, ...Object.values(street.holes).flat()]));
  const gone2 = new Set(second.slice(landed2).flat());
  const seats = model.seats.map(s => {
    if (!s.cards) return s;
    const keep = s.cards.map((c, i) => [c, s.up && s.up[i]]).filter(([c]) => !gone.has(c));
    return {...s, cards: keep.map(([c]) => c), up: keep.map(([, u]) => u)};
  });
  const secondBoard = model.secondBoard ? model.secondBoard.filter(c => !gone2.has(c)) : null;
  return {...model, seats, board: (model.board || []).filter(c => !gone.has(c)), secondBoard, result: null, acting: null,
    runOutPots: runOutPots(events, null), view: {...model.view, hand_over: false, finished: false}};
}

/** A cash table's felt model (cashview.js) in the shape a run-out reads: the hands turned up
 *  (V20) are the hands in — their cards from the `hand_turned_up` events, public to everyone,
 *  and stud's cards dealt after it face up — and no other seat holds cards. */
export function cashRunOutModel(model, events) {
  const turned = new Map();
  let after = false;
  for (const e of events || []) {
    if (e.type === 'hand_started') { turned.clear(); after = false; } else if (e.type === 'hand_turned_up') {
      turned.set(e.seat, (e.cards.match(/../g) || []).map(c => (c === '??' ? 'back' : c)));
      after = true;
    } else if (e.type === 'hole_dealt' && after && turned.has(e.seat)) turned.get(e.seat).push(...(e.cards.match(/../g) || []).map(c => (c === '??' ? 'back' : c)));
  }
  const seats = model.seats.map(s => turned.has(s.seat)
    ? {...s, dealtIn: true, cards: turned.get(s.seat), up: turned.get(s.seat).map(() => true), stack: 0, flags: {...s.flags, folded: false}}
    : {...s, dealtIn: false, cards: null});
  return {...model, seats, view: {...model.view, hand_over: false, finished: false}};
}

/** The cash table's hook (cashtable.js): while a run-out is dealt, each hand's share of each pot. */
export function showCashRunOut(page, model) {
  const s = page.state;
  const now = page.now();
  const street = page.settling() ? liveRunOut(cashRunOutModel(model, s.events), s.events, now, page.settleUntil, DEAL_STAGGER, DEAL_SETTLE) : null;
  showRunOutOdds(page.felt, street, s.view.game, () => page.model === model);
}

/** A cash table's felt while its run-out is dealt, as a freezeout table's (table.js): the hands
 *  turned up, the boards and the pots, but no winner, result or hand name until the last card
 *  is down, and the stacks as they were before it.  The model as it is otherwise. */
export function cashBeforeTheResult(page, model) {
  if (!page.settling()) return model;
  const before = (model.view && model.view.before_result) || {stacks: [], pots: []};  // the view says them (issue #33 item 5)
  const seats = model.seats.map(s => {
    if (s.empty) return s;
    const stack = before.stacks[s.seat] ?? s.stack;
    const allin = stack === 0 && !!s.cards;
    return {...s, stack, won: 0, handName: '', winCards: null, flags: {...s.flags, winner: false, allin},
      stateText: allin ? t('table.allIn') : s.stateText};
  });
  // the pots as they stood (each run's half of a pot together), each under its own name
  const pots = before.pots.map(({pot, amount}) => ({label: pot === 0 ? t('table.pot') : t('table.sidePot', {n: pot}), amount}));
  return {...model, seats, pots, boardWins: [new Set(), new Set()]};
}

/** A cash hand's replayer step (replayer.js) in the shape a run-out reads: the hands turned up
 *  by the step's events so far, and the pots the hand's `pot_awarded` events name. */
export function cashReplayRunOut(model, sofar, hand) {
  return {...cashRunOutModel(model, sofar), runOutPots: runOutPots(hand, null)};
}
