// A freezeout table before its game starts (table.js): the seats as they are taken, each with
// the chips it will start with (the table's `table_game.starting_stack`, R1), what the table
// waits for, the link to share (or a private table's invitations) and leaving a taken seat.
import {h, fill} from './dom.js';
import {t} from './i18n.js';

/** The felt, the bar and the room's words of a table that waits for its players. */
export function renderWaiting(page) {
  const s = page.state;
  const table = s.table;
  const you = s.you || {};
  const slots = table.slots || [];
  const n = slots.length;
  page.felt.render({
    viewer: you.slot ?? 0, board: [], pots: [],
    seats: slots.map((slot, i) => {
      const user = slot.user;
      const name = user ? user.name : '';
      return {seat: i, name, stack: table.table_game.starting_stack, bet: 0, cards: null, empty: !user && !slot.bot,
        stateText: !user && !slot.bot ? t('table.sitHere') : '', flags: {me: you.slot === i, empty: !user && !slot.bot}};
    }),
  });
  const free = slots.filter(x => !x.user && !x.bot).length;
  page.bar.el.hidden = false;
  page.feltBox.hidden = false;
  page.felt.el.hidden = false;
  page.page.classList.add('fit');
  page.bar.update({legal: null, view: null, status: free ? t('table.waitingFor', {n: free}) : t('table.starting')});
  page.waitingEl.hidden = false;
  const key = `${free}:${you.slot}:${n}:${page.privacy ? page.privacy.creator : ''}`;
  if (page.waitingEl.dataset.key === key) return;
  page.waitingEl.dataset.key = key;
  fill(page.waitingEl, table.private ? h('p.muted', {style: {textAlign: 'center'}}, t('private.waiting'), ' ',
    page.privacy && page.privacy.creator ? h('button.btn.small', {type: 'button', onclick: () => page.privacy.open()},
      t('private.title')) : null) : h('p.muted', {style: {textAlign: 'center'}}, t('table.share'), ' ',
    h('code', location.href)), you.slot != null ? h('p', {style: {textAlign: 'center'}},
    h('button.btn.small', {type: 'button', onclick: () => page.stand()}, t('table.leaveSeat'))) : null);
  page.endEl.hidden = true;
}
