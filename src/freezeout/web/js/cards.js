// Cards as DOM: fixed-size boxes so dealing never moves the layout.
import {h, fill} from './dom.js';
import {SUIT_SYMBOL, cardLabel} from './poker.js';
import {t} from './i18n.js';

const RANK_TEXT = {T: '10'};

/** Update a card element in place: card text ("As"), "back", or null (empty slot). */
export function setCard(el, card, {animate = true} = {}) {
  const key = card || '';
  if (el.dataset.card === key) return el;
  const was = el.dataset.card;
  el.dataset.card = key;
  el.className = 'card';
  fill(el);
  if (!card) {
    el.classList.add('slot');
    el.removeAttribute('role');
    el.removeAttribute('aria-label');
    el.setAttribute('aria-hidden', 'true');
    return el;
  }
  el.removeAttribute('aria-hidden');
  el.setAttribute('role', 'img');
  if (card === 'back') {
    el.classList.add('back');
    el.setAttribute('aria-label', t('card.hidden'));
  } else {
    const rank = RANK_TEXT[card[0]] || card[0];
    const symbol = SUIT_SYMBOL[card[1]];
    el.classList.add(card[1]);
    el.setAttribute('aria-label', cardLabel(card));
    el.append(h('span.r' + (rank === '10' ? '.ten' : ''), {'aria-hidden': 'true'}, rank), h('span.s', {'aria-hidden': 'true'}, symbol), h('span.big', {'aria-hidden': 'true'}, symbol));
  }
  if (animate && (!was || was === 'back' || was === '')) el.classList.add('deal');
  return el;
}

export function cardEl(card, opts) {
  return setCard(h('span.card'), card, opts);
}

/** A row of n fixed slots. */
export function cardRow(n, cls = '') {
  const row = h('div' + (cls ? '.' + cls : ''));
  for (let i = 0; i < n; i++) row.append(setCard(h('span.card'), null));
  return row;
}

/** Seconds between cards that arrive together, dealt one after another. */
export const DEAL_STAGGER = 0.22;
/** The player asked for less motion: nothing is dealt or flown in. */
export const stillQuery = window.matchMedia('(prefers-reduced-motion: reduce)');

/** Fill a row of slots; cards that arrive together (a flop, an all-in run-out)
 * are dealt one after another rather than all at once.  `opts.order` (card → its place in a
 * run-out dealt across the felt, tablerunout.js runOutOrder) times a card by its place there:
 * stud's run-out comes street by street over every seat, not a seat's cards at once. */
export function fillRow(row, cards, opts) {
  const els = row.children;
  const order = opts && opts.order;
  let dealt = 0;
  for (let i = 0; i < els.length; i++) {
    setCard(els[i], cards[i] || null, opts);
    const fresh = els[i].classList.contains('deal') && !els[i].dataset.dealt;
    const place = order && cards[i] ? order.get(cards[i]) : undefined;
    if (fresh) { els[i].dataset.dealt = '1'; els[i].style.animationDelay = ((place ?? dealt++) * DEAL_STAGGER) + 's'; }
    else if (!cards[i]) { delete els[i].dataset.dealt; els[i].style.animationDelay = ''; }
  }
}

export function chipSvg(color = '#d23b3b') {
  const ns = 'http://www.w3.org/2000/svg';
  const s = document.createElementNS(ns, 'svg');
  s.setAttribute('viewBox', '0 0 32 32');
  s.setAttribute('class', 'chip');
  s.setAttribute('aria-hidden', 'true');
  s.style.setProperty('--chip', color);
  const use = document.createElementNS(ns, 'use');
  use.setAttribute('href', '#i-chip');
  s.append(use);
  return s;
}
