// The public events of every hand of a game, kept as they arrive so the
// hand history, the replayer and the stack chart work — also after a reload
// (stored in localStorage per game id).
const KEY = 'fz-game-';
const KEEP = 8;

/**
 * Store `value` (stamped with `at`) under `prefix + id` and forget the oldest
 * entries of that prefix beyond `keep`, so a page's per-game memory stays
 * bounded. Quota or blocked storage: the caller keeps it in memory.
 */
export function saveKept(prefix, id, value, keep) {
  try {
    localStorage.setItem(prefix + id, JSON.stringify({...value, at: Date.now()}));
    const keys = [];
    for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); if (k.startsWith(prefix)) keys.push(k); }
    if (keys.length > keep) {
      const aged = keys.map(k => { try { return [k, JSON.parse(localStorage.getItem(k)).at || 0]; } catch { return [k, 0]; } })
        .sort((a, b) => a[1] - b[1]);
      for (const [k] of aged.slice(0, keys.length - keep)) localStorage.removeItem(k);
    }
  } catch { /* quota or blocked storage: keep it in memory */ }
}

export class GameLog {
  constructor(gameId, players) {
    this.gameId = gameId;
    this.players = players || [];
    this.hands = [];   // [{number, events: [...], revealed: {deck, salt, commitment}|null, commitment}]
    this.load();
  }

  load() {
    if (this.gameId == null) return;
    try {
      const data = JSON.parse(localStorage.getItem(KEY + this.gameId) || 'null');
      if (data && Array.isArray(data.hands)) {
        this.hands = data.hands;
        if (!this.players.length) this.players = data.players || [];
      }
    } catch { /* ignore */ }
  }

  save() {
    if (this.gameId == null) return;
    saveKept(KEY, this.gameId, {players: this.players, hands: this.hands}, KEEP);
  }

  hand(number) { return this.hands.find(h => h.number === number); }

  /** Add events as they arrive (an update). */
  add(events) {
    let cur = this.hands[this.hands.length - 1];
    let changed = false;
    for (const e of events) {
      if (e.type === 'hand_started') {
        cur = this.hand(e.number);
        if (!cur) { cur = {number: e.number, events: [], revealed: null}; this.hands.push(cur); this.hands.sort((a, b) => a.number - b.number); }
        cur.events = [];
      }
      if (!cur || !isHandEvent(e)) continue;
      cur.events.push(e);
      changed = true;
    }
    if (changed) this.save();
  }

  /** Replace the current hand's events with a snapshot's list. */
  setCurrent(events) {
    const start = events.find(e => e.type === 'hand_started');
    if (!start) return;
    let cur = this.hand(start.number);
    if (!cur) { cur = {number: start.number, events: [], revealed: null}; this.hands.push(cur); this.hands.sort((a, b) => a.number - b.number); }
    cur.events = events.filter(isHandEvent);
    this.save();
  }

  addFairness(fairness) {
    if (!fairness) return;
    let changed = false;
    for (const r of fairness.revealed || []) {
      const hand = this.hand(r.hand);
      if (hand && !hand.revealed) { hand.revealed = r; changed = true; }
    }
    const next = fairness.next;
    if (next && next.hand != null) {
      const hand = this.hand(next.hand);
      if (hand && !hand.commitment) { hand.commitment = next.commitment; changed = true; }
      this.nextCommitment = next;
    }
    if (changed) this.save();
  }

  finished() { return this.hands.filter(h => h.events.some(e => e.type === 'hand_ended')); }

  /** Whether every hand up to `last` is here, finished (else the chart would draw a straight line over the gap). */
  complete(last) {
    const have = new Set(this.finished().map(h => h.number));
    for (let n = 1; n <= last; n++) if (!have.has(n)) return false;
    return true;
  }

  /** Hands this browser did not see, from the server (GET /api/games/{id}/events). */
  merge(hands) {
    for (const hand of hands || []) {
      const mine = this.hand(hand.number);
      if (mine && mine.events.some(e => e.type === 'hand_ended')) continue;
      const entry = {number: hand.number, events: (hand.events || []).filter(isHandEvent), revealed: hand.revealed || null,
        commitment: hand.commitment || null};
      if (mine) Object.assign(mine, entry); else this.hands.push(entry);
    }
    this.hands.sort((a, b) => a.number - b.number);
    this.save();
  }

  /** Stack of every seat at the start (`start`: the game's starting stack, its table's
   * `table_game.starting_stack`) and after each finished hand. */
  stackSeries(nSeats, start) {
    const points = [{hand: 0, stacks: Array(nSeats).fill(start)}];
    for (const hand of this.finished()) {
      const ended = hand.events.find(e => e.type === 'hand_ended');
      const resigned = new Set(hand.events.filter(e => e.type === 'resigned').map(e => e.seat));
      const stacks = ended.stacks.slice(0, nSeats);
      for (const seat of resigned) stacks[seat] = 0;
      points.push({hand: hand.number, stacks});
    }
    return points;
  }
}

const HAND_EVENTS = new Set(['hand_started', 'blind_posted', 'action_taken', 'bet_returned', 'street_dealt',
  'cards_shown', 'pot_awarded', 'hand_ended', 'forfeited', 'resigned', 'eliminated', 'tournament_ended', 'dont_wait', 'inactivity']);
function isHandEvent(e) { return HAND_EVENTS.has(e.type); }

/** Game ids this browser has played, newest first (for the profile page). */
export function rememberGame(entry) {
  try {
    const list = JSON.parse(localStorage.getItem('fz-games') || '[]').filter(g => g.id !== entry.id);
    list.unshift(entry);
    localStorage.setItem('fz-games', JSON.stringify(list.slice(0, 50)));
  } catch { /* ignore */ }
}
export function rememberedGames() {
  try { return JSON.parse(localStorage.getItem('fz-games') || '[]'); } catch { return []; }
}
