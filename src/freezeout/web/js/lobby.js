// The lobby: one-click play against bots, open tables, create a table,
// and the top-50 leaderboard.
import {h, fill} from './dom.js';
import {t, num} from './i18n.js';
import * as api from './api.js';
import {toast} from './ui.js';
import {openAuth} from './auth.js';
import {shownName, botOf, displayOf, gameLine} from './names.js';
import {rating, familyPicker} from './rating.js';
import {LobbyFeed} from './lobbyfeed.js';
import {SeatWatch, leftTables} from './seatwatch.js';
import {CashLobby} from './cashlobby.js';
import {isCashTable} from './cashview.js';

/** The sizes the "Create a table" form offers for a freezeout of ``game`` (a catalogue entry):
 *  every size of a small table (the house game: 2, 3, 4 as ever, R1), else the game's usual
 *  sizes from the catalogue (C12: heads-up, 6-max, 9-max; stud 8; draw 6). */
export function freezeoutSizes(game) {
  const seats = game && game.seats && game.seats.freezeout;
  const least = seats ? seats.min : (game && game.min_seats) || 2;
  const most = seats ? seats.max : (game && game.max_seats) || 4;
  if (most <= 4 || !seats) return Array.from({length: Math.min(most, 4) - least + 1}, (_, i) => least + i);
  return seats.usual;
}

export class LobbyPage {
  constructor(main) {
    this.main = main;
    this.levels = [];  // the bots of the picked game, from the server's catalogue
    this.quickLevel = localStorage.getItem('fz-bot-level') || 'medium';
    this.quickBots = Number(localStorage.getItem('fz-bots') || 1);
    this.format = null; // the game quick play deals, as the server describes it (GET /api/bots)
    // every game a table can deal (GET /api/catalogue) and the one picked for quick play and new tables
    this.games = [];
    this.game = localStorage.getItem('fz-game') || null;  // null: the house game
    this.tableFilter = localStorage.getItem('fz-table-filter') || '';  // '' : every game
    this.tables = [];
    // the leaderboard's rating family (docs/protocol.md "Ratings"); the families as the server lists them
    this.leaderFamily = localStorage.getItem('fz-leader-family') || 'house';
    this.leaderFamilies = ['house', this.leaderFamily].filter((f, i, all) => all.indexOf(f) === i);
    this.build();
    this.refresh();
    // your seats at tables you left: your turn there is told here (issue #21-2)
    this.watch = new SeatWatch(() => this.watch.render(this.turnEl));
    this.watch.follow(leftTables());
    this.feed = new LobbyFeed(tables => { this.tables = tables; this.renderTables(tables); this.followMine(tables); this.cash.setTables(tables); });  // the server pushes every change
    this.offUser = api.onUser(() => { this.renderCreate(); this.cash.render(); });
  }

  destroy() { this.feed.close(); this.offUser(); this.watch.destroy(); }

  /** Follow every playing table the lobby lists with you seated at it. */
  followMine(tables) {
    const me = api.currentUser();
    if (!me) return;
    this.watch.follow(tables.filter(x => x.status === 'playing' && x.slots.some(s => s.user && s.user.id === me.id)).map(x => x.id));
  }

  build() {
    this.turnEl = h('section.seatwatch', {'aria-live': 'polite', hidden: true});
    this.quickEl = h('section.panel.quick', {'aria-labelledby': 'quick-title'});
    this.tablesEl = h('section.panel.tables', {'aria-labelledby': 'tables-title'});
    this.createEl = h('section.panel.create', {'aria-labelledby': 'create-title'});
    this.leaderEl = h('section.panel.leader', {'aria-labelledby': 'leader-title'});
    this.cash = new CashLobby(this);  // issue #25: the cash tables and their create dialog (cashlobby.js)
    fill(this.main, h('div.lobby', this.turnEl, this.quickEl, this.tablesEl, this.cash.el, this.createEl, this.leaderEl));
    this.renderQuick();
    this.renderTables([]);
    this.renderCreate();
    this.renderLeader(null);
  }

