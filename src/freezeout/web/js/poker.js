// Poker helpers shared by the views: cards, hand values and their names.
// The hand ranks here mirror freezeout.evaluate.tables (R19): a rank is the
// 1-based position of a five-card value in the weakest-first list of all
// 7,462 values, so the server's numeric `rank` can be named in any language.
import {t, raw} from './i18n.js';

export const RANKS = '23456789TJQKA';
export const SUITS = 'shdc';
export const SUIT_SYMBOL = {s: '♠', h: '♥', d: '♦', c: '♣'};
const HIGH = 0, PAIR = 1, TWO_PAIR = 2, TRIPS = 3, STRAIGHT = 4, FLUSH = 5, FULL = 6, QUADS = 7, SF = 8;
const ACE = 12, WHEEL_TOP = 3;

/** "AsKd" or ["As","Kd"] → ["As","Kd"] (canonical). */
export function splitCards(text) {
  if (!text) return [];
  if (Array.isArray(text)) return text;
  const out = [];
  for (let i = 0; i + 1 < text.length; i += 2) out.push(text.slice(i, i + 2));
  return out;
}

export function cardLabel(card) {
  return t('card.label', {rank: t('rank.' + card[0]), suit: t('suit.' + card[1])});
}

function straightTop(present) {
  for (let top = ACE; top > 3; top--) {
    let ok = true;
    for (let s = 0; s < 5; s++) if (!present.has(top - s)) { ok = false; break; }
    if (ok) return top;
  }
  if (present.has(ACE) && [0, 1, 2, 3].every(r => present.has(r))) return WHEEL_TOP;
  return null;
}

function* combinations(items, k, start = 0, prefix = []) {
  if (prefix.length === k) { yield prefix.slice(); return; }
  for (let i = start; i <= items.length - (k - prefix.length); i++) {
    prefix.push(items[i]);
    yield* combinations(items, k, i + 1, prefix);
    prefix.pop();
  }
}

function compareValues(a, b) {
  if (a[0] !== b[0]) return a[0] - b[0];
  const x = a[1], y = b[1];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

let classes = null;
/** All 7,462 five-card values [category, ranks], weakest first. */
export function fiveCardClasses() {
  if (classes) return classes;
  const values = [];
  const desc = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0];
  for (const ranks of combinations(desc, 5)) {
    if (straightTop(new Set(ranks)) === null) {
      values.push([HIGH, ranks]);
      values.push([FLUSH, ranks]);
    }
  }
  for (let top = WHEEL_TOP; top <= ACE; top++) {
    values.push([STRAIGHT, [top]]);
    values.push([SF, [top]]);
  }
  for (let made = 0; made < 13; made++) {
    const others = desc.filter(r => r !== made);
    for (const k of combinations(others, 3)) values.push([PAIR, [made, ...k]]);
    for (const k of combinations(others, 2)) values.push([TRIPS, [made, ...k]]);
    for (const k of others) values.push([QUADS, [made, k]]);
    for (const p of others) values.push([FULL, [made, p]]);
  }
  for (const [high, low] of combinations(desc, 2)) {
    for (const kick of desc) if (kick !== high && kick !== low) values.push([TWO_PAIR, [high, low, kick]]);
  }
  values.sort(compareValues);
  classes = values;
  return values;
}

/** The value [category, ranks] of a 1-based evaluator rank. */
export function rankValue(rank) {
  const all = fiveCardClasses();
  if (!(rank >= 1 && rank <= all.length)) return null;
  return all[rank - 1];
}

/** Name a hand value in the current language ("One pair, kings; kickers ace, queen, nine").
 * Every rank that can decide a showdown is named — kickers, and all five
 * cards of a flush — so distinct values never read the same (English must
 * match freezeout.evaluate.describe.describe_rank). */
export function describeValue(value) {
  if (!value) return '';
  const [cat, ranks] = value;
  const a = raw('ranks'), A = raw('ranksPlural'), g = raw('ranksHigh');
  const list = rs => rs.map(r => a[r]).join(', ');
  const p = {a: a[ranks[0]], A: A[ranks[0]], g: g[ranks[0]], B: A[ranks[1]], cards: list(ranks)};
  const kickers = from => from < ranks.length ? t('hand.kickers', {n: ranks.length - from, k: list(ranks.slice(from))}) : '';
  switch (cat) {
    case SF: return ranks[0] === ACE ? t('hand.royal') : t('hand.straightFlush', p);
    case QUADS: return t('hand.quads', p) + kickers(1);
    case FULL: return t('hand.fullHouse', p);
    case FLUSH: return t('hand.flush', p);
    case STRAIGHT: return t('hand.straight', p);
    case TRIPS: return t('hand.trips', p) + kickers(1);
    case TWO_PAIR: return t('hand.twoPair', p) + kickers(2);
    case PAIR: return t('hand.pair', p) + kickers(1);
    default: return t('hand.high', p) + kickers(1);
  }
}

export function describeRank(rank) { return describeValue(rankValue(rank)); }

/** Best five-card value of 5–7 cards (["As","Kd",...]). */
export function evaluate(cards) {
  const rankOf = c => RANKS.indexOf(c[0]);
  const counts = new Array(13).fill(0);
  const bySuit = {s: [], h: [], d: [], c: []};
  for (const c of cards) { counts[rankOf(c)]++; bySuit[c[1]].push(rankOf(c)); }
  let best = nonFlushValue(counts);
  for (const suited of Object.values(bySuit)) {
    if (suited.length < 5) continue;
    const set = new Set(suited);
    const top = straightTop(set);
    const v = top !== null ? [SF, [top]] : [FLUSH, [...set].sort((x, y) => y - x).slice(0, 5)];
    if (compareValues(v, best) > 0) best = v;
  }
  return best;
}

/** The 1-based rank of a value (the inverse of rankValue). */
export function valueRank(value) {
  const all = fiveCardClasses();
  let lo = 0, hi = all.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = compareValues(all[mid], value);
    if (c === 0) return mid + 1;
    if (c < 0) lo = mid + 1; else hi = mid - 1;
  }
  return 0;
}

function nonFlushValue(counts) {
  const desc = [];
  for (let r = ACE; r >= 0; r--) if (counts[r]) desc.push(r);
  const quads = desc.filter(r => counts[r] === 4);
  const trips = desc.filter(r => counts[r] === 3);
  const pairs = desc.filter(r => counts[r] === 2);
  if (quads.length) return [QUADS, [quads[0], desc.find(r => r !== quads[0])]];
  if (trips.length && trips.length + pairs.length >= 2) return [FULL, [trips[0], Math.max(...trips.slice(1), ...pairs)]];
  const top = straightTop(new Set(desc));
  if (top !== null) return [STRAIGHT, [top]];
  if (trips.length) return [TRIPS, [trips[0], ...desc.filter(r => r !== trips[0]).slice(0, 2)]];
  if (pairs.length >= 2) {
    const [high, low] = pairs;
    return [TWO_PAIR, [high, low, desc.find(r => r !== high && r !== low)]];
  }
  if (pairs.length) return [PAIR, [pairs[0], ...desc.filter(r => r !== pairs[0]).slice(0, 3)]];
  return [HIGH, desc.slice(0, 5)];
}
