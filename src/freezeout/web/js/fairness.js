// Fair dealing checks in the browser (docs/protocol.md "Fairness"): before a
// hand the server commits to every deck position, sha256(leaf_0 + ... + leaf_51)
// with leaf_i = sha256(i + ":" + card + ":" + salt_i).  After the hand it opens
// only the cards that became public (and, to you, your own): each opened card
// must match its leaf, the leaves the commitment published before the hand, and
// every card seen at the table the opened card at its deal position.
import {h} from './dom.js';
import {saveKept} from './gamelog.js';
import {t} from './i18n.js';
import {splitCards} from './poker.js';

const UNKNOWN = '??';

const HEX64 = /^[0-9a-f]{64}$/;
const HEX32 = /^[0-9a-f]{32}$/;
const CARD = /^[2-9TJQKA][shdc]$/;
const SHORT_DECK_LOW = /^[2-5]/;  // ranks short-deck's 36 cards leave out (V16)

/** A flop game's documented deal (docs/protocol.md "Fairness"): `k` cards to each player
 * still in, seat by seat in seat order, then the board, no burns.  An auditor cannot take
 * the server's word for where each card went (`revealed.where`), since a dishonest server
 * would choose positions after the fact, so it checks that word against this order. */
function documentedWhere(seatsIn, k) {
  const hole = {};
  [...seatsIn].sort((a, b) => a - b).forEach((seat, i) => {
    hole[String(seat)] = Array.from({length: k}, (_, j) => k * i + j);
  });
  return {hole, boardStart: k * seatsIn.length};
}

function cardsOf(text) {
  if (Array.isArray(text)) return text.map(String);
  const out = [];
  for (let i = 0; typeof text === 'string' && i + 1 < text.length; i += 2) out.push(text.slice(i, i + 2));
  return out;
}

export async function sha256hex(text) {
  const bytes = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map(b => b.toString(16).padStart(2, '0')).join('');
}

const KEY = 'fz-commit-';
const KEEP = 8;

/**
 * The pre-hand commitments this page received, per hand number, for one game (kept in
 * localStorage, so a reload keeps what was seen).  A commitment binds only if it arrived
 * before the hand's first card: `fairness.next` for hand N counts when the message carrying
 * it is itself from before hand N (its view is at an earlier hand and its events start no
 * hand N) and no message seen so far started hand N; the first one for N is kept, a later,
 * different one is ignored.  `current` (sent to a client that joins mid-hand) never counts:
 * it arrived after the deal, so a hand this page did not see committed is "not verifiable".
 */
export class Commitments {
  constructor(gameId) {
    this.gameId = gameId;
    this.byHand = {};
    this.seen = 0;  // the highest hand number this page has seen started
    try {
      const data = JSON.parse(localStorage.getItem(KEY + gameId) || 'null');
      if (data && data.byHand && typeof data.byHand === 'object') this.byHand = data.byHand;
    } catch { /* ignore */ }
  }

  /** Note what a snapshot or update says (call it for every message, in order). */
  note(msg) {
    const fairness = msg && msg.fairness;
    const started = (msg.events || []).filter(e => e.type === 'hand_started').map(e => Number(e.number));
    const atHand = msg.view && Number.isInteger(msg.view.hand_number) ? msg.view.hand_number : 0;
    const seen = Math.max(this.seen, atHand, ...started);
    const next = fairness && fairness.next;
    const n = next && Number(next.hand);
    if (Number.isInteger(n) && n > seen && typeof next.commitment === 'string' && !(String(n) in this.byHand)) {
      this.byHand[String(n)] = next.commitment.toLowerCase();
      this.save();
    }
    this.seen = seen;
  }

  /** The commitment received for hand `n` before its first card, or null. */
  get(n) { return this.byHand[String(n)] || null; }

  save() {
    saveKept(KEY, this.gameId, {byHand: this.byHand}, KEEP);
  }
}

/**
 * Check one finished hand as `freezeout record verify` checks the player's own record
 * (server/fairness.py): `revealed` is what the server opened ({commitment, deck with
 * ?? where not opened, salts, leaves, where}); `hand` a GameLog hand's events with
 * `commitment`, the one this page received before the hand's first card (Commitments.get);
 * `myCards` the viewer's own cards; `game` optionally what the table deals ({deck: 52 or 36,
 * hole: hole cards a player, fixed: whether every card's position is known before the
 * first move}), else read from what the page saw.
 *
 * - every leaf is 64 hex digits and there are exactly as many as deck positions (52, or 36
 *   in short-deck): leaves of other lengths would let one commitment cut two ways, two
 *   boards either of which passes;
 * - each opened card with its salt (32 hex digits) gives its leaf at its own position, the
 *   leaves in order give the commitment received before the hand, no card is opened twice;
 * - flop games: every card seen (own, board, shown) is the opened card at its documented
 *   position; stud and draws: every card seen was opened.
 *
 * Returns {ok, unverifiable, reshuffled, hashOk, dealOk, reason, computed, opened}: without a
 * commitment received before the hand `unverifiable` (the opening's own commitment proves
 * nothing); when a draw ran out of cards (V13) the reshuffled discards were dealt in an order
 * only the full record shows, so `reshuffled` — neither fair nor unfair by guess.
 */
