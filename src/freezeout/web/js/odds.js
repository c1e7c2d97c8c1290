// The odds calculator (#/odds, issue #36): a game, 2-10 hands (cards, or in hold'em and
// short-deck ranges from the 13×13 grid of the range charts), board and dead cards.  The
// server computes (GET /api/odds, docs/protocol.md "Odds"): exact where the deals are few
// enough, else seeded Monte Carlo with its ±.  The address carries the whole question, so
// opening it shows the same result.
import {h, fill} from './dom.js';
import {getLang, num} from './i18n.js';
import * as api from './api.js';
import {cardLabel, SUIT_SYMBOL} from './poker.js';
import {shortGame} from './gamenames.js';

const GAMES = ['NT', 'NS', 'PO', 'FO/8', 'F7S', 'F7S/8', 'FR'];
const RANKS = 'AKQJT98765432';
const SUITS = 'shdc';
const HOLE = {NT: 2, NS: 2, PO: 4, 'FO/8': 4};  // the stud games: the 1 to 7 cards known so far
const MAX_HANDS = 10;
const CARDS_RE = /^\s*(?:[2-9TJQKA][shdc]\s*)*$/i;
const RANGE_GAMES = new Set(['NT', 'NS']);

/** The question in an address's query (``#/odds?game=NT&hand=AhKh&hand=QQ%2B&board=…&dead=…``). */
export function parseQuery(hash) {
  const at = hash.indexOf('?');
  const params = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  return {game: params.get('game') || 'NT', hands: params.getAll('hand'), board: params.get('board') || '', dead: params.get('dead') || ''};
}

function queryOf(game, hands, board, dead) {
  const params = new URLSearchParams({game});
  for (const hand of hands) params.append('hand', hand);
  if (board) params.set('board', board);
  if (dead) params.set('dead', dead);
  return params.toString();
}

/** The cards of ``text`` ("ahkh" → ["Ah", "Kh"]), or null when it is not a list of cards (a range). */
function cardsOf(text) {
  if (!CARDS_RE.test(text)) return null;
  return (text.match(/[2-9TJQKA][shdc]/gi) || []).map(c => c[0].toUpperCase() + c[1].toLowerCase());
}

function gridClass(row, col) {
  if (row === col) return RANKS[row] + RANKS[row];
  return row < col ? RANKS[row] + RANKS[col] + 's' : RANKS[col] + RANKS[row] + 'o';
}

const COMBOS = name => name.length === 2 ? 6 : name[2] === 's' ? 4 : 12;
const CLASS = '([2-9TJQKA])([2-9TJQKA])([so]?)';

/** The grid's classes of a written range part (docs/review.md: AKs, QQ, AK, QQ+, ATs+, 22-55,
 *  A2s-A5s, random), or null for a part the grid cannot draw (an exact hand such as AhKh). */
export function classesOf(part) {
  const text = part.trim();
  if (/^(random|any|\*)$/i.test(text)) return Array.from({length: 169}, (_, i) => gridClass(Math.floor(i / 13), i % 13));
  const at = rank => RANKS.indexOf(rank.toUpperCase());
  const named = (high, low, suited) => high === low ? [RANKS[high] + RANKS[high]]
    : (suited ? [suited] : ['s', 'o']).map(s => RANKS[Math.min(high, low)] + RANKS[Math.max(high, low)] + s);
  let m = new RegExp('^' + CLASS + '$', 'i').exec(text);
  if (m) return named(at(m[1]), at(m[2]), m[3].toLowerCase());
  m = new RegExp('^' + CLASS + '\\+$', 'i').exec(text);
  if (m) {
    const [top, kick] = [Math.min(at(m[1]), at(m[2])), Math.max(at(m[1]), at(m[2]))];
    if (top === kick) return Array.from({length: top + 1}, (_, r) => RANKS[r] + RANKS[r]);
    return Array.from({length: kick - top}, (_, k) => named(top, top + 1 + k, m[3].toLowerCase())).flat();
  }
  m = new RegExp('^' + CLASS + '-' + CLASS + '$', 'i').exec(text);
  if (m) {
    const [a, b, c, d] = [m[1], m[2], m[4], m[5]].map(at);
    if (a === b && c === d) return Array.from({length: Math.abs(a - c) + 1}, (_, k) => RANKS[Math.min(a, c) + k].repeat(2));
    if (a !== c) return null;
    const [from, to] = [Math.min(b, d), Math.max(b, d)];
    return Array.from({length: to - from + 1}, (_, k) => named(a, from + k, m[3].toLowerCase())).flat();
  }
  return null;
}

