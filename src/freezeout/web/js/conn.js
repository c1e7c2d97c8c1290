// One WebSocket per table (docs/protocol.md "WebSocket /ws"): join, catch
// up with `since` after a drop, reconnect with backoff, ping to keep alive.
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
      ws.send(JSON.stringify(join));
      this.pingTimer = setInterval(() => this.send({type: 'ping'}), 20000);
    };
    ws.onmessage = event => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      this.lastMessageAt = performance.now();
      if (msg.type === 'snapshot' || msg.type === 'update') {
        this.attempt = 0;
        this.onStatus('open');
        if (typeof msg.version === 'number') this.version = msg.version;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
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
    this.ws.send(JSON.stringify({...message, id}));
    return id;
  }

  close() {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.pingTimer);
    document.removeEventListener('visibilitychange', this._onVisible);
    window.removeEventListener('online', this._onVisible);
    if (this.ws) { const ws = this.ws; this.ws = null; ws.close(); }
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
