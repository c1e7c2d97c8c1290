// The lobby's cash tables (issue #25): the list by game and stakes with seats free, average
// pot and hands per hour (the lobby feed and GET /api/tables?format=cash, docs/protocol.md),
// a filter by game, and the "Create cash table" dialog.  Guests see the list and are told to
// log in: play chips belong to an account.  The limits are the server's: the dialog shows
// C1's defaults as placeholders and leaves anything left empty to the server.
import {h, fill, setText} from './dom.js';
import {t, num} from './i18n.js';
import * as api from './api.js';
import {openAuth} from './auth.js';
import {dialog} from './ui.js';
import {isCashTable, stakesText} from './cashview.js';
import {waitControls} from './waitlist.js';
import {toast} from './ui.js';

const FILTER_KEY = 'fz-cash-filter';
const SIZE_KEY = 'fz-cash-size';
/** The lobby's filter by table size (C12): heads-up, short-handed up to 6-max, full ring 7–10. */
const SIZE_FILTERS = {hu: [2, 2], short: [3, 6], full: [7, 10]};

/** A size's name as card rooms say it (C12): heads-up, 6-max, 9-max (full ring). */
export function sizeName(n) {
  if (n === 2) return t('cashLobby.sizeHeadsUp');
  if (n === 9) return t('cashLobby.sizeFullRing', {n});
  return t('cashLobby.sizeMax', {n});
}

/** The cash seats of a catalogue entry (C12): ``{min, max, usual}`` (an older server: its max_seats). */
export function cashSeats(game) {
  const seats = game && game.seats && game.seats.cash;
  if (seats) return seats;
  const most = (game && game.max_seats) || 4;
  return {min: (game && game.min_seats) || 2, max: most, usual: [2, most].filter((n, i, all) => all.indexOf(n) === i)};
}

/** The game a table deals, from its summary (its own game code in every shape the server gives). */
function gameOf(table) {
  if (table.table_game && table.table_game.code) return table.table_game.code;
  if (table.game && typeof table.game === 'string') return table.game;
  if (table.format && typeof table.format === 'object' && table.format.game) return table.format.game;
  return table.game_code || '';
}

export class CashLobby {
  /** `lobby`: the LobbyPage (its catalogue of games, `games`). */
  constructor(lobby) {
    this.lobby = lobby;
    this.filter = localStorage.getItem(FILTER_KEY) || '';
    this.size = SIZE_FILTERS[localStorage.getItem(SIZE_KEY)] ? localStorage.getItem(SIZE_KEY) : '';
    this.fromFeed = [];
    this.fromList = [];
    this.el = h('section.panel.cash-tables', {'aria-labelledby': 'cash-title'});
    this.render();
    this.load();
  }

  /** GET /api/tables?format=cash: the cash tables, also those the feed's first pages left out. */
  load() {
    api.get('/api/tables?format=cash&limit=200').then(d => {
      this.fromList = ((d && d.tables) || []).filter(isCashTable);
      this.render();
    }).catch(() => {});  // a server without the cash listing: the feed alone
  }

  /** The lobby feed's tables (every kind): the cash ones are ours. */
  setTables(tables) {
    this.fromFeed = tables.filter(isCashTable);
    this.render();
  }

  /** The catalogue came (the lobby asks for it as it opens): an open create dialog offers its games. */
  gamesArrived() {
    this.render();
    if (this.fillGames) this.fillGames();
  }

  tables() {
    const byId = new Map(this.fromList.map(x => [x.id, x]));
    for (const x of this.fromFeed) byId.set(x.id, x);  // the feed is newer
    return [...byId.values()].sort((a, b) => gameOf(a).localeCompare(gameOf(b)) ||
      ((a.stakes || {}).big_blind || 0) - ((b.stakes || {}).big_blind || 0) || (b.created_at || 0) - (a.created_at || 0));
  }

  gameName(code) {
    const game = (this.lobby.games || []).find(g => g.game === code);
    return game ? game.name : code;
  }