export class OddsPage {
  constructor(main) {
    this.main = main;
    this.open = null;  // {field, kind: 'cards' | 'range'}: the picker shown under a field
    this.asked = 0;
    fill(main, h('p.loading', '…'));
    this.load();
  }

  destroy() { this.gone = true; }

  async load() {
    const lang = getLang();
    this.words = (await import(lang === 'cs' ? '../i18n/odds.cs.js' : '../i18n/odds.en.js')).default;
    if (this.gone) return;
    const q = parseQuery(location.hash);
    this.game = GAMES.includes(q.game) ? q.game : 'NT';
    this.values = {board: q.board, dead: q.dead};
    this.count = Math.min(Math.max(q.hands.length, 2), MAX_HANDS);
    for (let i = 0; i < this.count; i++) this.values['h' + i] = q.hands[i] || '';
    this.resultEl = h('section.odds-out', {'aria-live': 'polite'});
    this.formEl = h('form.odds-form', {onsubmit: e => { e.preventDefault(); this.calculate(true); }});
    fill(this.main, h('article.odds.panel', h('h1', this.w('title')), h('p.muted', this.w('lead')), this.formEl, this.resultEl));
    this.render();
    if (q.hands.length >= 2) this.calculate();
  }

  w(key, params = {}) {
    const text = this.words[key];
    return String(text).replace(/\{(\w+)\}/g, (m, name) => typeof params[name] === 'number' ? num(params[name]) : String(params[name] ?? m));
  }

  stud() { return !HOLE[this.game]; }

  fields() {
    const list = Array.from({length: this.count}, (_, i) => 'h' + i);
    return this.stud() ? [...list, 'dead'] : [...list, 'board', 'dead'];
  }

  label(field) {
    return field[0] === 'h' ? this.w('hand', {n: Number(field.slice(1)) + 1}) : this.w(field);
  }

  /** How many cards ``field`` may hold. */
  most(field) {
    if (field === 'board') return 5;
    if (field === 'dead') return 40;
    return HOLE[this.game] || 7;
  }

  render() {
    const game = h('select#odds-game', {onchange: e => { this.game = e.target.value; this.open = null; this.render(); }},
      ...GAMES.map(code => h('option', {value: code, selected: code === this.game}, shortGame(code))));
    const rows = this.fields().map(field => this.fieldRow(field));
    const add = this.count < MAX_HANDS ? h('button.btn.small.ghost#odds-add', {type: 'button', onclick: () => {
      this.values['h' + this.count] = '';
      this.count += 1;
      this.render();
    }}, '+ ' + this.w('add')) : null;
    this.goEl = h('button.btn.primary#odds-go', {type: 'submit'}, this.w('go'));
    fill(this.formEl, h('div.field', h('label', {for: 'odds-game'}, this.w('game')), game), ...rows,
      h('div.odds-actions', add, this.goEl));
  }

  fieldRow(field) {
    const id = 'odds-' + field;
    const input = h('input', {type: 'text', id, value: this.values[field], autocomplete: 'off', autocapitalize: 'off',
      spellcheck: 'false', dataset: {field}, oninput: e => { this.values[field] = e.target.value; }});
    const hand = field[0] === 'h';
    const hint = field === 'dead' ? this.w('deadHint') : hand
      ? this.w('handHint')[this.stud() ? 'stud' : RANGE_GAMES.has(this.game) ? 'holdem' : 'flop'] : null;
    const toggle = kind => () => {
      this.open = this.open && this.open.field === field && this.open.kind === kind ? null : {field, kind};
      this.render();
      const first = this.formEl.querySelector('.odds-picker button');
      if (first) first.scrollIntoView({block: 'nearest'});
    };
    const pressed = kind => String(!!this.open && this.open.field === field && this.open.kind === kind);
    const buttons = h('div.odds-buttons',
      h('button.btn.small.odds-pick', {type: 'button', 'aria-expanded': pressed('cards'), onclick: toggle('cards'),
        'aria-label': this.w('pickFor', {what: this.label(field)})}, this.w('pick')),
      hand && RANGE_GAMES.has(this.game) ? h('button.btn.small.odds-range', {type: 'button', 'aria-expanded': pressed('range'),
        onclick: toggle('range'), 'aria-label': this.w('rangeFor', {what: this.label(field)})}, this.w('range')) : null,
      hand && this.count > 2 ? h('button.btn.small.ghost.odds-remove', {type: 'button', 'aria-label': this.w('remove', {what: this.label(field)}),
        onclick: () => this.removeHand(Number(field.slice(1)))}, '×') : null);
    const open = this.open && this.open.field === field ? (this.open.kind === 'range' ? this.rangeGrid(field, input) : this.cardPicker(field, input)) : null;
    return h('div.field.odds-field', h('label', {for: id}, this.label(field)), h('div.odds-line', input, buttons),
      hint ? h('span.hint', hint) : null, open);
  }