  async refresh() {
    api.get('/api/catalogue').then(d => {
      if (!d || !Array.isArray(d.games) || !d.games.length) return;
      this.games = d.games;
      this.house = d.house;
      if (!this.chosen()) this.game = null;  // a stored game this server does not deal
      this.useGame();
      this.renderTables(this.tables);
      this.cash.gamesArrived();
    }).catch(() => {});
    this.loadLeader();
  }

  /** The picked game's catalogue entry (the house game's when none is picked). */
  chosen() {
    const code = this.game || this.house;
    return this.games.find(g => g.game === code) || null;
  }

  /** Offer what the picked game allows: its bots, its seat range, its description. */
  useGame() {
    const game = this.chosen();
    if (game) {
      this.format = game;
      this.levels = game.bots;
      if (!this.levels.includes(this.quickLevel)) this.quickLevel = this.levels.includes('medium') ? 'medium' : this.levels[this.levels.length - 1];
      this.createSlots = (this.createSlots || []).map(level => (level && !this.levels.includes(level) ? '' : level));
      const sizes = freezeoutSizes(game);
      if (!sizes.includes(this.createSize || 2)) this.createSize = sizes.filter(n => n <= (this.createSize || 2)).pop() || 2;
      this.quickBots = Math.min(this.quickBots, game.max_seats - 1);
    }
    this.renderQuick();
    this.renderCreate();
  }

  pickGame(code) {
    this.game = code === this.house ? null : code;
    if (this.game) localStorage.setItem('fz-game', this.game); else localStorage.removeItem('fz-game');
    this.useGame();
  }

  /** A select of every game, grouped by family; ``id`` tells the quick and create pickers apart. */
  gamePicker(id) {
    const families = [];
    for (const game of this.games) if (!families.includes(game.family)) families.push(game.family);
    const select = h('select', {id, onchange: () => this.pickGame(select.value)},
      ...families.map(family => h('optgroup', {label: t('family.' + family)},
        ...this.games.filter(g => g.family === family).map(g => h('option', {value: g.game}, g.name)))));
    select.value = this.game || this.house;
    return h('label.game-pick', {for: id}, h('span', t('game.label')), select);
  }

  /** The leaderboard of the chosen family (the house game's without a query, as always). */
  loadLeader() {
    const family = this.leaderFamily;
    const query = family === 'house' ? '' : '&family=' + encodeURIComponent(family);
    api.get('/api/leaderboard?limit=50' + query).then(d => {
      if (family !== this.leaderFamily) return; // another family was picked meanwhile
      if (d.families) this.leaderFamilies = d.families;
      this.renderLeader(d.players, d.provisional_games);
    }).catch(() => {
      if (family !== this.leaderFamily) return;
      if (family !== 'house') this.pickFamily('house'); // a family this server does not rate
      else this.renderLeader([]);
    });
  }

  pickFamily(family) {
    this.leaderFamily = family;
    localStorage.setItem('fz-leader-family', family);
    this.renderLeader(null);
    this.loadLeader();
  }

  renderQuick() {
    const most = this.chosen() ? this.chosen().max_seats - 1 : 3;
    const bots = h('div.seg', {role: 'radiogroup', 'aria-label': t('quick.bots')},
      ...[1, 2, 3].filter(n => n <= most).flatMap(n => [
        h('input', {type: 'radio', name: 'qbots', id: 'qbots-' + n, value: n, checked: this.quickBots === n,
          onchange: () => { this.quickBots = n; localStorage.setItem('fz-bots', n); }}),
        h('label', {for: 'qbots-' + n}, String(n))]));
    const levels = h('div.levels', {role: 'radiogroup', 'aria-label': t('quick.level')},
      ...this.levels.flatMap(level => [
        h('input', {type: 'radio', name: 'qlevel', id: 'qlevel-' + level, value: level, checked: this.quickLevel === level,
          onchange: () => { this.quickLevel = level; localStorage.setItem('fz-bot-level', level); }}),
        h('label', {for: 'qlevel-' + level}, h('b', t('level.' + level)), h('small', t('level.' + level + '.hint')))]));
    const play = h('button.btn.primary.play', {type: 'button', id: 'quickplay', onclick: () => this.quickplay(play)}, '▶ ', t('quick.play'));
    fill(this.quickEl, 
      cardsArt(),
      h('h1', {id: 'quick-title'}, t('quick.title')),
      this.games.length ? this.gamePicker('quick-game-pick') : null,
      this.format ? h('p.game-line', {id: 'quick-game'}, gameLine(this.format)) : null,
      h('p.lead', t('quick.lead')),
      h('div.row',
        h('div.group', h('span', {id: 'qbots-label'}, t('quick.bots')), bots),
        h('div.group', {style: {flex: '1 1 100%'}}, h('span', t('quick.level')), levels),
        play),
      h('p.odds-link', h('a#odds-link', {href: '#/odds'}, t('nav.oddsLink'))));
  }

