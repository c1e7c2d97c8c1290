// Profile: Elo history chart, every past game (ranked or not, from the
// server) with record/PHH downloads and the replayer (hands this browser saw,
// or the server's public hand events of the finished game).
import {h, fill} from './dom.js';
import {t, num, ordinal, getLang} from './i18n.js';
import {shownName, displayOf, botOf} from './names.js';
import * as api from './api.js';
import {lineChart} from './chart.js';
import {GameLog, rememberedGames} from './gamelog.js';
import {shortGame, HOUSE_GAME} from './gamenames.js';
import {Replayer, stepsOfGame} from './replayer.js';
import {dialog, toast} from './ui.js';
import {openAuth} from './auth.js';
import {rating, provisionalBadge, familyPicker} from './rating.js';
import {chipsSection} from './balance.js';
import {noteSection} from './notes.js';
import {luckSection} from './luck.js';

export class ProfilePage {
  constructor(main, name) {
    this.main = main;
    this.name = name;
    this.family = 'house'; // the rating family the chart and the rating line show (docs/protocol.md "Ratings")
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
    const base = `/api/users/${encodeURIComponent(name)}/ratings`;
    const family = this.family;
    const ofFamily = f => base + (f === 'house' ? '' : '?family=' + encodeURIComponent(f));
    try { data = await api.get(ofFamily(family)); } catch { data = {name, rating: null, games: 0, history: []}; }
    if (this.gone || family !== this.family) return; // left (another profile, a language switch, another family) meanwhile
    const history = data.history || [];
    // the families the player has a rating in: the picker, and each ranked game's Elo change in the list
    const families = Object.keys(data.families || {house: null});
    if (!families.includes(family)) families.push(family);
    const others = await Promise.all(families.filter(f => f !== family)
      .map(f => api.get(ofFamily(f)).then(d => d.history || []).catch(() => [])));
    if (this.gone || family !== this.family) return;
    const points = history.length ? [[0, history[0].before], ...history.map((g, i) => [i + 1, g.after])] : [];
    const chart = points.length > 1 ? lineChart([{name, points}], {label: t('profile.chartLabel')}) : h('p.muted', t('profile.noHistory'));
    const mine = me && (me.name === name || me.display === name || me.id === data.id);
    let played = [];
    try { played = (await api.get(`/api/users/${encodeURIComponent(name)}/games`)).games || []; } catch { played = []; }
    if (this.gone) return;
    const games = new Map();
    // `as`: the name this player had in that game (a display name may have changed since)
    for (const g of played) games.set(String(g.id), {id: g.id, players: g.players, at: g.finished_at, places: g.places, ranked: g.ranked, as: g.as, game: g.game, table: g.table});
    for (const g of [...others.flat(), ...history]) games.set(String(g.game), {...(games.get(String(g.game)) || {}), id: g.game, ranked: true, before: g.before, after: g.after, at: g.at});
    if (mine) for (const g of rememberedGames()) if (!games.has(String(g.id))) games.set(String(g.id), {id: g.id, players: g.players, at: g.at / 1000});
    const when = new Intl.DateTimeFormat(getLang(), {dateStyle: 'medium', timeStyle: 'short'});
    const rows = [...games.values()].sort((a, b) => (b.at || 0) - (a.at || 0)).map(g => {
      const delta = g.ranked && g.after != null ? Math.round(g.after - g.before) : null;
      const players = g.players || [];
      const as = g.as || data.name || name;
      const place = g.places && g.places[as];
      const kind = t(g.ranked ? 'profile.kindRanked' : 'profile.kind', {n: players.length || 2});
      // the game by its short name (null: the house game), then how many played (issue #31 item 9)
      const game = 'game' in g ? shortGame(g.game || HOUSE_GAME) : '';
      const cell = (spec, key, ...content) => h(spec, {dataset: {label: t(key)}}, ...content);
      return h('tr', {dataset: {game: String(g.id)}},
        cell('td.when', 'profile.when', g.at ? when.format(new Date(g.at * 1000)) : ''),
        cell('td.kind', 'profile.gameKind', game ? `${game} · ${kind}` : kind),
        cell('td.opponents', 'profile.opponents', players.filter(p => p !== as && p !== name).map(shownName).join(', ')),
        cell('td.num.place', 'profile.place', place ? ordinal(place) : '–'),
        cell('td.num.elo', 'profile.elo', delta == null ? '' : h('span.elo-delta.' + (delta >= 0 ? 'up' : 'down'), (delta >= 0 ? '+' : '−') + num(Math.abs(delta)))),
        h('td.actions', h('div.side-tools',
          h('button.btn.small.primary', {type: 'button', onclick: () => this.replay(g, true)}, '▶ ', t('profile.replayFinal')),
          h('button.btn.small', {type: 'button', onclick: () => this.replay(g)}, t('profile.replay')),
          h('a.btn.small.ghost', {href: `/api/games/${encodeURIComponent(g.id)}/record`, download: `freezeout-game-${g.id}.json`, title: t('end.record')}, '⤓ JSON'),
          h('a.btn.small.ghost', {href: `/api/games/${encodeURIComponent(g.id)}/phh`, download: `freezeout-game-${g.id}.phh`, title: t('end.phh')}, '⤓ PHH'),
          h('a.btn.small.ghost', {href: `/api/games/${encodeURIComponent(g.id)}/stars`, download: `freezeout-game-${g.id}.stars.txt`, title: t('end.stars')}, '⤓ PokerStars'))));
    });
    const head = h('thead', h('tr', ...['profile.when', 'profile.gameKind', 'profile.opponents', 'profile.place', 'profile.elo', 'profile.actions']
      .map(k => h(k === 'profile.place' || k === 'profile.elo' ? 'th.num' : 'th', t(k)))));
    fill(this.main, h('div.profile',
      h('section.panel', h('h1', t('profile.of', {name: displayOf(data.name ? data : {name})})),
        data.kind === 'bot' && botOf(data.name) ? h('p.muted', t('names.bot', {level: t('level.' + botOf(data.name).level)})) : null,
        h('p.profile-rating', data.rating != null ? ratingLine(data) : null, ' · ', t('profile.games', {n: data.games || 0})),
        mine ? nameForm(me) : null,
        h('div.section-head', h('h2', t('profile.chart')), families.length > 1
          ? familyPicker(families, family, f => { this.family = f; this.load(); }, {id: 'profile-family', label: t('profile.family')})
          : null),
        h('div.family-chart', {dataset: {family}}, chart)),
      !mine && me && data.id != null ? noteSection(data.id, displayOf(data.name ? data : {name})) : null,  // my note on them (issue #37)
      mine ? chipsSection() : null,  // your play chips (C9): balance, reload, ledger, cash sessions
      mine ? luckSection() : null,  // your luck: result − all-in EV per freezeout and cash session (yours only, issue #36)
      // Past games: every column in view at any width, Replay included (issue #21-5): a table
      // across the page on a wide screen, one card per game on a phone (style.css)
      h('section.panel.past-games', h('h2', t('profile.past')),
        rows.length ? h('table.grid.past', head, h('tbody', ...rows)) : h('p.muted', t('profile.noGames')))));
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
    const viewer = Math.max(0, (log.players || []).indexOf(game.as || (me && displayOf(me))));
    const replayer = new Replayer({hands, players: log.players, viewer, atEnd: final, source: stepsOfGame(game.id),
      tableId: game.table || null, gameId: game.id});  // the table's chat (issue #37), the game's review (issue #36)
    const d = dialog({title: final ? t('end.finalHand') : t('history.title'), body: replayer.el, wide: true, onClose: () => replayer.destroy()});
    replayer.keysOn(d.el);
  }

