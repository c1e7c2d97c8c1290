// Entry point: header, language switch, session, hash router.
import {h, fill} from './dom.js';
import {t, getLang, setLang, onLangChange, translateDom} from './i18n.js';
import * as api from './api.js';
import {openAuth} from './auth.js';
import {toast} from './ui.js';
import {rating} from './rating.js';
import {displayOf} from './names.js';
import {confirmLeave} from './seatwatch.js';
import {balanceBadge, refreshBalance} from './balance.js';

const main = document.getElementById('main');
let page = null;
let routeKey = null;

const ROUTES = [
  [/^#?\/?$/, async () => new (await import('./lobby.js')).LobbyPage(main), 'lobby'],
  // a private table's invite link: #/table/<id>?invite=<secret> (docs/protocol.md "Private tables")
  [/^#\/table\/([^/?]+)(?:\?invite=([A-Za-z0-9_-]{1,128}))?$/, async m => new (await import('./table.js')).TablePage(main,
    decodeURIComponent(m[1]), {invite: m[2] || null}), ''],
  [/^#\/odds(?:\?.*)?$/, async () => new (await import('./odds.js')).OddsPage(main), 'odds'],
  [/^#\/rules$/, async () => new (await import('./rules.js')).RulesPage(main), 'rules'],
  [/^#\/profile(?:\/([^/]+))?$/, async m => new (await import('./profile.js')).ProfilePage(main, m[1] ? decodeURIComponent(m[1]) : null), 'profile'],
  [/^#\/demo(?:\/(\w+))?$/, async m => new (await import('./demo.js')).DemoPage(main, m[1] || 'mid'), ''],
];

// One route at a time: a page draws itself into `main` as it is made, so a page made while
// another was still loading could draw over the newer one (and be destroyed, leaving its
// drawing behind with nothing updating it).
let routing = Promise.resolve();
let seq = 0;
function route(force = false) {
  routing = routing.then(() => routeNow(force), () => routeNow(force));
  return routing;
}

async function routeNow(force) {
  const hash = location.hash || '#/';
  if (!force && hash === routeKey) return;
  if (hash !== routeKey && page && String(routeKey).startsWith('#/table/') && !(await confirmLeave(page))) {
    // staying at the table where you still play (issue #21-2): its address back, nothing else
    history.replaceState(null, '', routeKey);
    return;
  }
  routeKey = hash;
  for (const [re, make, nav] of ROUTES) {
    const m = re.exec(hash);
    if (!m) continue;
    const mine = ++seq;
    if (page && page.destroy) page.destroy();
    page = null;
    for (const a of document.querySelectorAll('[data-nav]')) {
      if (a.dataset.nav === nav) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
    }
    let made = null;
    try {
      made = await make(m);
    } catch (e) {
      console.error(e);
      fill(main, h('p', t('err.generic', {message: e.message})));
    }
    if (mine !== seq) { if (made && made.destroy) made.destroy(); return; }
    page = made;
    if (nav === 'lobby') refreshBalance();  // the play chips may have moved at a table meanwhile (C9)
    document.title = 'Freezeout' + (nav ? ' — ' + t('nav.' + nav) : '');
    return;
  }
  location.hash = '#/';
}

function renderWho(user) {
  const who = document.getElementById('who');
  if (user && user.kind !== 'guest') {
    fill(who, 
      h('span.me', h('a.name', {href: '#/profile'}, displayOf(user)), balanceBadge()),
      user.rating != null ? h('span.elo.num', {title: 'Elo'}, rating(user.rating, user.provisional)) : null,
      h('button.btn.small.ghost', {type: 'button', onclick: () => api.logout().catch(e => toast(e.message))}, t('nav.logout')));
  } else {
    fill(who, 
      user ? h('span.me.guest', h('a.muted.guest-name', {href: '#/profile'}, displayOf(user)), balanceBadge()) : null,
      h('button.btn.small', {type: 'button', onclick: () => openAuth('login')}, t('nav.login')),
      h('button.btn.small.ghost.reg', {type: 'button', onclick: () => openAuth('register')}, t('nav.register')));
  }
}

function renderLang() {
  const btn = document.getElementById('lang');
  fill(btn, h('span.long', t('lang.switch')), h('span.short', getLang() === 'cs' ? 'EN' : 'CZ'));
  btn.setAttribute('aria-label', t('lang.switchLabel'));
  btn.setAttribute('lang', getLang() === 'cs' ? 'en' : 'cs');
}

document.getElementById('lang').addEventListener('click', () => setLang(getLang() === 'cs' ? 'en' : 'cs'));
onLangChange(() => {
  translateDom();
  renderLang();
  renderWho(api.currentUser());
  route(true);
});
api.onUser(user => {
  renderWho(user);
  // the lobby and profile depend on who is logged in; a live table reconnects itself
  if (!String(location.hash).startsWith('#/table/')) route(true);
});

document.documentElement.lang = getLang();
translateDom();
renderLang();
renderWho(null);
window.addEventListener('hashchange', () => route());
api.loadSession().catch(() => toast(t('err.network'))).finally(() => route());
