// The lobby over the WebSocket (docs/protocol.md "The lobby"): `{"type": "lobby"}` asks for
// the list, the server answers with a `lobby` message and then sends a `lobby_update` with
// what changed (tables that entered the list or changed, ids that left it).  Reconnects with
// backoff and asks again, which brings the whole list anew.
import {openSocket, backoff, closeSocket} from './conn.js';

const ORDER = {waiting: 0, playing: 1};

export class LobbyFeed {
  constructor(onTables) {
    this.onTables = onTables;
    this.tables = new Map();
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const ws = openSocket();
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({type: 'lobby'}));
    ws.onmessage = event => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type === 'lobby') {
        this.attempt = 0;
        this.tables = new Map(msg.tables.map(table => [table.id, table]));
      } else if (msg.type === 'lobby_update') {
        for (const table of msg.tables) this.tables.set(table.id, table);
        for (const id of msg.removed) this.tables.delete(id);
      } else return;
      this.onTables(this.list());
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;
      this.ws = null;
      this.attempt++;
      this.retry = setTimeout(() => this.connect(), backoff(this.attempt));
    };
    ws.onerror = () => { try { ws.close(); } catch { /* ignore */ } };
  }

  /** The tables as the server listed them: waiting ones, then playing ones, newest first. */
  list() {
    return [...this.tables.values()].sort((a, b) =>
      (ORDER[a.status] ?? 2) - (ORDER[b.status] ?? 2) || b.created_at - a.created_at || (a.id < b.id ? -1 : 1));
  }

  /** The whole list again (the Refresh button). */
  refresh() {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify({type: 'lobby'}));
    else if (!this.ws) { clearTimeout(this.retry); this.connect(); }
  }

  close() {
    this.closed = true;
    clearTimeout(this.retry);
    if (this.ws) { const ws = this.ws; this.ws = null; closeSocket(ws); }
  }
}