  /** A later page owns `main` now: a load still on its way must not draw over it. */
  destroy() { this.gone = true; }
}

/** The form that chooses the name shown for you everywhere (POST /api/me/display). */
function nameForm(me) {
  const input = h('input', {type: 'text', id: 'display-name', name: 'display', value: displayOf(me), required: true,
    minlength: 2, maxlength: 20, autocomplete: 'nickname', 'aria-describedby': 'display-hint'});
  const error = h('p.error-text', {role: 'alert', id: 'display-error'});
  const save = h('button.btn.primary.small', {type: 'submit'}, t('names.save'));
  return h('form.name-form', {onsubmit: async e => {
    e.preventDefault();
    error.textContent = '';
    save.disabled = true;
    try {
      const data = await api.setDisplay(input.value);
      toast(t('names.saved', {name: displayOf(data.user)}), 'info', 2500);
    } catch (err) {
      error.textContent = nameError(err);
      save.disabled = false;
    }
  }},
  h('label', {for: 'display-name'}, t('names.display')),
  h('div.name-row', input, save),
  h('span.hint', {id: 'display-hint'}, t('names.displayHint')),
  error);
}

/** Why a name was refused, in the page's language (the server's words name the look-alike). */
function nameError(err) {
  const like = /like the name '(.+)' of another player/.exec(err.message || '');
  if (err.code === 'name_taken') return like ? t('names.lookAlike', {other: like[1]}) : t('err.name_taken');
  if (err.code === 'bad_name') return t(/reserved/.test(err.message) ? 'names.reserved' : 'names.badName');
  const key = 'err.' + err.code;
  const msg = t(key, {message: err.message});
  return msg === key ? t('err.generic', {message: err.message}) : msg;
}

/** "Elo 1480?" and a "provisional" badge saying how many counted games remain (docs/protocol.md "Ratings"). */
function ratingLine(data) {
  const counts = {games: data.games || 0, needed: data.provisional_games ?? null};
  const [before, after = ''] = t('profile.rating').split('{rating}');
  return [h('b.num', before, rating(data.rating, data.provisional, counts), after),
    data.provisional ? [' ', provisionalBadge(counts)] : null];
}
