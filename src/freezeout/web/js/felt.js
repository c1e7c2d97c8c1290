// The oval table: seats, bets, markers, pots, board and the hand result.
// Built once per seat count and updated in place, so nothing jumps while
// cards and chips move. Used by the live table and by the replayer.
import {h, setText, toggle, svg, fill} from './dom.js';
import {cardRow, fillRow, chipSvg, stillQuery} from './cards.js';
import {t, num} from './i18n.js';
import {shownName, nameTitle, botOf} from './names.js';

// Screen positions (percent of the wrapper), clockwise from the viewer at
// the bottom. x/y: seat, bx/by: its bet, dx/dy: the dealer button, sx/sy:
// its blind marker.  The pots' row takes the middle below the top seat, so
// that seat's bet sits left of it (clear of a row of three pots), and its
// blind and button beside the seat.
const WIDE = {
  2: [{x: 50, y: 83, bx: 50, by: 63, dx: 36, dy: 66, sx: 42, sy: 63}, {x: 50, y: 15, bx: 30, by: 34, dx: 64, dy: 15, sx: 36, sy: 15}],
  3: [{x: 50, y: 83, bx: 50, by: 63, dx: 36, dy: 66, sx: 42, sy: 63}, {x: 17, y: 24, bx: 31, by: 40, dx: 25, dy: 50, sx: 31, sy: 48},
      {x: 83, y: 24, bx: 69, by: 40, dx: 75, dy: 50, sx: 69, sy: 48}],
  4: [{x: 50, y: 83, bx: 50, by: 63, dx: 36, dy: 66, sx: 42, sy: 63}, {x: 10, y: 47, bx: 24, by: 47, dx: 20, dy: 32, sx: 24, sy: 55},
      {x: 50, y: 15, bx: 30, by: 34, dx: 64, dy: 15, sx: 36, sy: 15}, {x: 90, y: 47, bx: 76, by: 47, dx: 80, dy: 62, sx: 76, sy: 39}],
};
// Phones (max-width 720px), and any table the oval has no places for, lay the
// table out as a grid instead (style.css ".felt-wrap.grid"): each seat, bet and
// the middle get their own cell, so seats never cover the board or the pots.
// The seat count is data: one grid per count, rows of cells top to bottom, sK a
// seat's cell and bK its bet's by slot (0 = the viewer, at the bottom), clockwise.
// Up to four seats a grid of four columns; from five on six columns, three
// seats across the top and two a row down the sides (issue #34).
const GRID = {
  2: {cols: 4, rows: ['s1 s1 s1 s1', 'b1 b1 b1 b1', 'mid mid mid mid', 'b0 b0 b0 b0', 's0 s0 s0 s0']},
  3: {cols: 4, rows: ['s1 s1 s2 s2', 'b1 b1 b2 b2', 'mid mid mid mid', 'b0 b0 b0 b0', 's0 s0 s0 s0']},
  4: {cols: 4, rows: ['. s2 s2 .', '. b2 b2 .', 's1 b1 b3 s3', 'mid mid mid mid', 'b0 b0 b0 b0', 's0 s0 s0 s0']},
  5: {cols: 6, rows: ['s2 s2 s2 s3 s3 s3', 'b2 b2 b2 b3 b3 b3', 's1 s1 b1 b4 s4 s4', 'mid', 'b0', 's0']},
  6: {cols: 6, rows: ['s2 s2 s3 s3 s4 s4', 'b2 b2 b3 b3 b4 b4', 's1 s1 b1 b5 s5 s5', 'mid', 'b0', 's0']},
  7: {cols: 6, rows: ['s3 s3 s3 s4 s4 s4', 'b3 b3 b3 b4 b4 b4', 's2 s2 b2 b5 s5 s5', 's1 s1 b1 b6 s6 s6', 'mid', 'b0', 's0']},
  8: {cols: 6, rows: ['s3 s3 s4 s4 s5 s5', 'b3 b3 b4 b4 b5 b5', 's2 s2 b2 b6 s6 s6', 's1 s1 b1 b7 s7 s7', 'mid', 'b0', 's0']},
  9: {cols: 6, rows: ['s4 s4 s4 s5 s5 s5', 'b4 b4 b4 b5 b5 b5', 's3 s3 b3 b6 s6 s6', 's2 s2 b2 b7 s7 s7', 'mid', 's1 s1 b1 b8 s8 s8', 'b0', 's0']},
  10: {cols: 6, rows: ['s4 s4 s5 s5 s6 s6', 'b4 b4 b5 b5 b6 b6', 's3 s3 b3 b7 s7 s7', 's2 s2 b2 b8 s8 s8', 'mid', 's1 s1 b1 b9 s9 s9', 'b0', 's0']},
};
// Five to ten seats on a wide table (its wrapper at least RING_MIN_WIDTH px wide: a
// desktop, not the replayer's smaller stage) sit around the oval as at a card room's
// table: seat centres clockwise from yours at the bottom (percent of the wrapper); each
// bet, dealer button and blind marker follows from its seat (ringPlaces).  Compact seats
// (style.css ".felt-wrap.ring") leave the board and the pots the middle (issue #34).
const RING = {
  5: [[50, 86], [11, 58], [29, 13], [71, 13], [89, 58]],
  6: [[50, 86], [11, 64], [11, 27], [50, 11], [89, 27], [89, 64]],
  7: [[50, 86], [23, 84], [9, 47], [29, 12], [71, 12], [91, 47], [77, 84]],
  8: [[50, 86], [24, 84], [9, 58], [17, 18], [50, 11], [83, 18], [91, 58], [76, 84]],
  9: [[50, 86], [25, 85], [9, 62], [10, 28], [34, 11], [66, 11], [90, 28], [91, 62], [75, 85]],
  10: [[50, 86], [26, 85], [9, 63], [9, 31], [28, 11], [50, 10], [72, 11], [91, 31], [91, 63], [74, 85]],
};
const RING_MIN_WIDTH = 880;
/** Each seat's bet part way to the middle of the felt, and its dealer button beside that line
 * (clockwise of it, clear of the bet); worked out where the wrapper's width and height count
 * alike (its aspect ratio 2.05), then back to percent. */