  render() {
    const user = api.currentUser();
    const all = this.tables();
    const present = [...new Set(all.map(gameOf))];
    const [low, high] = SIZE_FILTERS[this.size] || [2, 10];
    const sizeOf = x => x.size || (x.slots || []).length;
    const shown = all.filter(x => (!this.filter || gameOf(x) === this.filter) && low <= sizeOf(x) && sizeOf(x) <= high);
    const sizes = all.length || this.size ? h('select#cash-size', {'aria-label': t('cashLobby.sizeFilter'),
      onchange: () => { this.size = sizes.value; localStorage.setItem(SIZE_KEY, this.size); this.render(); }},
      h('option', {value: ''}, t('cashLobby.allSizes')),
      ...Object.keys(SIZE_FILTERS).map(key => h('option', {value: key}, t('cashLobby.size.' + key)))) : null;
    if (sizes) sizes.value = this.size;
    const filter = present.length > 1 || this.filter ? h('select#cash-filter', {'aria-label': t('cashLobby.filter'),
      onchange: () => { this.filter = filter.value; localStorage.setItem(FILTER_KEY, this.filter); this.render(); }},
      h('option', {value: ''}, t('tables.allGames')),
      ...[...new Set([...present, this.filter].filter(Boolean))].map(code => h('option', {value: code}, this.gameName(code)))) : null;
    if (filter) filter.value = this.filter;
    const list = shown.length ? h('ul.table-list.cash-list', ...shown.map(table => this.row(table, user))) : h('p.empty', t('cashLobby.empty'));
    const guest = !user || user.kind === 'guest';
    const create = guest ? null : h('button.btn.small.primary.create-cash', {type: 'button', onclick: () => this.openCreate()}, '+ ', t('cashLobby.create'));
    fill(this.el,
      h('div.section-head', h('h2#cash-title', t('cashLobby.title')), filter, sizes, create),
      guest ? h('p.cash-guest', t('cashLobby.guest'), ' ',
        h('button.btn.small.login', {type: 'button', onclick: () => openAuth('login')}, t('nav.login')), ' ',
        h('button.btn.small.ghost', {type: 'button', onclick: () => openAuth('register')}, t('nav.register'))) : null,
      list);
  }

  row(table, user) {
    const seated = (table.slots || []).filter(s => s.user).length;
    const size = table.size || (table.slots || []).length;
    const held = ((table.waitlist || {}).offers || []).length;  // C13: seats held for players on the list
    const free = Math.max(0, (table.seats_free ?? Math.max(0, size - seated)) - held);
    const mine = user && (table.slots || []).some(s => s.user && s.user.id === user.id);
    const buyIn = table.buy_in || {};
    const label = mine ? t('tables.open') : free && user && user.kind !== 'guest' ? t('cashLobby.sit') : t('tables.watch');
    // C13: a full table's waiting list (your place, a seat offered to you, or join / first available)
    const wait = mine ? null : waitControls(table.waitlist, user, Date.now() / 1000, this.waitActions(table));
    return h('li', {dataset: {table: table.id, game: gameOf(table)}, class: wait ? 'has-wait' : ''},
      h('div',
        h('div.cash-line', h('b.game', this.gameName(gameOf(table))), ' ', h('span.stakes', stakesText(table.stakes))),
        h('div.meta',
          h('span.size', sizeName(size)),
          h('span.free', t('cashLobby.seats', {free, size})),
          buyIn.min != null ? h('span.buyin', t('cashLobby.buyIn', {min: num(buyIn.min), max: num(buyIn.max)})) : null,
          h('span.avgpot', t('cashLobby.avgPot', {n: num(table.avg_pot || 0)})),
          h('span.hph', t('cashLobby.handsPerHour', {n: num(table.hands_per_hour || 0)})))),
      h('a.btn.small' + (label === t('cashLobby.sit') ? '.primary' : ''), {href: '#/table/' + encodeURIComponent(table.id)}, label),
      wait);
  }

  /** The list's requests from the lobby (docs/protocol.md "Waiting list"): the table's answer
   *  (its summary with the list) is drawn at once; a refusal is said in the server's words. */
  waitActions(table) {
    const path = `/api/tables/${encodeURIComponent(table.id)}/waitlist`;
    const done = d => { if (d && d.table) { this.fromList = [...this.fromList.filter(x => x.id !== d.table.id), d.table]; this.render(); } };
    const failed = error => toast(t('cashLobby.refused', {message: error.message}));
    return {
      join: () => api.post(path).then(done, failed),
      leave: () => api.request('DELETE', path).then(done, failed),
      decline: () => api.post(path + '/decline').then(done, failed),
      take: () => { location.hash = '#/table/' + encodeURIComponent(table.id); },
      anywhere: () => api.post('/api/cash/first_available', {table: table.id}).then(d => {
        toast(d.free && d.free.length ? t('wait.freeNow') : t('wait.joinedAnywhere', {n: (d.joined || []).length}), 'info', 6000);
        this.load();
      }, failed),
    };
  }

