// Cards and the server's words for hands. The page holds no poker rules:
// hand names, the best five and the winners come with the server's events
// (docs/protocol.md "Showdown events").
import {t, getLang} from './i18n.js';

export const SUIT_SYMBOL = {s: '♠', h: '♥', d: '♦', c: '♣'};
const RANK_TEXT = {T: '10'};

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

/** "Td" → "10♦" (for text: the log, the replayer). */
export function cardText(card) {
  return (RANK_TEXT[card[0]] || card[0]) + (SUIT_SYMBOL[card[1]] || card[1]);
}

export function cardsText(cards) { return splitCards(cards).map(cardText).join(' '); }

/** The name of a shown or winning hand in the current language, from the server's event. */
export function handName(event) {
  const names = event && event.names;
  if (!names) return '';
  return names[getLang()] || names.en || '';
}

/** A hand's name inside a sentence ("shows one pair, kings"). */
export function inSentence(name) {
  if (!name || /^[A-Z][A-Z]/.test(name)) return name;
  return name.charAt(0).toLocaleLowerCase(getLang()) + name.slice(1);
}