  async quickplay(button) {
    button.disabled = true;
    button.textContent = t('quick.busy');
    try {
      const table = await api.quickplay(this.quickLevel, this.quickBots, this.game);
      location.hash = '#/table/' + encodeURIComponent(table.id);
    } catch (e) {
      toast(t('err.generic', {message: e.message}));
      button.disabled = false;
      this.renderQuick();
    }
  }

  renderTables(all) {
    all = all.filter(table => !isCashTable(table));  // cash tables have a section of their own
    const me = api.currentUser();
    const gameOf = table => (table.format && table.format.game) || this.house;
    const present = this.games.filter(g => all.some(table => gameOf(table) === g.game));
    const tables = this.tableFilter ? all.filter(table => gameOf(table) === this.tableFilter) : all;
    const filter = present.length > 1 || this.tableFilter ? h('select', {id: 'table-filter', 'aria-label': t('tables.filter'),
      onchange: () => { this.tableFilter = filter.value; localStorage.setItem('fz-table-filter', filter.value); this.renderTables(this.tables); }},
      h('option', {value: ''}, t('tables.allGames')),
      ...present.map(g => h('option', {value: g.game}, g.name))) : null;
    if (filter) filter.value = this.tableFilter;
    const list = tables.length ? h('ul.table-list', ...tables.map(table => {
      const names = table.slots.map(s => s.user ? shownName(s.user.name) : s.bot ? t('level.' + s.bot) : null);
      const free = names.filter(n => n == null).length;
      const seated = names.filter(n => n != null);
      const mine = me && table.slots.some(s => s.user && s.user.id === me.id);
      const label = table.status === 'waiting' && free && !mine ? t('tables.sit') : mine ? t('tables.open') : t('tables.watch');
      return h('li', {dataset: {table: table.id}},
        h('div',
          h('div.who-sits', seated.join(' · ')),
          table.format ? h('div.game-line', gameLine(table.format)) : null,
          h('div.meta',
            h('span.pill' + (table.status === 'playing' ? '.playing' : ''), t('tables.status.' + table.status)),
            table.ranked ? h('span.pill.ranked', t('tables.ranked')) : null,
            free ? h('span.free', t('tables.freeSeats', {n: free})) : null)),
        h('a.btn.small' + (label === t('tables.sit') ? '.primary' : ''), {href: '#/table/' + encodeURIComponent(table.id)}, label));
    })) : h('p.empty', t('tables.empty'));
    fill(this.tablesEl, 
      h('div.section-head', h('h2', {id: 'tables-title'}, t('tables.title')), filter,
        h('button.btn.small.ghost', {type: 'button', onclick: () => this.feed.refresh()}, '↻ ', t('tables.refresh'))),
      list);
  }