function ringPlaces(anchors) {
  const A = 2.05, cx = 50, cy = 47 / A;
  return anchors.map(([x, y]) => {
    const Y = y / A, ux = cx - x, uy = cy - Y, len = Math.hypot(ux, uy);
    const vx = ux / len, vy = uy / len;
    const bx = x + ux * 0.4, bY = Y + uy * 0.4;
    const step = Math.min(len * 0.24, 11);
    const dx = x + vx * step - vy * 6.5, dY = Y + vy * step + vx * 6.5;
    return {x, y, bx, by: bY * A, dx, dy: dY * A, sx: bx, sy: bY * A};
  });
}
const RINGED = Object.fromEntries(Object.entries(RING).map(([n, anchors]) => [n, ringPlaces(anchors)]));
/** A grid's rows as CSS grid-template-areas: a row of one name spans every column. */
function gridAreas(layout) {
  return layout.rows.map(row => {
    const cells = row.split(' ');
    return '"' + (cells.length === 1 ? Array(layout.cols).fill(cells[0]) : cells).join(' ') + '"';
  }).join(' ');
}
const narrowQuery = window.matchMedia('(max-width: 720px)');

/** A seat's row of card slots follows the game: two in hold'em, four in Omaha,
 * five in a draw game, up to seven in stud (never fewer than two, so a seat keeps
 * its place between hands); `data-n` lets the style sheet overlap and shrink them. */
function sizeRow(row, n) {
  const want = Math.max(2, n);
  while (row.children.length < want) row.append(cardRow(1).firstChild);
  while (row.children.length > want) row.lastChild.remove();
  row.dataset.n = String(want);
  row.style.setProperty('--n', String(want));
  toggle(row.closest('.seat'), 'many', want > 2);
}

