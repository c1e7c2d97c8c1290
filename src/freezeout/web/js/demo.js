// Offline demo of the table (#/demo, #/demo/showdown, #/demo/end,
// #/demo/waiting): the real TablePage fed with view-shaped fixtures instead
// of a WebSocket. For development, screenshots and a first look without a server.
import {TablePage} from './table.js';

const NOW = () => Date.now() / 1000;
const players = ['ana', 'bot-medium', 'bo'];
// the demo table's game, as a table summary names it (docs/protocol.md "Table"): its seats start with its starting_stack
const tableGame = {code: 'NT', name: "No-Limit Texas Hold'em", format: 'freezeout', max_seats: 4, betting: 'no-limit', starting_stack: 1000};
const seat = (i, extra) => ({seat: i, player: players[i], stack: tableGame.starting_stack, bet: 0, in_tournament: true, in_hand: true,
  folded: false, all_in: false, place: null, forfeits: 0, cards: null, ...extra});
const table = status => ({id: 'demo42', status, ranked: false, size: 3, version: 40, game: 1,
  slots: players.map((p, i) => ({slot: i, user: p.startsWith('bot') ? null : {id: i + 1, name: p, kind: 'user', rating: 1500}, bot: p.startsWith('bot') ? 'medium' : null})),
  players, game_id: 7, created_at: NOW(), table_game: tableGame});
const fairness = {next: {hand: 8, commitment: '9f2c6a0e4b1d8c7f3a5e2b9d6c1f0a8e7d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a'}, revealed: []};

function mid() {
  const now = NOW();
  return {
    type: 'snapshot', version: 40, you: {user: {id: 1, name: 'ana', kind: 'user', rating: 1500}, seat: 0, slot: 0},
    table: table('playing'), presence: [true, true, false], fairness,
    clock: {now, to_act: 0, turn_started: now - 9, turn_deadline: now + 21, expired: false, inactivity_deadline: now + 36000, next_hand_at: null},
    events: [{type: 'hand_started', number: 7, button: 2, small_blind: 20, big_blind: 40, seats: [0, 1, 2], stacks: [1180, 760, 1060]},
      {type: 'blind_posted', seat: 0, kind: 'small blind', amount: 20, all_in: false},
      {type: 'blind_posted', seat: 1, kind: 'big blind', amount: 40, all_in: false}],
    view: {viewer: 0, hand_number: 7, button: 2, blinds: [20, 40], hands_to_next_level: 5,
      seats: [seat(0, {stack: 1060, bet: 0, cards: 'AhQh'}), seat(1, {stack: 560, bet: 120}), seat(2, {stack: 980, in_hand: false, folded: true})],
      board: 'Qs9h4h', pots: [{amount: 280, eligible: [0, 1]}], to_act: 0,
      legal: {moves: ['fold', 'call', 'raise', 'allin'], call: 120, to_match: 120, min_to: 240, max_to: 1060, all_in_to: 1060},
      hand_over: false, showdown: false, finished: false, winner: null},
  };
}

function showdown() {
  const now = NOW();
  const s = mid();
  s.clock = {...s.clock, to_act: -1, turn_deadline: null, next_hand_at: now + 3.5};
  s.events = s.events.concat([
    {type: 'street_dealt', street: 'flop', cards: 'Qs9h4h'}, {type: 'street_dealt', street: 'turn', cards: 'Kh'},
    {type: 'street_dealt', street: 'river', cards: '9c'},
    {type: 'cards_shown', seat: 0, cards: 'AhQh', rank: 7120},
    {type: 'cards_shown', seat: 1, cards: "9d9s", rank: 7391},
    {type: 'pot_awarded', pot: 0, amount: 1500, eligible: [0, 1], shares: [[1, 1500]], rank: 7391},
    {type: 'hand_ended', stacks: [320, 1680, 980], showdown: true}]);
  s.view = {...s.view, board: 'Qs9h4hKh9c', pots: [], to_act: -1, legal: null, hand_over: true, showdown: true,
    seats: [seat(0, {stack: 320, cards: 'AhQh', in_hand: true}), seat(1, {stack: 1680, cards: '9d9s'}), seat(2, {stack: 980, in_hand: false, folded: true})]};
  return s;
}

function end() {
  const now = NOW();
  const s = showdown();
  s.table = table('finished');
  s.clock = {...s.clock, next_hand_at: null, now};
  s.view = {...s.view, hand_number: 23, finished: true, winner: 1,
    seats: [seat(0, {stack: 0, in_tournament: false, place: 2}), seat(1, {stack: 3000, place: 1}), seat(2, {stack: 0, in_tournament: false, place: 3})]};
  s.events.push({type: 'game_over', game_id: 7, places: {'bot-medium': 1, ana: 2, bo: 3}, ratings: null});
  return s;
}

function waiting() {
  const s = mid();
  const tb = table('waiting');
  tb.slots[2] = {slot: 2, user: null, bot: null};
  return {...s, table: tb, view: null, you: {...s.you, seat: null}};
}

const FIXTURES = {mid, showdown, end, waiting};

/** A fake connection: answers act with a plausible next state. */
function fakeConnect(name) {
  return (id, {onMessage, onStatus}) => {
    let state = FIXTURES[name] ? FIXTURES[name]() : mid();
    setTimeout(() => { onStatus('open'); onMessage(state); }, 0);
    return {
      send(msg) {
        if (msg.type === 'act') {
          const view = {...state.view, legal: null, to_act: 1, seats: state.view.seats.map(x => x.seat === 0 ? {...x, bet: msg.amount || state.view.legal.to_match} : x)};
          const now = NOW();
          state = {...state, type: 'update', version: state.version + 1, view,
            events: [{type: 'action_taken', seat: 0, kind: msg.move, total: msg.amount || 120, added: 0, all_in: msg.move === 'allin'}],
            clock: {...state.clock, now, to_act: 1, turn_started: now, turn_deadline: now + 30}};
          setTimeout(() => onMessage(state), 30);
        }
        return 1;
      },
      close() {},
    };
  };
}

export class DemoPage {
  constructor(main, name) {
    this.page = new TablePage(main, 'demo', {connect: fakeConnect(name)});
  }
  destroy() { this.page.destroy(); }
}
