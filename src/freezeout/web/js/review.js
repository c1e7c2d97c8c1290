// A finished game's review (issue #36, docs/review.md "On the page"): the server runs
// `freezeout review` on the record the asker may download (GET /api/games/{id}/review) —
// per player the result, all-in EV, luck (the asker's own seat only: the server leaves the
// others' null) and the push/fold mistakes; per hand each push/fold decision with the
// equilibrium's move and the EV given up, which the replayer shows beside the decision.
import {h} from './dom.js';
import {t, num, getLang} from './i18n.js';
import {lineChart, PALETTE} from './chart.js';
import {shownName} from './names.js';
import * as api from './api.js';

const asked = new Map();  // game id → Promise of its review (a finished game's never changes)

/** The game's review, asked once per page (null: none, e.g. a game the asker may not see). */
export function fetchReview(gameId) {
  const key = String(gameId);
  if (!asked.has(key)) {
    asked.set(key, api.get(`/api/games/${encodeURIComponent(key)}/review`).catch(() => {
      asked.delete(key);
      return null;
    }));
  }
  return asked.get(key);
}

/** Chips with a sign, rounded to whole chips. */
function signed(value) {
  const v = Math.round(value);
  return (v > 0 ? '+' : v < 0 ? '−' : '') + num(Math.abs(v));
}

/** Big blinds with two decimals. */
export function bb(value) {
  const text = new Intl.NumberFormat(getLang(), {minimumFractionDigits: 2, maximumFractionDigits: 2}).format(value);
  return t('review.bb', {n: text});
}

/** One decision in words: the move, the equilibrium's and the EV given up (or why not reviewed). */
export function decisionText(d) {
  const move = t('review.move.' + d.action);
  if (d.ev_loss_bb == null) return t('review.notReviewed', {move});
  const best = t('review.move.' + d.equilibrium);
  if (d.mistake) return t('review.mistake', {move, best, loss: bb(d.ev_loss_bb)});
  return t('review.good', {move, best, loss: bb(d.ev_loss_bb)});
}

/** Which step of a hand each decision belongs to: a push/fold decision is its player's first
 * voluntary move of the hand, so the first `action_taken` of that player's seat in the steps. */
export function decisionSteps(hand, steps) {
  const out = new Map();  // step index → [decision]
  if (!hand || !hand.decisions || !hand.decisions.length) return out;
  const players = steps.players || [];
  const seen = new Set();
  const firstMove = new Map();  // player → step index
  (steps.steps || []).forEach((step, i) => {
    for (const e of step.events || []) {
      if (e.type !== 'action_taken' || e.kind === 'discard' || e.kind === 'standpat') continue;
      const player = players[e.seat];
      if (!seen.has(player)) { seen.add(player); firstMove.set(player, i); }
    }
  });
  for (const d of hand.decisions) {
    const at = firstMove.get(d.player);
    if (at == null) continue;
    if (!out.has(at)) out.set(at, []);
    out.get(at).push(d);
  }
  return out;
}

/** Per player: the mistakes' count and the EV given up (reviewed decisions only). */
export function mistakesLine(review) {
  const parts = Object.entries(review.players).filter(([, p]) => p.decisions || p.not_reviewed)
    .map(([name, p]) => t('review.playerMistakes', {name: shownName(name), n: p.mistakes, loss: bb(p.ev_lost_bb)}));
  return parts.length ? h('p.review-mistakes', t('review.mistakesTitle'), ' ', parts.join(' · ')) : null;
}

/** The review's panel: per player result, all-in EV, luck (own seat) and mistakes, and the
 * chart of cumulative chips won (solid) and all-in EV (dashed) per hand, as trackers draw it. */
export function reviewPanel(review, colors = null) {
  const names = Object.keys(review.players);
  const color = name => (colors && colors[name]) || PALETTE[names.indexOf(name) % PALETTE.length];
  const rows = names.map(name => {
    const p = review.players[name];
    return h('tr' + (name === review.viewer ? '.me' : ''), {dataset: {player: name}},
      h('td', h('span.swatch', {style: {'--c': color(name)}, 'aria-hidden': 'true'}), shownName(name)),
      h('td.num.rv-result', signed(p.result)),
      h('td.num.rv-ev', signed(p.all_in_ev)),
      h('td.num.rv-luck', p.luck == null ? '—' : signed(p.luck)),
      h('td.num.rv-mistakes', p.decisions ? `${p.mistakes} · ${bb(p.ev_lost_bb)}` : '—'));
  });
  const table = h('table.grid.review-table',
    h('caption', t('review.title')),
    h('thead', h('tr', h('th', t('end.player')), h('th.num', t('review.result')), h('th.num', t('review.allInEv')),
      h('th.num', t('review.luck')), h('th.num', t('review.mistakes')))),
    h('tbody', ...rows));
  const series = [];
  for (const name of names) {
    let won = 0, ev = 0;
    const wonPts = [[0, 0]], evPts = [[0, 0]];
    for (const hand of review.hands) {
      if (!(name in hand.result)) continue;
      won += hand.result[name];
      ev += hand.ev[name];
      wonPts.push([hand.number, won]);
      evPts.push([hand.number, Math.round(ev)]);
    }
    series.push({name: t('review.won', {name: shownName(name)}), color: color(name), points: wonPts});
    series.push({name: t('review.ev', {name: shownName(name)}), color: color(name), dash: true, points: evPts});
  }
  const chart = review.hands.length ? lineChart(series, {label: t('review.chartLabel')}) : null;
  return h('div.review', {dataset: {review: 'ready'}}, h('div.scroll-x', table),
    h('p.muted.review-note', t('review.note')),
    h('h3', t('review.chart')), chart, mistakesLine(review));
}