  removeHand(index) {
    for (let i = index; i < this.count - 1; i++) this.values['h' + i] = this.values['h' + (i + 1)];
    this.count -= 1;
    delete this.values['h' + this.count];
    this.open = null;
    this.render();
  }

  /** Cards held by the other fields: not to be picked again. */
  usedElsewhere(field) {
    const used = new Set();
    for (const other of this.fields()) {
      if (other === field) continue;
      for (const card of cardsOf(this.values[other]) || []) used.add(card);
    }
    return used;
  }

  cardPicker(field, input) {
    const used = this.usedElsewhere(field);
    const mine = () => cardsOf(this.values[field]) || [];
    const buttons = [];
    const refresh = () => {
      const chosen = mine();
      for (const b of buttons) {
        const on = chosen.includes(b.dataset.card);
        b.setAttribute('aria-pressed', String(on));
        b.disabled = !on && (used.has(b.dataset.card) || chosen.length >= this.most(field) ||
          (this.game === 'NS' && '2345'.includes(b.dataset.card[0])));
      }
    };
    const grid = h('div.odds-cards', {role: 'group', 'aria-label': this.w('pickFor', {what: this.label(field)})},
      ...[...SUITS].flatMap(suit => [...RANKS].map(rank => {
        const card = rank + suit;
        const b = h('button.odds-card.' + suit, {type: 'button', dataset: {card}, 'aria-label': cardLabel(card), onclick: () => {
          const chosen = mine();
          const next = chosen.includes(card) ? chosen.filter(c => c !== card) : [...chosen, card];
          this.values[field] = input.value = next.join('');
          refresh();
        }}, rank, h('span', {'aria-hidden': 'true'}, SUIT_SYMBOL[suit]));
        buttons.push(b);
        return b;
      })));
    refresh();
    return h('div.odds-picker', grid, this.pickerFoot(field, input, refresh));
  }

  pickerFoot(field, input, refresh, extra = null) {
    return h('div.odds-foot', extra,
      h('button.btn.small.ghost', {type: 'button', onclick: () => { this.values[field] = input.value = ''; refresh(); }}, this.w('clear')),
      h('button.btn.small.odds-done', {type: 'button', onclick: () => { this.open = null; this.render(); document.getElementById('odds-' + field).focus(); }}, this.w('done')));
  }

