// One WebSocket per table (docs/protocol.md "WebSocket /ws"): join, catch
// up with `since` after a drop, reconnect with backoff, ping to keep alive.
// Every intent carries a random `key` and is sent again, with the same key,
// until the server answers it (`applied` or an `error`): after a reconnect, and
// after RESEND_MS of silence (a table changing server).  The server applies a
// key at most once (docs/protocol.md "Resending"), so a move is never lost.

import {inviteFor} from './api.js';

// a cash table's intents too (docs/protocol.md "Cash tables"): a resent buy-in is applied once
const INTENTS = new Set(['act', 'dont_wait', 'resign', 'rematch', 'buy_in', 'top_up', 'stand', 'sit_out', 'sit_in', 'straddle',
  'run_twice', 'auto_top_up']);
const RESEND_MS = 4000;
const GIVE_UP_MS = 60000;

export class TableConnection {
  constructor(tableId, {onMessage, onStatus}) {
    this.tableId = tableId;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.version = null;
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.nextId = 1;
    this.pending = new Map(); // id -> {text, at, first}: intents not answered yet
    this.pingTimer = null;
    this.lastMessageAt = 0;
    this._onVisible = () => { if (!document.hidden) this.checkAlive(); };
    document.addEventListener('visibilitychange', this._onVisible);
    window.addEventListener('online', this._onVisible);
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const ws = openSocket();
    this.ws = ws;
    this.onStatus(this.attempt ? 'reconnecting' : 'connecting');
    ws.onopen = () => {
      const join = {type: 'join', table: this.tableId};
      if (this.version != null) join.since = this.version;
      const invite = inviteFor(this.tableId);  // a private table's link (docs/protocol.md "Private tables")
      if (invite) join.invite = invite;
      ws.send(JSON.stringify(join));
      this.resend(0);
      this.pingTimer = setInterval(() => this.send({type: 'ping'}), 20000);
      this.resendTimer = setInterval(() => this.resend(RESEND_MS), 1000);
    };
    ws.onmessage = event => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      this.lastMessageAt = performance.now();
      if (msg.type === 'applied' || (msg.type === 'error' && msg.ref != null)) this.pending.delete(msg.ref);
      if (msg.type === 'snapshot' || msg.type === 'update') {
        this.attempt = 0;
        this.onStatus('open');
        if (typeof msg.version === 'number') this.version = msg.version;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      clearInterval(this.resendTimer);
      if (this.ws !== ws || this.closed) return;
      this.ws = null;
      this.attempt++;
      this.onStatus('reconnecting');
      this.retry = setTimeout(() => this.connect(), backoff(this.attempt));
    };
    ws.onerror = () => { try { ws.close(); } catch { /* ignore */ } };
  }

  /** After sleeping/backgrounding, a silent dead socket is replaced at once. */
  checkAlive() {
    if (this.closed) return;
    if (!this.ws || this.ws.readyState > 1) {
      clearTimeout(this.retry);
      this.connect();
    } else if (this.ws.readyState === 1) {
      this.send({type: 'ping'});
    }
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== 1) return null;
    const id = this.nextId++;
    const keyed = INTENTS.has(message.type) ? {...message, id, key: newKey()} : {...message, id};
    const text = JSON.stringify(keyed);
    if (keyed.key) this.pending.set(id, {text, at: performance.now(), first: performance.now()});
    this.ws.send(text);
    return id;
  }

  /** Send again the intents unanswered for `after` ms (the same text: the same key). */
  resend(after) {
    if (!this.ws || this.ws.readyState !== 1) return;
    const now = performance.now();
    for (const [id, p] of this.pending) {
      if (now - p.first > GIVE_UP_MS) { this.pending.delete(id); continue; }
      if (now - p.at < after) continue;
      p.at = now;
      this.ws.send(p.text);
    }
  }

  close() {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.pingTimer);
    clearInterval(this.resendTimer);
    document.removeEventListener('visibilitychange', this._onVisible);
    window.removeEventListener('online', this._onVisible);
    if (this.ws) { const ws = this.ws; this.ws = null; closeSocket(ws); }
  }
}

/** An intent's idempotency key: 16 random URL-safe characters. */
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_');
}

/** Close a socket; one still connecting is closed as soon as it opens (closing it before
 * that makes the browser warn "WebSocket is closed before the connection is established",
 * issue #31 item 11), and says nothing to anyone meanwhile. */
export function closeSocket(ws) {
  if (ws.readyState === WebSocket.CONNECTING) {
    ws.onmessage = null;
    ws.onerror = null;
    ws.onopen = () => ws.close();
  } else {
    ws.close();
  }
}

/** A WebSocket to this page's own server. */
export function openSocket() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return new WebSocket(`${proto}//${location.host}/ws`);
}

/** Milliseconds before reconnection attempt `attempt` (1, 2, …): doubling from a
 * quarter second up to 5 s, jittered so that a server restart is not met by
 * every client at once. */
export function backoff(attempt) {
  return Math.min(5000, 250 * 2 ** Math.min(attempt - 1, 5)) * (0.75 + Math.random() / 2);
}
