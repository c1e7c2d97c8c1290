// Fair dealing checks in the browser (docs/protocol.md "Fairness"):
// sha256(deck + ":" + salt) must equal the commitment published before the
// hand, and every card seen must come from the front of that deck.
import {h} from './dom.js';
import {t} from './i18n.js';
import {splitCards} from './poker.js';
import {dealFromDeck} from './replayer.js';

export async function sha256hex(text) {
  const bytes = new TextEncoder().encode(text);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map(b => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Check one revealed hand. `hand` is a GameLog hand ({events, revealed,
 * commitment}); `myCards` optionally the viewer's own hole cards.
 * Returns {ok, hashOk, dealOk, computed}.
 */
export async function verifyHand(revealed, hand, mySeat, myCards) {
  const computed = await sha256hex(revealed.deck + ':' + revealed.salt);
  const published = (hand && hand.commitment) || revealed.commitment;
  const hashOk = computed === String(published).toLowerCase() && computed === String(revealed.commitment).toLowerCase();
  const deck = splitCards(revealed.deck);
  let dealOk = deck.length === 52 && new Set(deck).size === 52;
  const start = hand && hand.events.find(e => e.type === 'hand_started');
  if (dealOk && start) {
    const {hole, board} = dealFromDeck(revealed.deck, start.seats);
    const seenBoard = hand.events.filter(e => e.type === 'street_dealt').flatMap(e => splitCards(e.cards));
    if (seenBoard.some((c, i) => c !== board[i])) dealOk = false;
    for (const e of hand.events.filter(e => e.type === 'cards_shown')) {
      if (splitCards(e.cards).join('') !== (hole[e.seat] || []).join('')) dealOk = false;
    }
    if (myCards && mySeat != null && hole[mySeat] && myCards.join('') !== hole[mySeat].join('')) dealOk = false;
  }
  return {ok: hashOk && dealOk, hashOk, dealOk, computed};
}

/** The Fairness panel: next commitment, revealed hands with a Check button. */
export function fairnessPanel({fairness, log, mySeat, myCardsByHand}) {
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
      const res = await verifyHand(r, hand, mySeat, myCardsByHand && myCardsByHand[number]);
      out.className = res.ok ? 'fair-ok' : 'fair-bad';
      out.textContent = res.ok ? '✓ ' + t('fair.ok', {n: number}) : '✗ ' + t(res.hashOk ? 'fair.badDeal' : 'fair.badHash', {n: number});
    }}, t('fair.check', {n: number}));
    items.push(h('div.fair-hand', {dataset: {hand: String(number)}},
      h('div', h('b', t('fair.revealed', {n: number})), ' ', btn, ' ', out),
      h('details',
        h('summary', t('fair.commitment')),
        h('div', h('code', r.commitment)),
        h('div', t('fair.deck'), ': ', h('code', r.deck)),
        h('div', t('fair.salt'), ': ', h('code', r.salt)))));
  }
  return h('div.fair-list', h('p.muted', t('fair.lead')), ...items);
}