  /** The "Create a table" form, made once: a redraw (the catalogue arriving, a user or size
   *  changing) redraws only the parts whose content changed and sets the boxes in place, so the
   *  form a player fills in keeps its controls, their values and the focus (the lobby feed never
   *  touches it). */
  renderCreate() {
    if (!this.createParts) this.buildCreate();
    const parts = this.createParts;
    const user = api.currentUser();
    const size = Number(this.createSize || 2);
    const sizes = freezeoutSizes(this.chosen());
    this.createSlots = (this.createSlots || []).slice(0, size - 1);
    const who = user ? [user.id ?? user.name, user.kind, displayOf(user)] : null;
    refill(parts.picker, JSON.stringify([this.games.map(g => g.game), this.game || this.house]),
      () => (this.games.length ? this.gamePicker('create-game-pick') : null));
    refill(parts.line, JSON.stringify(this.format),
      () => (this.format ? h('p.game-line', {id: 'create-game'}, h('span.muted', t('game.label') + ': '), gameLine(this.format)) : null));
    refill(parts.seg, JSON.stringify(sizes), () => sizes.flatMap(n => [
      h('input', {type: 'radio', name: 'csize', id: 'csize-' + n, checked: Number(this.createSize || 2) === n,
        onchange: () => { this.createSize = n; this.renderCreate(); }}),
      h('label', {for: 'csize-' + n}, String(n))]));
    for (const radio of parts.seg.querySelectorAll('input')) radio.checked = radio.id === 'csize-' + size;
    refill(parts.slots, JSON.stringify([size, this.levels, who]), () => this.slotRows(user, size));
    const canRank = size === 2 && !!user && user.kind === 'user';
    // issue #37: ranked games are always public, so one box turns the other off
    parts.ranked.disabled = !canRank || !!this.createPrivate;
    parts.ranked.checked = canRank && !!this.createRanked && !this.createPrivate;
    parts.secret.checked = !!this.createPrivate;
    refill(parts.hint, JSON.stringify([canRank, who]), () => (!canRank ? h('p.muted', {style: {fontSize: '.8rem', margin: '0 0 .5rem'}}, t('create.rankedHint'),
      !user || user.kind !== 'user' ? [' ', h('a', {href: '#', onclick: e => { e.preventDefault(); openAuth('register'); }}, t('nav.register'))] : null) : null));
  }

  /** The form's frame and its lasting controls; the parts that change are holders (no box of their own). */
  buildCreate() {
    const holder = () => h('div', {style: {display: 'contents'}});
    const ranked = h('input', {type: 'checkbox', id: 'cranked', onchange: () => { this.createRanked = ranked.checked; }});
    const secret = h('input', {type: 'checkbox', id: 'cprivate', onchange: () => { this.createPrivate = secret.checked; this.renderCreate(); }});
    const parts = {picker: holder(), line: holder(), slots: holder(), hint: holder(), ranked, secret,
      seg: h('div.seg', {role: 'radiogroup', 'aria-label': t('create.size')})};
    this.createParts = parts;
    const submit = h('button.btn.primary', {type: 'submit'}, t('create.submit'));
    const form = h('form', {onsubmit: async e => {
      e.preventDefault();
      submit.disabled = true;
      try {
        if (!api.currentUser()) await api.ensureGuest();
        const size = Number(this.createSize || 2);
        const slots = [null];
        for (let i = 1; i < size; i++) slots.push(this.createSlots[i - 1] || null);
        const data = await api.post('/api/tables', {slots, ranked: !!(!ranked.disabled && ranked.checked && !secret.checked), sit: true,
          ...(this.game ? {game: this.game} : {}), ...(secret.checked ? {private: true} : {})});
        location.hash = '#/table/' + encodeURIComponent(data.table.id);
      } catch (err) {
        toast(t('err.generic', {message: err.message}));
        submit.disabled = false;
      }
    }},
    h('div.field', h('span', {style: {fontWeight: 600}}, t('create.size')), parts.seg),
    parts.slots,
    h('label.check', ranked, t('create.ranked')),
    h('label.check', secret, t('create.private')),
    parts.hint,
    submit);
    fill(this.createEl, h('h2', {id: 'create-title'}, t('create.title')), parts.picker, parts.line, form);
  }

  /** The create form's seats: yours, then a human or a bot for each other one. */
  slotRows(user, size) {
    const rows = [];
    if (size > 4) {  // a full table (issue #34): one choice fills every other seat, then each may differ
      const all = h('select', {id: 'cslot-all', onchange: () => {
        this.createSlots = Array(size - 1).fill(all.value === '' ? null : all.value);
        this.createParts.slots.dataset.key = '';  // every seat's choice changed: draw them anew
        this.renderCreate(); }},
        h('option', {value: '', disabled: true}, t('create.fillPick')),
        h('option', {value: ''}, t('create.human')),
        ...this.levels.map(level => h('option', {value: level}, t('create.bot', {level: t('level.' + level)}))));
      all.selectedIndex = 0;
      rows.push(h('div.slot-row.fill-all', h('label', {for: 'cslot-all'}, t('create.fillAll')), all));
    }
    for (let i = 1; i < size; i++) {
      const sel = h('select', {id: 'cslot-' + i, onchange: () => { this.createSlots[i - 1] = sel.value; }},
        h('option', {value: ''}, t('create.human')),
        ...this.levels.map(level => h('option', {value: level}, t('create.bot', {level: t('level.' + level)}))));
      sel.value = this.createSlots[i - 1] || '';
      rows.push(h('div.slot-row', h('label', {for: 'cslot-' + i}, t('create.slot', {n: i + 1})), sel));
    }
    return h('div.create-slots', h('div.slot-row', h('span', t('create.slot', {n: 1})), h('span.muted', user ? displayOf(user) : t('nav.guest'))), ...rows);
  }

