// A full cash table's waiting list (C13, docs/protocol.md "Waiting list"), drawn from what the
// server says: the `waitlist` of a table's view or its lobby summary ({full, players: [{user,
// name, place, anywhere}], offers: [{user, name, seat, until}]}).  The page finds you in it by
// your account id and shows your place ("2nd in line"), the seat offered to you with its
// countdown and Take / Decline, or "Join waiting list" and "First available" where the server
// says the table is full.  No rule is decided here: a refusal is the server's, in its words.
import {h} from './dom.js';
import {t, ordinal} from './i18n.js';

/** Where `userId` stands on `waitlist`: {place, offer, count, full} (place/offer null when not on it). */
export function waitState(waitlist, userId) {
  const list = waitlist || {};
  const players = list.players || [];
  const mine = players.find(p => p.user === userId) || null;
  const offer = (list.offers || []).find(o => o.user === userId) || null;
  return {place: mine ? mine.place : null, anywhere: !!(mine && mine.anywhere), offer, count: players.length, full: !!list.full};
}

/** The controls for one table's list, or null when there is nothing to offer (a free seat, a guest).
 *  `actions`: {join, leave, take, decline, anywhere} — each called on its button's click. */
export function waitControls(waitlist, user, now, actions) {
  if (!waitlist || !user || user.kind === 'guest') return null;
  const state = waitState(waitlist, user.id);
  if (state.offer) {
    const left = Math.max(0, Math.ceil(state.offer.until - now));
    return h('div.waitlist.offer', {role: 'group', 'aria-label': t('wait.offerLabel')},
      h('p.wait-text', {role: 'status'}, t('wait.offer', {seat: state.offer.seat + 1, s: left})),
      h('div.wait-row',
        h('button.btn.small.primary.wait-take', {type: 'button', onclick: () => actions.take(state.offer)}, t('wait.take')),
        h('button.btn.small.ghost.wait-decline', {type: 'button', onclick: () => actions.decline()}, t('wait.decline'))));
  }
  if (state.place != null) {
    return h('div.waitlist.listed',
      h('p.wait-text', {role: 'status'}, t('wait.place', {place: ordinal(state.place), n: state.count}),
        state.anywhere ? h('span.muted.wait-anywhere', ' · ', t('wait.anywhereOn')) : null),
      h('div.wait-row', h('button.btn.small.ghost.wait-leave', {type: 'button', onclick: () => actions.leave()}, t('wait.leave'))));
  }
  if (!state.full) return null;
  return h('div.waitlist.join',
    h('p.wait-text', t('wait.full', {n: state.count})),
    h('div.wait-row',
      h('button.btn.small.primary.wait-join', {type: 'button', onclick: () => actions.join()}, t('wait.join')),
      actions.anywhere ? h('button.btn.small.wait-anywhere', {type: 'button', title: t('wait.anywhereLong'),
        onclick: () => actions.anywhere()}, t('wait.anywhere')) : null));
}
