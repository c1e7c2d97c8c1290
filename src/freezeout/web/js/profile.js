// Profile: Elo history chart, every past game (ranked or not, from the
// server) with record/PHH downloads and the replayer (hands this browser saw,
// or the server's public hand events of the finished game).
import {h, fill} from './dom.js';
import {t, num, ordinal, getLang} from './i18n.js';
import {shownName} from './names.js';
import * as api from './api.js';
import {lineChart} from './chart.js';
import {GameLog, rememberedGames} from './gamelog.js';
import {Replayer} from './replayer.js';
import {dialog, toast} from './ui.js';
import {openAuth} from './auth.js';
import {rating, provisionalBadge} from './rating.js';

export class ProfilePage {
  constructor(main, name) {
    this.main = main;
    this.name = name;
    this.load();
  }

  async load() {
    const me = api.currentUser();
    const name = this.name || (me && me.name);
    if (!name) {
      fill(this.main, h('div.panel', h('h1', t('profile.title')), h('p', t('profile.login')),
        h('button.btn.primary', {type: 'button', onclick: () => openAuth('login')}, t('nav.login'))));
      return;
    }
    fill(this.main, h('p.loading', t('app.loading')));
    let data = null;
    try { data = await api.get(`/api/users/${encodeURIComponent(name)}/ratings`); } catch { data = {name, rating: null, games: 0, history: []}; }
    if (this.gone) return; // left (another profile, a language switch) while this one loaded
    const history = data.history || [];
    const points = history.length ? [[0, history[0].before], ...history.map((g, i) => [i + 1, g.after])] : [];
    const chart = points.length > 1 ? lineChart([{name, points}], {label: t('profile.chartLabel')}) : h('p.muted', t('profile.noHistory'));
    const mine = me && me.name === name;
    let played = [];
    try { played = (await api.get(`/api/users/${encodeURIComponent(name)}/games`)).games || []; } catch { played = []; }
    if (this.gone) return;
    const games = new Map();
    for (const g of played) games.set(String(g.id), {id: g.id, players: g.players, at: g.finished_at, places: g.places, ranked: g.ranked});
    for (const g of history) games.set(String(g.game), {...(games.get(String(g.game)) || {}), id: g.game, ranked: true, before: g.before, after: g.after, at: g.at});
    if (mine) for (const g of rememberedGames()) if (!games.has(String(g.id))) games.set(String(g.id), {id: g.id, players: g.players, at: g.at / 1000});
    const when = new Intl.DateTimeFormat(getLang(), {dateStyle: 'medium', timeStyle: 'short'});
    const rows = [...games.values()].sort((a, b) => (b.at || 0) - (a.at || 0)).map(g => {
      const delta = g.ranked && g.after != null ? Math.round(g.after - g.before) : null;
      const players = g.players || [];
      const place = g.places && g.places[name];
      const kind = t(g.ranked ? 'profile.kindRanked' : 'profile.kind', {n: players.length || 2});
      return h('tr', {dataset: {game: String(g.id)}},
        h('td.when', g.at ? when.format(new Date(g.at * 1000)) : ''),
        h('td', kind),
        h('td', players.filter(p => p !== name).map(shownName).join(', ')),
        h('td.num.place', place ? ordinal(place) : '–'),
        h('td.num', delta == null ? '' : h('span.elo-delta.' + (delta >= 0 ? 'up' : 'down'), (delta >= 0 ? '+' : '−') + num(Math.abs(delta)))),
        h('td', h('div.side-tools',
          h('button.btn.small.primary', {type: 'button', onclick: () => this.replay(g, true)}, '▶ ', t('profile.replayFinal')),
          h('button.btn.small', {type: 'button', onclick: () => this.replay(g)}, t('profile.replay')),
          h('a.btn.small.ghost', {href: `/api/games/${encodeURIComponent(g.id)}/record`, download: `freezeout-game-${g.id}.json`, title: t('end.record')}, '⤓ JSON'),
          h('a.btn.small.ghost', {href: `/api/games/${encodeURIComponent(g.id)}/phh`, download: `freezeout-game-${g.id}.phh`, title: t('end.phh')}, '⤓ PHH'),
          h('a.btn.small.ghost', {href: `/api/games/${encodeURIComponent(g.id)}/stars`, download: `freezeout-game-${g.id}.stars.txt`, title: t('end.stars')}, '⤓ PokerStars'))));
    });
    const head = h('thead', h('tr', ...['profile.when', 'profile.gameKind', 'profile.opponents', 'profile.place', 'profile.elo', 'profile.actions']
      .map(k => h(k === 'profile.place' || k === 'profile.elo' ? 'th.num' : 'th', t(k)))));
    fill(this.main, h('div.profile',
      h('section.panel', h('h1', t('profile.of', {name: data.name || name})),
        h('p.profile-rating', data.rating != null ? ratingLine(data) : null, ' · ', t('profile.games', {n: data.games || 0})),
        h('h2', t('profile.chart')), chart),
      h('section.panel', h('h2', t('profile.past')),
        rows.length ? h('div.scroll-x', h('table.grid.past', head, h('tbody', ...rows))) : h('p.muted', t('profile.noGames')))));
  }

  async replay(game, final = false) {
    let log = new GameLog(game.id, game.players || []);
    if (!log.finished().length) {
      // the server's public events of a finished game (requested endpoint; see the web report)
      try {
        const data = await api.get(`/api/games/${encodeURIComponent(game.id)}/events`);
        log = {players: data.players, hands: data.hands.map(x => ({number: x.number, events: x.events, revealed: x.revealed || null}))};
        log.finished = () => log.hands;
      } catch {
        toast(t('history.empty'));
        return;
      }
    }
    const hands = log.finished();
    const me = api.currentUser();
    const viewer = Math.max(0, (log.players || []).indexOf(me && me.name));
    const replayer = new Replayer({hands, players: log.players, viewer, atEnd: final});
    const d = dialog({title: final ? t('end.finalHand') : t('history.title'), body: replayer.el, wide: true, onClose: () => replayer.destroy()});
    replayer.keysOn(d.el);
  }

  /** A later page owns `main` now: a load still on its way must not draw over it. */
  destroy() { this.gone = true; }
}

/** "Elo 1480?" and a "provisional" badge saying how many counted games remain (docs/protocol.md "Ratings"). */
function ratingLine(data) {
  const counts = {games: data.games || 0, needed: data.provisional_games ?? null};
  const [before, after = ''] = t('profile.rating').split('{rating}');
  return [h('b.num', before, rating(data.rating, data.provisional, counts), after),
    data.provisional ? [' ', provisionalBadge(counts)] : null];
}
