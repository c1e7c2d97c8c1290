// The table page's action bar line (table.js): whose turn and how long is left, the hand's result
// during the pause (R30), Don't wait once a turn ran out (R26), the moves and the pre-moves, and
// the turn's alerts.  The moves and the result are the server's (the view's `legal` and `result`).
import {h, announce} from './dom.js';
import {t, ordinal} from './i18n.js';
import {lateFor} from './model.js';
import {shownName} from './names.js';

const HURRY_SECONDS = 10;

/** The bar under the felt for the hand on the table (`model`: model.js tableModel), at `now`;
 * `ended`: the end screen is shown instead. */
export function renderBar(page, model, now, ended) {
  const s = page.state;
  const v = s.view;
  const you = s.you || {};
  const me = you.seat != null ? v.seats[you.seat] : null;
  const clock = s.clock || {};
  let status = '';
  let dontWait = null;
  let hurry = false;
  let lateKey = null;
  const acting = model.acting;
  const actingName = acting != null ? shownName(v.seats[acting].player) : '';
  if (ended || page.settling()) {
    status = '';
  } else if (v.hand_over) {
    let next = '';
    if (v.finished) next = h('button.btn.small.see-results', {type: 'button', onclick: () => page.skipFinal()}, t('end.seeResults'), ' →');
    else if (v.hand_number === 0) next = t('table.starting');
    else if (clock.next_hand_at) next = t('act.handOver', {s: Math.max(0, Math.ceil(clock.next_hand_at - now))});
    status = model.result ? resultNode(model.result, next) : next;
  } else if (acting != null && acting === you.seat) {
    const left = clock.turn_deadline ? Math.max(0, Math.ceil(clock.turn_deadline - now)) : null;
    hurry = left != null && left <= HURRY_SECONDS;
    if (left === 0) status = t('table.yourTimeUp') + ' · ' + t('table.lateShort', {t: lateFor(now - clock.turn_deadline)});
    else status = t('table.yourTurn') + (left != null ? ' · ' + t('table.timeLeft', {s: left}) : '') +
      (hurry && me && me.forfeits ? ' · ' + t('table.lastWarning') : '');
  } else if (acting != null) {
    if (model.expired) {
      // R26: the table waits for Don't wait, however long: say how long it has been
      status = t('table.timeUpFor', {name: actingName, t: lateFor(now - clock.turn_deadline)});
      if (me && me.in_tournament) {
        dontWait = actingName;
        if (aloneWith(s, acting)) lateKey = `${v.hand_number}:${clock.turn_started}`;
      }
    } else {
      const left = clock.turn_deadline ? Math.max(0, Math.ceil(clock.turn_deadline - now)) : null;
      status = t('act.wait', {name: actingName}) + (left != null ? ' ' + t('table.timeLeft', {s: left}) : '');
    }
  }
  const out = me && !me.in_tournament && !v.finished && !page.bustingNow(model);
  if (out && typeof status === 'string') status = t('table.youAreOut', {place: ordinal(me.place)}) + ' · ' + t('table.watching');
  else if (you.seat == null && !v.finished && typeof status === 'string') status = t('table.spectating') + (status ? ' ' + status : '');
  page.bar.el.hidden = ended;
  page.bar.el.classList.toggle('hurry', hurry);
  page.keysHint.hidden = you.seat == null || !!v.finished;
  const legal = !v.hand_over && acting === you.seat ? v.legal : null;
  const canPre = !v.hand_over && !v.finished && !!me && me.in_hand && !me.all_in && acting != null && acting !== you.seat;
  page.bar.update({legal, view: v, status, dontWait, busy: page.busy, canPre});
  const turnKey = legal ? `${v.hand_number}:${clock.turn_started}` : null;
  if (startTurn(page, legal, turnKey)) return;
  if (turnKey && hurry && page.hurryKey !== turnKey) { page.hurryKey = turnKey; announce(t('table.hurry')); page.alerts.hurry(); }
  // nobody else will press Don't wait: alert this player as for a turn of their own
  if (lateKey && lateKey !== page.lateKey) page.alerts.late(t('table.lateAlert', {name: actingName}));
  page.lateKey = lateKey;
  if (!turnKey && !lateKey) page.alerts.stopFlash();
  page.turnKey = turnKey;
}

/** A turn of yours begins (`turnKey`, null: none): the move picked ahead in the bar is made at
 * once, else the turn is said and alerted.  True when the move was sent (a freezeout's and a
 * cash table's bar: cashtable.js). */
export function startTurn(page, legal, turnKey) {
  if (!turnKey || turnKey === page.turnKey) return false;
  const pre = page.bar.takePre(legal);
  if (pre && !page.busy) { page.turnKey = turnKey; page.act(pre); return true; }
  announce(t('table.yourTurn'));
  page.alerts.turn();
  return false;
}

/** The hand's result in words for the action bar during the pause (R30). */
function resultNode(result, next) {
  return h('div.hand-result',
    ...result.lines.map(line => h('p', h('b', line.text), line.hand ? h('span.hand', line.hand) : null)),
    ...(result.out || []).map(text => h('p.out', text)),
    next ? h('p.next.muted', next) : null);
}

/** Nobody but you can end `late`'s turn (R26): everyone else still in is offline, as the server's
 * presence says it (a bot's seat is always online there: a bot presses Don't wait itself). */
function aloneWith(s, late) {
  const me = s.you ? s.you.seat : null;
  return !s.view.seats.some(x => x.in_tournament && x.seat !== me && x.seat !== late && (!s.presence || s.presence[x.seat] !== false));
}
