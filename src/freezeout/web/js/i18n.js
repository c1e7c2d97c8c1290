// Message catalogs and formatting. Czech and English; defaults to the
// browser's language, remembered in localStorage once switched.
import en from '../i18n/en.js';
import cs from '../i18n/cs.js';

export const CATALOGS = {en, cs};
export const LANGS = Object.keys(CATALOGS);
const listeners = new Set();
let lang = initialLang();
let numberFormat = new Intl.NumberFormat(lang);

function initialLang() {
  try {
    const stored = localStorage.getItem('fz-lang');
    if (stored && CATALOGS[stored]) return stored;
  } catch { /* storage may be blocked */ }
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = String(l).toLowerCase().split('-')[0];
    if (CATALOGS[base]) return base;
    if (base === 'sk') return 'cs';
  }
  return 'en';
}

export function getLang() { return lang; }

export function setLang(next) {
  if (!CATALOGS[next] || next === lang) return;
  lang = next;
  numberFormat = new Intl.NumberFormat(lang);
  try { localStorage.setItem('fz-lang', next); } catch { /* ignore */ }
  document.documentElement.lang = lang;
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) { listeners.add(fn); return () => listeners.delete(fn); }

/** The raw catalog entry (arrays, plural objects). */
export function raw(key) {
  const v = CATALOGS[lang][key];
  return v === undefined ? CATALOGS.en[key] : v;
}

/** Translate key, filling {name} placeholders; numbers are formatted. */
export function t(key, params = {}) {
  let message = raw(key);
  if (message === undefined) return key;
  if (typeof message === 'object' && !Array.isArray(message)) {
    const n = params.n ?? 0;
    const cat = new Intl.PluralRules(lang).select(n);
    message = message[cat] ?? message.other;
  }
  return fillIn(String(message), params);
}

/** Ordinal place: "2nd" / "2.". */
export function ordinal(n) {
  const forms = raw('place.ordinal');
  const cat = new Intl.PluralRules(lang, {type: 'ordinal'}).select(n);
  return fillIn(forms[cat] ?? forms.other, {n: String(n)});
}

function fillIn(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, name) => {
    const v = params[name];
    if (v === undefined) return m;
    return typeof v === 'number' ? numberFormat.format(v) : String(v);
  });
}

export function num(n) { return numberFormat.format(n); }

/** Apply translations to static markup: data-i18n (text), data-i18n-label (aria-label), data-i18n-title. */
export function translateDom(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
}