  /** The "Create cash table" dialog: game, stakes, buy-ins, seats, rake, straddle, run it twice. */
  openCreate() {
    // the dialog may open before the catalogue came: its games are filled in when they come,
    // keeping everything else typed meanwhile (and a create before then deals the house game)
    let games = [];
    const pick = h('select#cash-game');
    const field = (label, input, hint) => h('div.field', h('label', {for: input.id}, label), input, hint || null);
    const number = (id, value, extra = {}) => h('input', {type: 'number', id, inputmode: 'numeric', min: 0, step: 1, value, ...extra});
    const bb = number('cash-bb', 20, {min: 2});
    const minIn = number('cash-min', '');
    const maxIn = number('cash-max', '');
    const seats = h('select#cash-seats');
    const rakePct = number('cash-rake', 0, {step: 0.5, max: 100, inputmode: 'decimal'});
    const rakeCap = number('cash-cap', 0);
    const straddle = h('input#cash-straddle', {type: 'checkbox', checked: true});
    const twice = h('input#cash-twice', {type: 'checkbox', checked: true});
    const buttonStraddle = h('input#cash-button-straddle', {type: 'checkbox'});  // C6: needs straddles
    const showCalled = h('input#cash-show-called', {type: 'checkbox'});  // V17: else a losing hand is mucked unseen
    const secret = h('input#cash-private', {type: 'checkbox'});  // issue #37: reached only by its invite link
    straddle.addEventListener('change', () => { buttonStraddle.disabled = !straddle.checked; if (!straddle.checked) buttonStraddle.checked = false; });
    const hint = h('p.hint.buyin-hint');
    const err = h('p.error-text.cash-error', {role: 'alert', hidden: true});
    const sync = () => {
      const game = games.find(g => g.game === pick.value);
      // C12: the usual sizes first (heads-up, 6-max, 9-max; stud 8; draw 6), then every other size
      const range = cashSeats(game);
      const others = Array.from({length: range.max - range.min + 1}, (_, i) => range.min + i).filter(n => !range.usual.includes(n));
      const was = Number(seats.value) || (range.usual.includes(6) ? 6 : range.max);
      fill(seats, h('optgroup', {label: t('cashLobby.usualSizes')}, ...range.usual.map(n => h('option', {value: n}, sizeName(n)))),
        others.length ? h('optgroup', {label: t('cashLobby.otherSizes')}, ...others.map(n => h('option', {value: n}, t('cashLobby.sizeSeats', {n})))) : null);
      seats.value = String(Math.min(Math.max(was, range.min), range.max));
      // C1's defaults, as placeholders: what the server takes when the boxes are left empty
      const big = Math.max(2, Math.floor(Number(bb.value) || 0));
      const limit = game && game.betting === 'fixed-limit';
      maxIn.placeholder = limit ? '' : String(100 * big);
      minIn.placeholder = limit ? '' : String(20 * big);
      setText(hint, t(limit ? 'cashLobby.defaultsLimit' : 'cashLobby.defaults', {min: num(20 * big), max: num(100 * big)}));
    };
    pick.addEventListener('change', sync);
    bb.addEventListener('input', sync);
    this.fillGames = () => {
      const now = this.lobby.games || [];
      if (now.length === games.length && now.every((g, i) => g.game === games[i].game)) return;
      const was = pick.value;
      games = now;
      fill(pick, ...games.map(g => h('option', {value: g.game}, g.name)));
      pick.value = was || this.lobby.game || this.lobby.house || (games[0] && games[0].game) || '';
      sync();
    };
    this.fillGames();
    sync();
    const submit = h('button.btn.primary.create-go', {type: 'submit'}, t('cashLobby.createGo'));
    const body = h('form.cash-create', {onsubmit: async e => {
      e.preventDefault();
      err.hidden = true;
      const whole = input => (input.value === '' ? 0 : Number(input.value));
      const cash = {big_blind: whole(bb), rake_bp: Math.round(Number(rakePct.value || 0) * 100), rake_cap: whole(rakeCap),
        straddle: straddle.checked, button_straddle: buttonStraddle.checked, run_twice: twice.checked, show_called: showCalled.checked};
      if (minIn.value !== '') cash.min_buy_in = whole(minIn);
      if (maxIn.value !== '') cash.max_buy_in = whole(maxIn);
      submit.disabled = true;
      try {
        const data = await api.post('/api/tables', {format: 'cash', ...(pick.value ? {game: pick.value} : {}), seats: Number(seats.value), cash,
          ...(secret.checked ? {private: true} : {})});
        d.close('done');
        location.hash = '#/table/' + encodeURIComponent(data.table.id);
      } catch (error) {
        submit.disabled = false;
        err.hidden = false;
        setText(err, t('cashLobby.refused', {message: error.message}));
      }
    }},
    field(t('game.label'), pick),
    h('div.cash-grid',
      field(t('cashLobby.bigBlind'), bb),
      field(t('cashLobby.seatsLabel'), seats),
      field(t('cashLobby.minBuyIn'), minIn),
      field(t('cashLobby.maxBuyIn'), maxIn)),
    hint,
    h('div.cash-grid',
      field(t('cashLobby.rakePct'), rakePct),
      field(t('cashLobby.rakeCap'), rakeCap)),
    h('label.check', straddle, t('cashLobby.straddle')),
    h('label.check', buttonStraddle, t('cashLobby.buttonStraddle')),
    h('label.check', twice, t('cashLobby.runTwice')),
    h('label.check', showCalled, t('cashLobby.showCalled')),
    h('label.check', secret, t('create.private')),
    err,
    h('div.actions', submit));
    const filler = this.fillGames;
    const d = dialog({title: t('cashLobby.createTitle'), body, onClose: () => { if (this.fillGames === filler) this.fillGames = null; }});
    d.el.classList.add('cash-create-dialog');
  }
}
