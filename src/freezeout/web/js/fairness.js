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
import {placeOpened} from './replayer.js';

const UNKNOWN = '??';

/** The house game's documented deal (docs/protocol.md "Fairness"): two cards to each player
 * in seat order, then five board cards.  An auditor cannot take the server's word for where
 * each card went (`revealed.where`), since a dishonest server would choose positions after the
 * fact, so it checks that word against the order published before any hand. */
function documentedWhere(seatsIn) {
  const hole = {};
  [...seatsIn].sort((a, b) => a - b).forEach((seat, i) => { hole[String(seat)] = [2 * i, 2 * i + 1]; });
  const start = 2 * seatsIn.length;
  return {hole, board: [0, 1, 2, 3, 4].map(i => start + i)};
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
 * Check one finished hand. `revealed` is what the server opened
 * ({commitment, deck with ?? where not opened, salts, leaves}); `hand` a GameLog
 * hand's events with `commitment`, the one this page received before the hand's
 * first card (Commitments.get); `myCards` optionally the viewer's own hole cards.
 * Returns {ok, unverifiable, hashOk, dealOk, computed, opened}: without a commitment
 * received before the hand, `ok` is false and `unverifiable` true whatever the opening
 * says (the opening's own commitment proves nothing: it may have been made after the deal).
 */
export async function verifyHand(revealed, hand, mySeat, myCards) {
  if (!revealed || !Array.isArray(revealed.leaves)) return {ok: false, legacy: true, hashOk: false, dealOk: false, opened: 0};
  const published = hand && typeof hand.commitment === 'string' ? hand.commitment.toLowerCase() : null;
  const deck = splitCards(revealed.deck);
  const leaves = revealed.leaves.map(x => String(x).toLowerCase());
  let hashOk = deck.length === 52 && leaves.length === 52 && Array.isArray(revealed.salts);
  const opened = [];
  for (let i = 0; hashOk && i < 52; i++) {
    if (deck[i] === UNKNOWN) continue;
    const salt = revealed.salts[i];
    if (!salt || await sha256hex(`${i}:${deck[i]}:${salt}`) !== leaves[i]) hashOk = false;
    opened.push(deck[i]);
  }
  const computed = await sha256hex(leaves.join(''));
  hashOk = hashOk && computed === String(revealed.commitment).toLowerCase() && (published == null || computed === published);
  let dealOk = new Set(opened).size === opened.length;
  const start = hand && hand.events.find(e => e.type === 'hand_started');
  if (dealOk && start) {
    // every card seen must be the opened card at its deal position (?? there: not opened, not fair)
    const where = documentedWhere(start.seats);
    if (revealed.where && JSON.stringify(revealed.where) !== JSON.stringify(where)) dealOk = false;
    const {hole, board} = placeOpened({deck: revealed.deck, where});
    const same = (seen, dealt) => seen.every((c, i) => dealt && c === dealt[i]);
    const seenBoard = hand.events.filter(e => e.type === 'street_dealt').flatMap(e => splitCards(e.cards));
    if (!same(seenBoard, board)) dealOk = false;
    for (const e of hand.events.filter(e => e.type === 'cards_shown')) if (!same(splitCards(e.cards), hole[e.seat])) dealOk = false;
    if (myCards && myCards.length && mySeat != null && hole[mySeat] && !same(myCards, hole[mySeat])) dealOk = false;
  }
  const unverifiable = published == null;
  return {ok: hashOk && dealOk && !unverifiable, unverifiable, hashOk, dealOk, computed, opened: opened.length};
}

/** The Fairness panel: next commitment, finished hands' opened cards with a Check button.
 * `commitments` (a Commitments) says which commitment each hand had before its first card. */
export function fairnessPanel({fairness, log, mySeat, myCardsByHand, commitments}) {
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
        myCardsByHand && myCardsByHand[number]);
      const failed = !res.ok && !(res.unverifiable && res.hashOk && res.dealOk);
      out.className = res.ok ? 'fair-ok' : failed ? 'fair-bad' : 'fair-unverifiable muted';
      out.textContent = res.ok ? '✓ ' + t('fair.ok', {n: number, k: res.opened})
        : !failed ? '? ' + t('fair.unverifiable', {n: number})
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