  rangeGrid(field, input) {
    // what is written: the grid's classes, and parts it cannot draw (an exact hand) kept as they are
    const parts = String(this.values[field]).split(',').map(s => s.trim()).filter(Boolean);
    const chosen = new Set(parts.flatMap(part => classesOf(part) || []));
    const kept = parts.filter(part => !classesOf(part));
    const cells = [];
    const count = h('span.muted.odds-combos');
    const write = () => {
      const names = cells.filter(c => chosen.has(c.dataset.name)).map(c => c.dataset.name);
      this.values[field] = input.value = [...names, ...kept].join(',');
      count.textContent = this.w('combos', {n: names.reduce((sum, name) => sum + COMBOS(name), 0)});
      for (const c of cells) c.setAttribute('aria-pressed', String(chosen.has(c.dataset.name)));
    };
    const set = (cell, on) => {
      if (!cell || !cell.dataset.name || cell.disabled) return;
      if (on) chosen.add(cell.dataset.name); else chosen.delete(cell.dataset.name);
      write();
    };
    let painting = null;  // true: a drag selects, false: it clears
    const grid = h('div.odds-grid', {role: 'group', 'aria-label': this.w('rangeFor', {what: this.label(field)}),
      onpointerdown: e => {
        const cell = e.target.closest('button[data-name]');
        if (!cell || cell.disabled) return;
        e.preventDefault();
        painting = !chosen.has(cell.dataset.name);
        set(cell, painting);
      },
      onpointermove: e => {
        if (painting === null) return;
        const cell = document.elementFromPoint(e.clientX, e.clientY);
        if (cell && grid.contains(cell)) set(cell.closest('button[data-name]'), painting);
      },
      onpointerup: () => { painting = null; },
      onpointercancel: () => { painting = null; },
      onpointerleave: () => { painting = null; },
    });
    for (let row = 0; row < 13; row++) {
      for (let col = 0; col < 13; col++) {
        const name = gridClass(row, col);
        const kind = row === col ? 'pair' : row < col ? 'suited' : 'offsuit';
        const cell = h('button.odds-cell.' + kind, {type: 'button', dataset: {name}, 'aria-label': name,
          disabled: this.game === 'NS' && /[2-5]/.test(name),
          onclick: e => { if (e.detail === 0) set(cell, !chosen.has(name)); }}, name);  // the keyboard's Enter/Space
        cells.push(cell);
        grid.append(cell);
      }
    }
    write();
    const refresh = () => { chosen.clear(); kept.length = 0; write(); };
    return h('div.odds-picker', grid, this.pickerFoot(field, input, refresh, count));
  }

  /** Ask the server; ``reveal``: bring the answer into view (a phone's button is far above it). */
  async calculate(reveal = false) {
    const hands = Array.from({length: this.count}, (_, i) => {
      const text = String(this.values['h' + i]).trim();
      const cards = cardsOf(text);
      return cards ? cards.join('') : text;
    });
    const norm = key => (cardsOf(this.values[key] || '') || [String(this.values[key] || '').trim()]).join('');
    const board = this.stud() ? '' : norm('board');
    const dead = norm('dead');
    const query = queryOf(this.game, hands, board, dead);
    history.replaceState(null, '', '#/odds?' + query);
    const mine = ++this.asked;
    this.goEl.disabled = true;
    fill(this.resultEl, h('p.muted', this.w('busy')));
    try {
      const data = await api.get('/api/odds?' + query);
      if (mine !== this.asked || this.gone) return;
      this.show(data);
      if (reveal) this.resultEl.scrollIntoView({block: 'start'});
    } catch (e) {
      if (mine !== this.asked || this.gone) return;
      fill(this.resultEl, h('p.odds-error', {role: 'alert'}, e.status === 429 ? this.w('limited') : this.w('error', {message: e.message})));
    } finally {
      if (mine === this.asked && this.goEl) this.goEl.disabled = false;
    }
  }

  show(data) {
    const pct = new Intl.NumberFormat(getLang(), {minimumFractionDigits: 2, maximumFractionDigits: 2});
    const p = x => pct.format(100 * x) + ' %';
    const rows = data.hands.map(hand => h('li',
      h('div.odds-top', h('span.odds-hand', hand.hand),
        h('span.odds-eq', p(hand.equity), data.exact ? null : h('span.odds-err', ' ± ' + pct.format(100 * hand.error)))),
      h('div.odds-bar', {'aria-hidden': 'true'}, h('span', {style: {width: (100 * hand.equity).toFixed(2) + '%'}})),
      h('div.odds-detail.muted', [
        this.w('win') + ' ' + p(hand.win), this.w('tie') + ' ' + p(hand.tie),
        ...(data.split ? [this.w('high') + ' ' + p(hand.high), this.w('low') + ' ' + p(hand.low)] : []),
      ].join(' · '))));
    fill(this.resultEl, h('ol.odds-result', ...rows),
      h('p.muted.odds-how', data.exact ? this.w('exact', {n: data.deals}) : this.w('sampled', {n: data.deals, seed: data.seed})),
      data.no_low != null ? h('p.muted', this.w('noLow', {p: p(data.no_low)})) : null,
      h('p.muted.odds-share', this.w('share')));
  }
}