const HUES = [152, 210, 28, 280, 340, 190, 48, 110];
function textHash(text) {
  let hash = 0;
  for (const ch of String(text)) hash = (hash * 31 + ch.codePointAt(0)) >>> 0;
  return hash;
}
export function avatarColor(name) {
  const bot = botOf(name);
  // a bot's hue from its level's name and number (no copy of the server's bot list here)
  if (bot) return `hsl(${HUES[(bot.index * 3 + textHash(bot.level)) % HUES.length]} 40% 34%)`;
  return `hsl(${HUES[textHash(name) % HUES.length]} 45% 38%)`;
}

export class Felt {
  constructor({onSeatClick} = {}) {
    this.onSeatClick = onSeatClick;
    this.n = 0;
    this.viewer = 0;
    this.seatEls = [];
    this.betEls = [];
    this.el = h('div.felt-wrap', {role: 'group', 'aria-label': t('table.title')});
    this.felt = h('div.felt', h('div.felt-logo', {'aria-hidden': 'true'}, 'FREEZEOUT'));
    this.pots = h('div.pots', {'aria-live': 'off'});
    this.board = cardRow(5, 'board');
    this.board.setAttribute('role', 'group');
    this.board.setAttribute('aria-label', t('table.board'));
    // C7: a board run twice: the second run's board, under the first (hidden otherwise)
    this.board2 = cardRow(5, 'board2');
    this.board2.setAttribute('role', 'group');
    this.board2.setAttribute('aria-label', t('cash.board2'));
    this.board2.hidden = true;
    this.msg = h('div.table-msg');
    this.center = h('div.center', this.pots, this.board, this.board2, this.msg);
    // hidden until a model places them: unplaced, all three would sit on one spot of the felt
    this.dealer = h('div.marker.dealer', {hidden: true, title: t('table.dealer'), 'aria-label': t('table.dealer'), role: 'img'}, 'D');
    this.sbEl = h('div.marker.blind.sb', {hidden: true, title: t('table.sbLong')}, t('table.sb'));
    this.bbEl = h('div.marker.blind.bb', {hidden: true, title: t('table.bbLong')}, t('table.bb'));
    this.resultEl = h('div.result', {hidden: true, role: 'status'});
    this.el.append(this.felt, this.center, this.dealer, this.sbEl, this.bbEl, this.resultEl);
    this._onMedia = () => this.position();
    narrowQuery.addEventListener('change', this._onMedia);
    // the ring needs room (RING_MIN_WIDTH): decided by the wrapper's own width, which the
    // layout does not change (grid or ring, it is as wide as its column)
    this.wide = false;
    this._sizes = new ResizeObserver(() => {
      const wide = this.el.clientWidth >= RING_MIN_WIDTH;
      if (wide !== this.wide) { this.wide = wide; this.position(); }
    });
    this._sizes.observe(this.el);
  }

  destroy() { narrowQuery.removeEventListener('change', this._onMedia); this._sizes.disconnect(); }

  /** The oval's places for this table, or none (a phone, a narrow column: the grid). */
  places() {
    if (narrowQuery.matches) return null;
    return WIDE[this.n] || (this.wide && RINGED[this.n]) || null;
  }

