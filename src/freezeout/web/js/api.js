// HTTP API client (docs/protocol.md "HTTP API"), with the CSRF header.
let csrf = null;
let user = null;
const listeners = new Set();

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code);
    this.status = status;
    this.code = code;
  }
}

function cookie(name) {
  const m = document.cookie.match(new RegExp('(?:^|; )' + name + '=([^;]*)'));
  return m ? decodeURIComponent(m[1]) : null;
}

// A private table's invite secret (docs/protocol.md "Private tables"): the table page open by
// an invite link sets it, and every request about that table or its games shows it (X-Invite).
let invite = null;
export function setInvite(tableId, secret) { invite = tableId && secret ? {table: tableId, secret} : null; }
export function inviteFor(tableId) { return invite && invite.table === tableId ? invite.secret : null; }
function invitedPath(path) {
  return invite && (path.startsWith(`/api/tables/${encodeURIComponent(invite.table)}/`) ||
    path === `/api/tables/${encodeURIComponent(invite.table)}` || path.startsWith('/api/games/'));
}
/** A download's address with the invite secret (a link cannot send a header). */
export function withInvite(href) {
  return invitedPath(href) ? href + (href.includes('?') ? '&' : '?') + 'invite=' + encodeURIComponent(invite.secret) : href;
}

export async function request(method, path, body) {
  const headers = {'Accept': 'application/json'};
  if (invitedPath(path)) headers['X-Invite'] = invite.secret;
  if (method !== 'GET') {
    headers['Content-Type'] = 'application/json';
    const token = csrf || cookie('fz_csrf');
    if (token) headers['X-CSRF-Token'] = token;
  }
  let response;
  try {
    response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin'});
  } catch (e) {
    throw new ApiError(0, 'network', String(e));
  }
  let data = null;
  const text = await response.text();
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const err = (data && data.error) || {};
    const detail = data && data.detail;
    throw new ApiError(response.status, err.code || (response.status === 422 ? 'invalid' : 'http_' + response.status),
      err.message || (typeof detail === 'string' ? detail : Array.isArray(detail) ? detail.map(d => d.msg).join('; ') : response.statusText));
  }
  if (data && typeof data.csrf === 'string') csrf = data.csrf;
  if (data && 'user' in data && (path.startsWith('/api/session') || path.startsWith('/api/login') ||
      path.startsWith('/api/register') || path.startsWith('/api/guest') || path.startsWith('/api/logout') ||
      path.startsWith('/api/me/'))) {
    setUser(data.user);
  }
  return data;
}

export const get = path => request('GET', path);
export const post = (path, body = {}) => request('POST', path, body);

export function currentUser() { return user; }
export function onUser(fn) { listeners.add(fn); return () => listeners.delete(fn); }
function setUser(next) {
  user = next || null;
  for (const fn of listeners) fn(user);
}

export async function loadSession() {
  const data = await get('/api/session');
  if (data && data.csrf) csrf = data.csrf;
  setUser(data ? data.user : null);
  return user;
}

export async function login(name, password) { return post('/api/login', {name, password}); }
export async function register(name, password) { return post('/api/register', {name, password}); }
/** Choose the name shown for you everywhere (docs/protocol.md "Names"); the session's user follows. */
export async function setDisplay(display) { return post('/api/me/display', {display}); }
export async function logout() {
  await post('/api/logout');
  setUser(null);
  await loadSession().catch(() => {});
}
/** One click against 1–3 bots: heads-up uses /api/quickplay; bigger tables
 * become a guest first (when needed) and create an unranked table. */
export async function quickplay(bot, bots = 1, game = null) {
  const named = game ? {game} : {};  // no game: the house game
  if (bots <= 1) {
    const data = await post('/api/quickplay', {bot, ...named});
    if (!user) await loadSession().catch(() => {});
    return data.table;
  }
  await ensureGuest();
  const slots = [null, ...Array.from({length: bots}, () => bot)];
  const data = await post('/api/tables', {slots, ranked: false, sit: true, ...named});
  return data.table;
}
export async function ensureGuest() {
  if (user) return user;
  await post('/api/guest');
  return user;
}