  /** Established ratings ranked by place; provisional ones after them, unnumbered and marked
   * "?" (docs/protocol.md "Ratings"): a newcomer's number is not a place on the board. */
  renderLeader(players, needed = null) {
    const me = api.currentUser();
    let body;
    if (players == null) body = h('p.muted', t('app.loading'));
    else if (!players.length) body = h('p.empty', t('leader.empty'));
    else {
      const shown = players.slice(0, 50);
      const row = p => h('tr' + (me && me.name === p.name ? '.me' : '') + (p.provisional ? '.provisional' : ''), {dataset: {name: p.name}},
        h('td.num.place', p.place != null ? num(p.place) : ''),
        h('td', h('a', {href: '#/profile/' + encodeURIComponent(p.name)}, displayOf(p)),
          p.kind === 'bot' ? h('span.muted', {title: botOf(p.name) ? t('level.' + botOf(p.name).level) : ''}, ' · ' + t('leader.bot')) : null),
        h('td.num', rating(p.rating, p.provisional, {games: p.games, needed})),
        h('td.num', num(p.games)));
      const unsure = shown.filter(p => p.provisional);
      body = h('table.grid', h('caption', t('leader.caption')),
        h('thead', h('tr', h('th.num', t('leader.rank')), h('th', t('leader.name')), h('th.num', t('leader.rating')), h('th.num', t('leader.games')))),
        h('tbody', ...shown.filter(p => !p.provisional).map(row)),
        unsure.length ? h('tbody.provisional', h('tr', h('th.sub', {colspan: 4, scope: 'rowgroup'}, t('leader.provisional'))), ...unsure.map(row)) : null);
    }
    const picker = familyPicker(this.leaderFamilies, this.leaderFamily, f => this.pickFamily(f),
      {id: 'leader-family', label: t('leader.family')});
    fill(this.leaderEl, h('div.section-head', h('h2', {id: 'leader-title'}, t('leader.title')), picker),
      h('div', {dataset: {family: this.leaderFamily}, 'aria-live': 'polite'}, body));
  }
}

/** Draw ``make()`` into ``holder`` unless ``key`` (what it shows) is what it shows already:
 *  a redraw that changes nothing keeps the controls, what was picked in them and the focus. */
function refill(holder, key, make) {
  if (holder.dataset.key === key) return;
  holder.dataset.key = key;
  fill(holder, make());
}

/** A fan of three cards drawn in SVG for the quick-play panel. */
function cardsArt() {
  const wrap = h('div.quick-art', {'aria-hidden': 'true'});
  wrap.innerHTML = `<svg viewBox="0 0 160 130"><g transform="translate(40 20) rotate(-16 40 60)"><rect width="60" height="84" rx="7" fill="#fbfaf5"/><text x="8" y="26" font-size="22" font-weight="800" fill="#1b1b1f" font-family="system-ui,sans-serif">A</text><text x="30" y="70" font-size="34" fill="#1b1b1f">♠</text></g><g transform="translate(62 14)"><rect width="60" height="84" rx="7" fill="#fbfaf5"/><text x="8" y="26" font-size="22" font-weight="800" fill="#d3223a" font-family="system-ui,sans-serif">K</text><text x="30" y="70" font-size="34" fill="#d3223a">♥</text></g><g transform="translate(84 22) rotate(16 30 40)"><rect width="60" height="84" rx="7" fill="#a3283a" stroke="#fbfaf5" stroke-width="4"/></g></svg>`;
  return wrap;
}