  /** (Re)build the seats for n players, rotated so `viewer` sits at the bottom. */
  setup(n, viewer) {
    viewer = viewer ?? 0;
    if (n === this.n && viewer === this.viewer) return;
    for (const el of [...this.seatEls, ...this.betEls]) el.remove();
    this.n = n;
    this.viewer = viewer;
    this.seatEls = [];
    this.betEls = [];
    for (let seat = 0; seat < n; seat++) {
      const ringTime = svg('circle', {class: 'time', cx: 18, cy: 18, r: 16, pathLength: 100});
      const seatEl = h('div.seat', {role: 'group', dataset: {seat: String(seat)}},
        cardRow(2, 'hole'),
        h('div.plate',
          h('div.avatar', {'aria-hidden': 'true'},
            h('span.initial'),
            svg('svg', {class: 'ring', viewBox: '0 0 36 36'}, svg('circle', {class: 'track', cx: 18, cy: 18, r: 16}), ringTime)),
          h('div.meta', h('span.pname'), h('span.stack'), h('div.sline', h('span.pos', {hidden: true}), h('span.state'))),
          h('div.marks', {'aria-hidden': 'true'}, h('span.mark.d', 'D'), h('span.mark.sb', t('table.sb')), h('span.mark.bb', t('table.bb'))),
          h('span.winbadge', {'aria-hidden': 'true'})),
        h('div.handname'));
      seatEl.addEventListener('click', () => this.onSeatClick && this.onSeatClick(seat));
      const betEl = h('div.bet.off', {'aria-hidden': 'true'}, chipSvg(), h('span.amount'));
      this.seatEls.push(seatEl);
      this.betEls.push(betEl);
      this.el.append(seatEl, betEl);
    }
    this.position();
  }

  slotOf(seat) { return (seat - this.viewer + this.n) % this.n; }

  position() {
    const layout = GRID[this.n];
    const table = this.places();
    const grid = !!layout && !table;
    this.el.classList.toggle('grid', grid);
    this.el.classList.toggle('ring', !grid && !WIDE[this.n]);
    this.el.classList.toggle('many', grid && layout.cols > 4);
    this.el.dataset.n = String(this.n);
    this.el.style.gridTemplateAreas = grid ? gridAreas(layout) : '';
    for (let seat = 0; seat < this.n; seat++) {
      const slot = this.slotOf(seat);
      this.seatEls[seat].style.gridArea = grid ? 's' + slot : '';
      this.betEls[seat].style.gridArea = grid ? 'b' + slot : '';
    }
    if (!table || grid) return;
    for (let seat = 0; seat < this.n; seat++) {
      const p = table[this.slotOf(seat)];
      this.seatEls[seat].style.setProperty('--x', p.x + '%');
      this.seatEls[seat].style.setProperty('--y', p.y + '%');
      this.betEls[seat].style.setProperty('--bx', p.bx + '%');
      this.betEls[seat].style.setProperty('--by', p.by + '%');
    }
    this.placeMarkers();
  }

  placeMarkers() {
    if (!this.model) return;
    for (let seat = 0; seat < this.n; seat++) {
      const marks = this.seatEls[seat].querySelector('.marks');
      // a seat whose position the view names (C12) says BTN/SB/BB in its own line already
      const named = !!(this.model.seats[seat] || {}).position;
      toggle(marks.querySelector('.d'), 'on', !named && this.model.button === seat);
      toggle(marks.querySelector('.sb'), 'on', !named && this.model.sb === seat);
      toggle(marks.querySelector('.bb'), 'on', !named && this.model.bb === seat);
    }
    const table = this.places();
    const grid = this.el.classList.contains('grid') || !table;
    const put = (el, seat, blind) => {
      if (seat == null || seat < 0 || seat >= this.n) { el.hidden = true; return; }
      el.hidden = false;
      if (grid) return;  // the grid draws each seat's own marks instead (style.css)
      const p = table[this.slotOf(seat)];
      // blinds sit next to the bet; the dealer button next to the seat
      el.style.setProperty('--mx', (blind ? p.sx : p.dx) + '%');
      el.style.setProperty('--my', (blind ? p.sy : p.dy) + '%');
    };
    put(this.dealer, this.model.button, false);
    // around the ring every seat names its position (C12: SB, BB) and the blinds' bets show
    // their chips: no floating blind markers among ten bets
    const ring = this.el.classList.contains('ring');
    put(this.sbEl, ring ? null : this.model.sb, true);
    put(this.bbEl, ring ? null : this.model.bb, true);
  }

