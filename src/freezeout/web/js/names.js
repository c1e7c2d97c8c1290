// Players' names as the page shows them. The server names bot seats by level
// ("bot-station", "bot-station-2"): at the table each bot gets a short name of
// its own and a bot badge, so three bots of one level are told apart.
import {t} from './i18n.js';

const PERSONAS = {
  random: ['Ada', 'Bea', 'Cid', 'Dot'],
  station: ['Eli', 'Flo', 'Gus', 'Hal'],
  easy: ['Ivy', 'Jo', 'Kit', 'Lou'],
  medium: ['Max', 'Ned', 'Oz', 'Pia'],
  hard: ['Quinn', 'Rita', 'Sam', 'Tess'],
};
const BOT = /^bot-([a-z]+)(?:-(\d+))?$/;

/** {level, index} of a bot seat's name, else null. */
export function botOf(name) {
  const m = BOT.exec(String(name || ''));
  if (!m || !PERSONAS[m[1]]) return null;
  return {level: m[1], index: m[2] ? Number(m[2]) - 1 : 0};
}

/** The short name shown for a player (a bot's persona, a human's own name). */
export function shownName(name) {
  const bot = botOf(name);
  if (!bot) return name;
  const list = PERSONAS[bot.level];
  return bot.index < list.length ? list[bot.index] : `${list[0]} ${bot.index + 1}`;
}

/** A longer description for tooltips and screen readers ("Gus, bot · Calling station"). */
export function nameTitle(name) {
  const bot = botOf(name);
  return bot ? `${shownName(name)} — ${t('names.bot', {level: t('level.' + bot.level)})}` : name;
}

/** The name shown for an account the server describes ({name, display, kind}): the display
 * name the player chose, a bot's persona, a guest's "Guest 4821" (docs/protocol.md "Names"). */
export function displayOf(user) {
  if (!user) return '';
  return user.display || shownName(user.name);
}

/** The game a table deals, in words, from the server's `format`
 * ("No-Limit Texas Hold'em freezeout, 1,000 chips, blinds up every 6 hands"). */
export function gameLine(format) {
  if (!format || !format.name) return '';
  if (format.stack == null || format.hands_per_level == null) return format.name;
  const type = t('game.type.' + (format.type || 'freezeout'));
  const words = {name: format.name, type: type === 'game.type.' + format.type ? format.type : type,
    stack: format.stack, n: format.hands_per_level};
  const level = levelWords(format.level);
  return level ? t('game.lineLevel', {...words, level}) : t('game.line', words);
}

/** The first level's forced bets in words, from the server's description of the game
 * (table/gameinfo.py first_level: blinds, stud's ante and bring-in, fixed-limit bets). */
export function levelWords(level) {
  if (!level) return '';
  const parts = [];
  if (level.big_blind) parts.push(t('game.level.blinds', {sb: level.small_blind || 0, bb: level.big_blind}));
  if (level.ante) parts.push(t('game.level.ante', {n: level.ante}));
  if (level.bring_in) parts.push(t('game.level.bringIn', {n: level.bring_in}));
  if (level.small_bet) parts.push(t('game.level.bets', {small: level.small_bet, big: level.big_bet}));
  return parts.join(', ');
}
