// Your luck on your own profile (issue #36, docs/protocol.md "Luck"): per recent freezeout and
// cash session the result, the all-in EV (each all-in counted at equity × pot) and the luck
// (result − all-in EV), and each kind's total — freezeout chips and play chips are never added
// together.  GET /api/me/luck answers about the asker alone: another player's profile never
// asks it, so never shows it (profile.js draws this section on your own profile only).
import {h, fill} from './dom.js';
import {t, num, getLang} from './i18n.js';
import {shortGame, HOUSE_GAME} from './gamenames.js';
import * as api from './api.js';

/** Chips with a sign, whole chips. */
function signed(value) {
  const v = Math.round(value);
  return (v > 0 ? '+' : v < 0 ? '−' : '') + num(Math.abs(v));
}

/** One line's cells: result, all-in EV, luck (coloured by its sign). */
function cells(line) {
  const luck = Math.round(line.luck);
  const cell = (spec, key, value) => h(spec, {dataset: {label: t(key)}}, signed(value));
  return [cell('td.num.lk-result', 'review.result', line.result), cell('td.num.lk-ev', 'review.allInEv', line.all_in_ev),
    cell('td.num.lk-luck' + (luck > 0 ? '.up' : luck < 0 ? '.down' : ''), 'review.luck', line.luck)];
}

/** A kind's table: one row per line (what and when, with its hands), then the total. */
function luckTable(kind, lines, total, what) {
  const when = new Intl.DateTimeFormat(getLang(), {dateStyle: 'short'});
  const rows = lines.map(line => h('tr', {dataset: {[kind]: String(line.game || line.table)}},
    h('td.lk-what', h('span.lk-name', what(line)), h('span.muted.lk-when',
      [line.at ? when.format(new Date(line.at * 1000)) : '', t('luck.hands', {n: line.hands})].filter(Boolean).join(' · '))),
    ...cells(line)));
  return h('table.grid.luck-table', {dataset: {kind}},
    h('caption', t(kind === 'game' ? 'luck.freezeouts' : 'luck.sessions')),
    h('thead', h('tr', h('th', h('span.sr-only', t(kind === 'game' ? 'luck.freezeouts' : 'luck.sessions'))), h('th.num', t('review.result')),
      h('th.num', t('review.allInEv')), h('th.num', t('review.luck')))),
    h('tbody', ...rows),
    h('tfoot', h('tr.lk-total', h('th', t('luck.total', {n: total.all_ins})), ...cells(total))));
}

/** The section: loaded from GET /api/me/luck; its two tables, or why there is nothing yet. */
export function luckSection() {
  const body = h('div.luck-body', h('p.loading', t('luck.loading')));
  const section = h('section.panel.luck', {dataset: {luck: 'loading'}}, h('h2', t('luck.title')),
    h('p.muted.luck-note', t('luck.note')), body);
  api.get('/api/me/luck').then(data => {
    const games = data.freezeouts.games.map(g => ({...g, at: g.finished_at}));
    const sessions = data.sessions.sessions.map(s => ({...s, at: s.started_at}));
    fill(body,
      games.length ? luckTable('game', games, data.freezeouts.total, g => shortGame(g.code || HOUSE_GAME))
        : h('p.muted.lk-none', t('luck.noGames')),
      sessions.length ? luckTable('table', sessions, data.sessions.total, s => s.label + (s.open ? ' · ' + t('luck.open') : ''))
        : h('p.muted.lk-none', t('luck.noSessions')));
    section.dataset.luck = 'ready';
  }).catch(() => { fill(body, h('p.muted', t('luck.unavailable'))); section.dataset.luck = 'failed'; });
  return section;
}
