// The end screen of a finished game: the winner, standings with Elo, the
// stack chart, rematch, the final hand, downloads. Drawn by TablePage.
import {h, fill} from './dom.js';
import {t, num, ordinal} from './i18n.js';
import {lineChart, seatColors} from './chart.js';
import {shownName} from './names.js';
import * as api from './api.js';
import {rating} from './rating.js';
import {fetchReview, reviewPanel} from './review.js';

export function renderEnd(page) {
  const s = page.state;
  const v = s.view;
  const el = page.endEl;
  if (!v.finished || page.holdingFinal()) { el.hidden = true; page.endKey = null; return; }
  const you = s.you || {};
  const status = s.table.status;
  const key = JSON.stringify([page.gameOver, [...page.rematchFrom], page.rematchSent, status, s.table.game_id, page.log ? page.log.hands.length : 0]);
  if (page.endKey === key) return;
  page.endKey = key;
  el.hidden = false;
  const players = v.seats.map(x => x.player);
  const colors = seatColors(players.length, you.seat ?? null);
  const winner = v.seats.find(x => x.place === 1);
  const ratings = page.gameOver && page.gameOver.ratings;
  const unsure = new Set((page.gameOver && page.gameOver.provisional) || []); // still provisional after the game
  const me = you.seat != null ? v.seats[you.seat] : null;
  const title = me && me.place === 1 ? t('end.youWin') : t('end.winner', {name: winner ? shownName(winner.player) : '?'});
  const rows = [...v.seats].sort((a, b) => (a.place ?? 99) - (b.place ?? 99)).map(x => {
    const r = ratings && ratings[x.player];
    let elo = null;
    if (r) {
      const d = Math.round(r[1] - r[0]);
      elo = h('span', num(Math.round(r[0])), ' → ', h('b', rating(r[1], unsure.has(x.player))), ' ',
        h('span.elo-delta.' + (d >= 0 ? 'up' : 'down'), (d >= 0 ? '+' : '−') + num(Math.abs(d))));
    }
    return h('tr' + (x.seat === you.seat ? '.me' : ''), h('td.num', x.place != null ? ordinal(x.place) : '–'),
      h('td', h('span.swatch', {style: {'--c': colors[x.seat]}, 'aria-hidden': 'true'}), shownName(x.player)), s.table.ranked ? h('td.num.elo', {dataset: {player: x.player}}, elo || (ratings ? '–' : '…')) : null);
  });
  const standings = h('table.grid', h('caption', t('end.standings')),
    h('thead', h('tr', h('th.num', t('end.place')), h('th', t('end.player')), s.table.ranked ? h('th.num', t('end.elo')) : null)),
    h('tbody', ...rows));
  const series = page.log ? page.log.stackSeries(players.length, s.table.table_game.starting_stack) : [];
  // lines of players out at the same time would lie on one another: each is drawn a little apart
  const chart = series.length > 1 ? lineChart(players.map((p, i) => ({name: shownName(p), color: colors[i],
    offset: (i - (players.length - 1) / 2) * 3.5, points: series.map(pt => [pt.hand, pt.stacks[i]])})),
  {label: t('end.chartLabel'), yZero: true}) : h('p.muted', t('history.empty'));
  const canRematch = me && status === 'finished';
  const accepted = [...page.rematchFrom].filter(seat => !me || seat !== you.seat).map(seat => players[seat]).filter(Boolean);
  const gameId = s.table.game_id;
  const waiting = page.rematchSent || page.rematchFrom.has(you.seat);
  const actions = h('div.end-actions',
    canRematch ? h('button.btn.primary', {type: 'button', disabled: waiting,
      title: t('end.rematchHint'), onclick: () => page.rematch()}, '↻ ', t('end.rematch')) : null,
    page.log && page.log.finished().length ? h('button.btn.final-hand', {type: 'button', onclick: () => page.openHistory({last: true})}, '▶ ', t('end.finalHand')) : null,
    h('button.btn', {type: 'button', onclick: () => page.openHistory()}, t('table.history')),
    gameId != null ? h('a.btn', {href: api.withInvite(`/api/games/${gameId}/record`), download: `freezeout-game-${gameId}.json`}, '⤓ ', t('end.record')) : null,
    gameId != null ? h('a.btn', {href: api.withInvite(`/api/games/${gameId}/phh`), download: `freezeout-game-${gameId}.phh`}, '⤓ ', t('end.phh')) : null,
    gameId != null ? h('a.btn', {href: api.withInvite(`/api/games/${gameId}/stars`), download: `freezeout-game-${gameId}.stars.txt`}, '⤓ ', t('end.stars')) : null,
    h('a.btn.ghost', {href: '#/'}, t('end.lobby')));
  const rematchInfo = h('ul.rematch-info', {role: 'status'},
    waiting ? h('li', t('end.rematchWaiting')) : null,
    ...accepted.map(n => h('li', t('end.rematchAccepted', {name: shownName(n)}))));
  fill(el,
    h('div.panel.banner', trophy(), h('h1', title),
      me && me.place !== 1 && me.place != null ? h('p', t('end.youPlace', {place: ordinal(me.place)})) : null,
      h('p.muted', t('end.hands', {n: v.hand_number}), s.table.ranked ? '' : ' · ' + t('end.unranked')), actions, rematchInfo),
    h('div.panel.standings', standings),
    h('div.panel.stack-chart', h('h2', t('end.chart')), chart),
    gameId != null ? h('div.panel.review-panel', h('h2', t('review.heading')), reviewBox(page, gameId, players, colors)) : null);
  if (s.table.ranked && !ratings) fetchRatings(page, players, gameId);
  if (page.log && gameId != null && !page.log.complete(v.hand_number)) fetchHands(page, gameId);
}

