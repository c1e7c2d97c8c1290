// A rating as the page shows it. A provisional rating (too few counted games,
// docs/protocol.md "Ratings") carries a "?" and says so on hover and to screen
// readers, so that nobody reads a newcomer's (or a sock puppet's) number as
// an established one. One helper, so every place a rating appears agrees.
import {h} from './dom.js';
import {t, num} from './i18n.js';

/**
 * rating(1480, true) -> <span class="rating provisional" title="…">1480<span aria-hidden>?</span><span.sr-only> (provisional)</span></span>
 * `games` (counted so far) and `needed` (provisional_games), when known, make the hint say how many remain.
 */
export function rating(value, provisional, {games = null, needed = null, spec = 'span'} = {}) {
  const text = num(Math.round(value));
  if (!provisional) return h(spec + '.rating', text);
  const hint = needed != null && games != null
    ? t('rating.provisionalLeft', {n: Math.max(1, needed - games)})
    : t('rating.provisionalHint');
  return h(spec + '.rating.provisional', {title: hint, dataset: {provisional: 'true'}},
    text, h('span.q', {'aria-hidden': 'true'}, '?'), h('span.sr-only', ' (' + t('rating.provisional') + ')'));
}

/** The small "provisional" badge beside a rating where there is room for words (the profile). */
export function provisionalBadge({games = null, needed = null} = {}) {
  const hint = needed != null && games != null
    ? t('rating.provisionalLeft', {n: Math.max(1, needed - games)})
    : t('rating.provisionalHint');
  return h('span.pill.provisional', {title: hint}, t('rating.provisional'));
}

/**
 * The rating family picker (docs/protocol.md "Ratings": one Elo per game family, the house
 * game's first): a labelled <select> over `families` as the server lists them; `onpick(family)`.
 */
export function familyPicker(families, chosen, onpick, {id, label}) {
  const select = h('select.family-picker', {id, onchange: () => onpick(select.value)},
    ...families.map(f => h('option', {value: f}, t('family.' + f))));
  select.value = chosen;
  return h('label.family-pick', {for: id}, h('span', label), select);
}