  /** Draw a display model (see table.js / replayer.js for how it is built). */
  render(model) {
    this.model = model;
    this.setup(model.seats.length, model.viewer);
    for (const s of model.seats) this.renderSeat(s, model);
    this.placeMarkers();
    // pots
    const pots = model.pots || [];
    const keys = pots.map(p => p.label + ':' + p.amount).join('|');
    if (this.pots.dataset.keys !== keys) {
      this.pots.dataset.keys = keys;
      fill(this.pots, ...pots.map((p, i) =>
        h('span.pot' + (p.total ? '.total' : ''), {'aria-label': `${p.label} ${p.amount}`}, chipSvg(i ? '#2f6fd1' : '#e2a72a'), h('small', p.label), h('span.num', num(p.amount)))));
    }
    // the board has as many slots as the game deals (the view's board_size): none in stud and
    // draw games, where only stud's rare shared card (V7) shows up in the middle
    const boardCards = model.board || [];
    const slots = Math.max(model.boardSize ?? 5, boardCards.length);
    while (this.board.children.length < slots) this.board.append(cardRow(1).firstChild);
    while (this.board.children.length > slots) this.board.lastChild.remove();
    this.board.hidden = !slots;
    this.board.dataset.n = String(slots);
    fillRow(this.board, boardCards, {animate: model.animate !== false, order: model.dealOrder});
    const winning = model.boardWins ? model.boardWins[0] : new Set(model.seats.flatMap(x => x.winCards || []));
    for (const c of this.board.children) toggle(c, 'win', winning.has(c.dataset.card));
    const second = model.secondBoard || null;
    this.board2.hidden = !second;
    if (second) {
      while (this.board2.children.length < second.length) this.board2.append(cardRow(1).firstChild);
      while (this.board2.children.length > second.length) this.board2.lastChild.remove();
      fillRow(this.board2, second, {animate: model.animate !== false});
      const wins2 = model.boardWins ? model.boardWins[1] : new Set();
      for (const c of this.board2.children) toggle(c, 'win', wins2.has(c.dataset.card));
    }
    setText(this.msg, model.message || '');
    this.renderResult(model.result);
  }

  renderSeat(s, model) {
    const el = this.seatEls[s.seat];
    const f = s.flags || {};
    const name = s.empty ? '' : shownName(s.name || '');
    el.querySelector('.initial').textContent = s.empty ? '+' : (name || '?').slice(0, 1).toUpperCase();
    el.querySelector('.avatar').style.setProperty('--av', avatarColor(s.name || ''));
    setText(el.querySelector('.pname'), s.empty ? t('table.emptySeat') : name);
    el.querySelector('.pname').title = s.empty ? '' : nameTitle(s.name || '');
    setText(el.querySelector('.stack'), s.empty ? '' : num(s.stack));
    setText(el.querySelector('.state'), s.stateText || '');
    el.querySelector('.state').title = s.stateTitle || s.stateText || '';
    // C12: the seat's position in this hand as the server names it (BTN, SB, BB, UTG.., LJ, HJ, CO)
    const pos = el.querySelector('.pos');
    setText(pos, s.position || '');
    pos.hidden = !s.position;
    const posName = s.position ? t('table.position', {pos: `${s.position}, ${t('pos.' + s.position)}`}) : '';
    pos.title = posName;
    for (const flag of ['acting', 'banking', 'expired', 'folded', 'allin', 'offline', 'out', 'winner', 'me', 'empty']) toggle(el, flag, f[flag]);
    toggle(el, 'bot', !s.empty && !!botOf(s.name));
    toggle(el, 'shown', !!s.handName);
    const hole = el.querySelector('.hole');
    sizeRow(hole, (s.cards || []).length);
    fillRow(hole, s.cards || [], {animate: model.animate !== false, order: model.dealOrder});
    [...hole.children].forEach((c, i) => toggle(c, 'up', !!(s.up && s.up[i])));
    for (const c of el.querySelectorAll('.hole .card')) toggle(c, 'win', !!s.winCards && s.winCards.includes(c.dataset.card));
    const badge = el.querySelector('.winbadge');
    if (s.won && !badge.classList.contains('on') && model.animate !== false) this.flyChips(this.center, el.querySelector('.plate'));
    setText(badge, s.won ? '+' + num(s.won) : '');
    toggle(badge, 'on', !!s.won);
    const hn = el.querySelector('.handname');
    // One line under the seat: the hand's name up to its kickers, or all of it
    // when another shown hand reads the same (then the kickers decide, R19).
    setText(hn, s.handLabel || (s.handName || '').split(';')[0]);
    hn.title = s.handName || '';
    toggle(hn, 'on', !!s.handName);
    const label = [s.empty ? t('table.emptySeat') : nameTitle(s.name || ''), s.empty ? '' : t('table.stack', {n: s.stack}), posName, s.stateTitle || s.stateText,
      s.bet ? t('table.bet', {n: s.bet}) : '', s.handName, s.won ? t('table.won', {n: s.won}) : ''].filter(Boolean).join(', ');
    el.setAttribute('aria-label', label);
    el.title = s.empty ? label : '';  // a phone's empty seat draws only its "+": the words on hover
    // countdown ring: a CSS animation started in the past by a negative delay
    if (f.acting && model.clock && model.clock.deadline) {
      const total = Math.max(0.1, model.clock.deadline - model.clock.started);
      const elapsed = Math.max(0, model.clock.now - model.clock.started);
      const key = model.clock.deadline + ':' + model.clock.started;
      if (el.dataset.clock !== key) {
        el.dataset.clock = key;
        const ring = el.querySelector('.ring .time');
        ring.style.animation = 'none';
        el.style.setProperty('--turn', total + 's');
        el.style.setProperty('--elapsed', -elapsed + 's');
        void ring.getBoundingClientRect();
        ring.style.animation = '';
      }
    } else {
      delete el.dataset.clock;
    }
    // bet in front of the seat
    const bet = this.betEls[s.seat];
    const amount = s.bet || 0;
    const before = Number(bet.dataset.amount || 0);
    bet.dataset.amount = String(amount);
    if (amount > before && model.animate !== false) this.flyChips(el.querySelector('.plate'), bet);
    toggle(bet, 'off', !amount);
    if (amount) setText(bet.querySelector('.amount'), num(amount));
  }