/** The game's review (issue #36): result, all-in EV, luck (own seat) and mistakes per player and
 * their chart; one box per game, kept across the end screen's redraws, filled once it arrives. */
function reviewBox(page, gameId, players, colors) {
  if (page.reviewGame === gameId && page.reviewBox) return page.reviewBox;
  page.reviewGame = gameId;
  page.reviewBox = h('div', h('p.muted', t('review.loading')));
  const byName = Object.fromEntries(players.map((p, i) => [p, colors[i]]));
  const load = async attempt => {
    const review = await fetchReview(gameId);
    if (page.reviewGame !== gameId) return;
    if (review) fill(page.reviewBox, reviewPanel(review, byName));
    else if (attempt < 3) setTimeout(() => load(attempt + 1), 1500);  // the record is written as the game ends
    else fill(page.reviewBox, h('p.muted', t('review.unavailable')));
  };
  load(0);
  return page.reviewBox;
}

/** The hands this browser did not see (joined late, reloaded, another device): the chart
 * and the replayer need every hand, so they come from the server once the game is over. */
async function fetchHands(page, gameId, attempt = 0) {
  if (page.fetchingHands === gameId && attempt === 0) return;
  page.fetchingHands = gameId;
  try {
    const data = await api.get(`/api/games/${encodeURIComponent(gameId)}/events`);
    if (!page.log || page.log.gameId !== gameId) return;
    page.log.merge(data.hands);
    page.endKey = null;
    page.render();
  } catch {
    // the record is written as the game ends: ask once more a moment later
    if (attempt < 2) setTimeout(() => fetchHands(page, gameId, attempt + 1), 1500);
  }
}

/** Elo after a reconnect (the game_over event may be gone): read the players' histories. */
async function fetchRatings(page, players, gameId) {
  if (page.fetchingRatings === gameId) return;
  page.fetchingRatings = gameId;
  const ratings = {};
  const provisional = []; // as they are now: close enough for a game just finished
  for (const p of players) {
    try {
      const data = await api.get(`/api/users/${encodeURIComponent(p)}/ratings`);
      const entry = (data.history || []).find(x => String(x.game) === String(gameId));
      if (entry) ratings[p] = [entry.before, entry.after];
      if (data.provisional) provisional.push(p);
    } catch { /* guests have no ratings */ }
  }
  if (Object.keys(ratings).length && !page.gameOver) {
    page.gameOver = {type: 'game_over', game_id: gameId, ratings, provisional};
    page.endKey = null;
    page.render();
  }
}

function trophy() {
  const ns = 'http://www.w3.org/2000/svg';
  const s = document.createElementNS(ns, 'svg');
  s.setAttribute('viewBox', '0 0 64 64');
  s.setAttribute('class', 'trophy');
  s.setAttribute('aria-hidden', 'true');
  s.innerHTML = '<path d="M18 8h28v10c0 10-6 18-14 18S18 28 18 18z" fill="#f2c14e"/><path d="M18 12H8c0 9 5 14 12 15M46 12h10c0 9-5 14-12 15" fill="none" stroke="#f2c14e" stroke-width="4"/><rect x="28" y="36" width="8" height="10" fill="#d9a531"/><rect x="20" y="46" width="24" height="8" rx="2" fill="#8a5a1c"/><path d="M32 14l2.4 5 5.4.6-4 3.7 1.1 5.3-4.9-2.8-4.9 2.8 1.1-5.3-4-3.7 5.4-.6z" fill="#fff8dc"/>';
  return s;
}