export async function verifyHand(revealed, hand, mySeat, myCards, game = null) {
  if (!revealed || !Array.isArray(revealed.leaves)) {
    return {ok: false, legacy: true, hashOk: false, dealOk: false, opened: 0, reason: 'no leaves'};
  }
  const events = (hand && hand.events) || [];
  const published = hand && typeof hand.commitment === 'string' ? hand.commitment.toLowerCase() : null;
  const fail = (hashOk, reason, extra = {}) => ({ok: false, unverifiable: published == null, reshuffled: false, hashOk,
    dealOk: false, reason, opened: 0, ...extra});
  const leaves = revealed.leaves;
  if (!leaves.every(x => typeof x === 'string' && HEX64.test(x.toLowerCase()))) return fail(false, 'a leaf is not 64 hex digits');
  const size = game && game.deck ? game.deck : leaves.length;
  if (size !== 52 && size !== 36) return fail(false, `${leaves.length} leaves: a deck has 52 positions (36 in short-deck)`);
  if (leaves.length !== size) return fail(false, `leaves must list ${size} digests`);
  if (typeof revealed.deck !== 'string' || revealed.deck.length !== 2 * size) return fail(false, `the deck must list ${size} positions`);
  const deck = cardsOf(revealed.deck);
  const salts = revealed.salts;
  if (!Array.isArray(salts) || salts.length !== size) return fail(false, `salts must list ${size} salts`);
  const lower = leaves.map(x => x.toLowerCase());
  const opened = new Map();  // position -> card
  for (let i = 0; i < size; i++) {
    if (deck[i] === UNKNOWN) continue;
    if (!CARD.test(deck[i])) return fail(false, `position ${i}: ${deck[i]} is not a card`);
    const salt = salts[i];
    if (typeof salt !== 'string' || !HEX32.test(salt.toLowerCase())) return fail(false, `position ${i} is opened without its salt`);
    if (await sha256hex(`${i}:${deck[i]}:${salt}`) !== lower[i]) return fail(false, `position ${i}: ${deck[i]} does not match its leaf`);
    opened.set(i, deck[i]);
  }
  const computed = await sha256hex(lower.join(''));
  const hashOk = computed === String(revealed.commitment).toLowerCase() && (published == null || computed === published);
  if (!hashOk) return fail(false, 'the commitment does not match the leaves', {computed});
  const cards = [...opened.values()];
  if (new Set(cards).size !== cards.length) return fail(true, 'an opened card appears twice', {computed});
  const seen = seenCards(events, mySeat, myCards);
  if (size === 36 && [...cards, ...seen.all].some(c => SHORT_DECK_LOW.test(c))) return fail(true, 'a 2-5 in a 36-card deck', {computed});
  const start = events.find(e => e.type === 'hand_started');
  const seats = start && Array.isArray(start.seats) ? start.seats : [];
  const fixed = game && game.fixed != null ? game.fixed : !events.some(e => e.type === 'hole_dealt' || e.type === 'drew');
  let reason = null;
  if (fixed) {
    const k = game && game.hole ? game.hole : holeCount(seen, revealed.where);
    const where = documentedWhere(seats, k);
    const at = (positions, shown, what) => {
      shown.forEach((card, i) => {
        if (reason || card === UNKNOWN) return;
        const p = positions[i];
        if (p == null || !opened.has(p)) reason = `${what}: ${card} is not opened in the commitment`;
        else if (opened.get(p) !== card) reason = `${what}: ${card} is not the committed ${opened.get(p)} (position ${p})`;
      });
    };
    at(seen.board.map((_, i) => where.boardStart + i), seen.board, 'the board');
    for (const [seat, shown] of seen.shown) at(where.hole[String(seat)] || [], shown, `seat ${seat}'s cards`);
    if (mySeat != null) at(where.hole[String(mySeat)] || [], seen.mine, 'your cards');
  } else {
    const known = new Set(cards);
    const missing = seen.all.find(c => !known.has(c));
    if (missing) reason = `${missing} is not opened in the commitment`;
  }
  const dealt = dealtCount(events, seats.length, seen, revealed.where);
  const reshuffled = !reason && !fixed && dealt > size;
  const unverifiable = published == null;
  return {ok: !reason && !unverifiable && !reshuffled, unverifiable, reshuffled, hashOk, dealOk: !reason, reason,
    computed, opened: opened.size};
}

