// The table page's head (table.js): the line that says the hand, the game and its stakes and
// the level's clock, as the view gives them (R6, V18, V19; issue #31 item 6), and the icons
// of its tools.  It only draws: the game, the mix, the sizes and the schedule are the server's.
import {h, fill} from './dom.js';
import {t, num} from './i18n.js';
import {shortGame, HOUSE_GAME} from './gamenames.js';

/** The view with the game of the hand it shows: over a hand's result the server may already
 * name the next hand's game (a mix's new game, V19); the header switches when that hand
 * starts, not over the previous hand's showdown (issue #31 item 6). */
export function gameOfHand(page, v) {
  const keys = ['game', 'game_name', 'mix', 'betting', 'level', 'limit'];
  if (!v.hand_over) {
    page.handGame = {hand: v.hand_number, ...Object.fromEntries(keys.map(k => [k, v[k]]))};
    return v;
  }
  const held = page.handGame;
  if (!held || held.hand !== v.hand_number) return v;
  const {hand, ...fields} = held;
  return {...v, ...fields};
}

/** The head's line: the hand, the game (a mix: this game and the next), the stakes and the level's clock. */
export function renderInfo(page) {
  const s = page.state;
  let v = s.view;
  const parts = [];
  if (v && v.finished && !(page.settling() && page.holdingFinal())) {
    parts.push(h('b', t('table.gameOver')));
    parts.push(h('span', t('end.hands', {n: v.hand_number})));
  } else if (v && v.hand_number > 0) {
    v = gameOfHand(page, v);
    parts.push(h('b', t('table.hand', {n: v.hand_number})));
    // any game: its name (a mix: this game and the next), and the fixed-limit sizes
    // any game: its short name whole, the full one in the title (a mix: the mix, this game and the next)
    // (a view without a game's name is the house game's, no-limit hold'em: docs/protocol.md "Every game")
    const game = v.game_name ? shortGame(v.game, v.game_name) : shortGame(HOUSE_GAME);
    const full = v.game_name || t('table.houseGame');
    parts.push(h('span.game', {title: v.mix ? `${v.mix.name}: ${full}` : full}, v.mix ? `${shortGame(v.mix.code, v.mix.name)}: ${game}` : game));
    if (v.mix && v.mix.next_game) {
      const next = shortGame(v.mix.next_game, v.mix.next_game_name);
      // the hands until the next game's first one, as the level's (V19): "in 1 hand" on the last of this game
      const n = v.mix.hands_to_next_game + 1;
      const text = t('table.nextGame', {game: next, n});
      const title = t('table.nextGame', {game: v.mix.next_game_name || next, n});
      parts.push(h('span.muted.nextgame', {title}, h('span.long', text), h('span.short', {'aria-hidden': 'true'}, t('table.nextGameShort', {game: next}))));
    }
    const level = v.level || {};
    if (v.betting === 'fixed-limit' && level.small_bet) parts.push(h('span.stakes', `${num(level.small_bet)}/${num(level.big_bet)}`));
    else if (v.blinds[1]) parts.push(h('span.stakes', h('span.long', t('table.blindsWord') + ' '), `${num(v.blinds[0])}/${num(v.blinds[1])}`));
    // the level schedule as the server gives it (R6, V18): hands per level, and the next
    // level's forced bets (none after the last level)
    const left = v.hands_to_next_level;
    const per = v.hands_per_level ?? (v.schedule && v.schedule.hands_per_level) ?? 6;
    const dots = h('span.level-dots', {'aria-hidden': 'true'});
    for (let i = 0; i < per; i++) dots.append(h('i' + (i < per - left ? '.on' : '')));
    if (v.next_level) {
      const text = left === 0 ? t('table.lastOfLevel') : t('table.nextLevel', {n: left + 1});
      const short = left === 0 ? t('table.lastOfLevelShort') : t('table.nextLevelShort', {n: left + 1});
      parts.push(h('span.muted.level', {title: text, 'aria-label': text}, dots, ' ', h('span.long', text), h('span.short', {'aria-hidden': 'true'}, short)));
    }
  } else if (s.table) {
    parts.push(h('b', t('tables.table', {id: String(s.table.id).slice(0, 6)})));
  }
  if (s.table && s.table.ranked) parts.push(h('span.pill.ranked', t('tables.ranked')));
  const key = parts.map(p => p.textContent).join('|');
  if (page.info.dataset.key !== key) { page.info.dataset.key = key; fill(page.info, ...parts); }
}

/** One of the page's own icons (index.html's symbols) by its id. */
export function icon(id) {
  const ns = 'http://www.w3.org/2000/svg';
  const s = document.createElementNS(ns, 'svg');
  s.setAttribute('class', 'icon');
  s.setAttribute('aria-hidden', 'true');
  const use = document.createElementNS(ns, 'use');
  use.setAttribute('href', '#' + id);
  s.append(use);
  return s;
}