  /** A chip flies from one element to another (bets to the middle, pots to the winner);
   * nothing moves for those who prefer reduced motion. */
  flyChips(from, to) {
    if (stillQuery.matches || !from || !to || !this.el.isConnected) return;
    const box = this.el.getBoundingClientRect();
    const a = from.getBoundingClientRect();
    const b = to.getBoundingClientRect();
    if (!a.width || !b.width) return;
    const chip = h('div.flying', {'aria-hidden': 'true'}, chipSvg('#e2a72a'));
    const x0 = a.left + a.width / 2 - box.left, y0 = a.top + a.height / 2 - box.top;
    chip.style.left = x0 + 'px';
    chip.style.top = y0 + 'px';
    this.el.append(chip);
    const dx = b.left + b.width / 2 - box.left - x0, dy = b.top + b.height / 2 - box.top - y0;
    const anim = chip.animate([{transform: 'translate(-50%, -50%)', opacity: 1},
      {transform: `translate(calc(${dx}px - 50%), calc(${dy}px - 50%))`, opacity: 0.2}], {duration: 450, easing: 'cubic-bezier(.2,.8,.2,1)'});
    // a flight is drawn for the layout it started in: when the window changes size (a phone
    // turned, a window resized) it stops, rather than fly off the new layout and widen the page
    const stop = () => anim.cancel();
    window.addEventListener('resize', stop, {once: true});
    anim.onfinish = anim.oncancel = () => { chip.remove(); window.removeEventListener('resize', stop); };
  }

  renderResult(result) {
    const el = this.resultEl;
    const key = result ? JSON.stringify(result) : '';
    if (el.dataset.key === key) return;
    el.dataset.key = key;
    if (!result) { el.hidden = true; return; }
    fill(el, h('h3', result.title),
      ...result.lines.map(line => h('p', line.text, line.hand ? h('span.hand', line.hand) : null)),
      ...(result.out || []).map(text => h('p.out', text)));
    el.hidden = false;
  }
}