/** Every card the page saw in a hand: the board, the cards shown (and stud's up-cards), its own. */
function seenCards(events, mySeat, myCards) {
  const board = events.filter(e => e.type === 'street_dealt').flatMap(e => cardsOf(e.cards));
  const shown = new Map();
  for (const e of events.filter(e => e.type === 'cards_shown')) shown.set(e.seat, cardsOf(e.cards));
  const up = events.filter(e => e.type === 'hole_dealt').flatMap(e => cardsOf(e.cards)).filter(c => c !== UNKNOWN);
  const mine = mySeat != null && myCards ? cardsOf(myCards) : [];
  const all = [...board, ...[...shown.values()].flat(), ...up, ...mine].filter(c => c !== UNKNOWN);
  return {board, shown, mine, all};
}

/** Hole cards a player in a flop game: as many as the page saw in one hand (its own, a shown
 * one), else the server's `where` (a wrong count misplaces every card seen, so it fails). */
function holeCount(seen, where) {
  const hands = [seen.mine, ...seen.shown.values()].filter(x => x.length);
  if (hands.length) return hands[0].length;
  const lists = where && where.hole ? Object.values(where.hole) : [];
  return lists.length ? lists[0].length : 2;
}

/** How many cards a stud or draw hand took from the deck: stud's streets and shared card, or
 * a draw game's first hands and every card drawn (more than the deck: V13 reshuffled). */
function dealtCount(events, players, seen, where) {
  const streets = events.filter(e => e.type === 'hole_dealt').reduce((n, e) => n + cardsOf(e.cards).length, 0);
  const board = seen.board.length;
  const drawn = events.filter(e => e.type === 'drew').reduce((n, e) => n + cardsOf(e.drawn).length, 0);
  if (streets) return streets + board;
  return players * holeCount(seen, where) + drawn + board;
}

/** The Fairness panel: next commitment, finished hands' opened cards with a Check button.
 * `commitments` (a Commitments) says which commitment each hand had before its first card;
 * `gameByHand` what the table dealt in each hand (the view's `dealing`), given to verifyHand. */
export function fairnessPanel({fairness, log, mySeat, myCardsByHand, commitments, gameByHand}) {
  const items = [];
  if (fairness && fairness.next) {
    items.push(h('div', h('b', t('fair.next', {n: fairness.next.hand})), h('br'), h('code', fairness.next.commitment)));
  }
  const revealed = new Map();
  for (const hand of (log ? log.hands : [])) if (hand.revealed) revealed.set(hand.number, {hand, r: hand.revealed});
  for (const r of (fairness && fairness.revealed) || []) if (!revealed.has(r.hand)) revealed.set(r.hand, {hand: log && log.hand(r.hand), r});
  const sorted = [...revealed.entries()].sort((a, b) => b[0] - a[0]);
  if (!sorted.length) items.push(h('p.muted', t('fair.none')));
  for (const [number, {hand, r}] of sorted) {
    const out = h('span', {role: 'status'});
    const btn = h('button.btn.small', {type: 'button', onclick: async () => {
      if (!globalThis.crypto || !crypto.subtle) { out.textContent = t('fair.noCrypto'); out.className = 'fair-bad'; return; }
      const committed = commitments ? commitments.get(number) : null;
      const res = await verifyHand(r, {events: hand ? hand.events : [], commitment: committed}, mySeat,
        myCardsByHand && myCardsByHand[number], (gameByHand && gameByHand[number]) || null);
      const failed = !res.ok && !((res.unverifiable || res.reshuffled) && res.hashOk && res.dealOk);
      out.className = res.ok ? 'fair-ok' : failed ? 'fair-bad' : 'fair-unverifiable muted';
      out.textContent = res.ok ? '✓ ' + t('fair.ok', {n: number, k: res.opened})
        : !failed ? '? ' + t(res.unverifiable ? 'fair.unverifiable' : 'fair.reshuffled', {n: number})
        : '✗ ' + t(res.legacy ? 'fair.legacy' : res.hashOk ? 'fair.badDeal' : 'fair.badHash', {n: number});
    }}, t('fair.check', {n: number}));
    const cards = splitCards(r.deck).filter(c => c !== UNKNOWN);
    const before = commitments ? commitments.get(number) : null;
    items.push(h('div.fair-hand', {dataset: {hand: String(number)}},
      h('div', h('b', t('fair.revealed', {n: number})), ' ', btn, ' ', out),
      h('details',
        h('summary', t('fair.commitment')),
        h('div', t('fair.before'), ': ', before ? h('code', before) : t('fair.notReceived')),
        h('div', t('fair.opened'), ': ', h('code', r.commitment)),
        h('div', t('fair.deck'), ': ', h('code', cards.join(' ') || '—')))));
  }
  return h('div.fair-list', h('p.muted', t('fair.lead')), ...items);
}
