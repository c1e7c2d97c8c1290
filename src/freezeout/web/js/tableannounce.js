// What the table page says aloud of a hand's events (table.js): the pots won for screen
// readers, and in a toast a resignation, a second forfeit in a row (R27), Don't wait and a
// forced move (R26) — in the words of the events the server sent.
import {announce} from './dom.js';
import {t} from './i18n.js';
import {handName} from './poker.js';
import {shownName} from './names.js';
import {toast} from './ui.js';

/** Say `events` (an update's, just drawn) as the table page's `state` names the seats. */
export function announceEvents(page, events) {
  const v = page.state.view;
  if (!v) return;
  const me = page.state.you ? page.state.you.seat : null;
  const name = seat => shownName((v.seats[seat] || {}).player || '?');
  const twice = new Set(events.filter(e => e.type === 'forfeited' && e.in_a_row >= 2).map(e => e.seat));
  for (const e of events) {
    if (e.type === 'pot_awarded') {
      const winners = e.shares.filter(x => x[1] > 0).map(x => name(x[0])).join(', ');
      const hand = handName(e);
      announce(t('result.wins', {name: winners, amount: e.amount}) + (hand ? ', ' + hand : ''));
    } else if (e.type === 'resigned') {
      // a second forfeit in a row eliminates like a resignation (R27): say which it was
      const key = (twice.has(e.seat) ? 'table.timedOut' : 'table.resigned') + (e.seat === me ? 'You' : '');
      toast(t(key, {name: name(e.seat), n: e.vanished}), 'info', 6000);
    } else if (e.type === 'dont_wait') toast(t('table.dontWaitBy', {by: name(e.by), name: name(e.seat)}), 'info');
    else if (e.type === 'forfeited' && e.in_a_row < 2) {
      const forced = events.find(x => x.type === 'action_taken' && x.seat === e.seat && x.forced);
      const move = (forced && forced.kind === 'check' ? 'table.forcedCheck' : 'table.forcedFold') + (e.seat === me ? 'You' : '');
      if (e.seat === me) toast(t('table.forfeitedYou', {move: t(move)}), 'info', 6000);
      else announce(t('table.forfeited', {name: name(e.seat), move: t(move)}));
    }
  }
}
