// Toasts and dialogs (native <dialog>: focus trap, Escape and backdrop for free).
import {h} from './dom.js';
import {t} from './i18n.js';

export function toast(message, kind = 'error', ms = 4000) {
  const box = document.getElementById('toasts');
  if (!box) return;
  const el = h('div.toast' + (kind === 'info' ? '.info' : ''), {role: kind === 'error' ? 'alert' : 'status'}, message);
  box.append(el);
  setTimeout(() => el.remove(), ms);
}

/** Open a modal dialog; returns {el, close}. */
export function dialog({title, body, wide = false, actions = [], onClose, label}) {
  const titleId = 'dlg-' + Math.random().toString(36).slice(2);
  const el = h('dialog' + (wide ? '.wide' : ''), {'aria-labelledby': titleId, 'aria-label': label},
    h('button.close-x', {type: 'button', 'aria-label': t('auth.close'), onclick: () => close()}, '×'),
    h('h2', {id: titleId}, title), body,
    actions.length ? h('div.actions', ...actions) : null);
  const close = value => { if (el.open) el.close(value); };
  el.addEventListener('close', () => { el.remove(); if (onClose) onClose(el.returnValue); });
  el.addEventListener('click', e => { if (e.target === el) close(); });
  document.body.append(el);
  el.showModal();
  return {el, close};
}

export function confirmDialog({title, text, yes, no, danger = false}) {
  return new Promise(resolve => {
    let result = false;
    const yesBtn = h('button.btn' + (danger ? '.danger' : '.primary'), {type: 'button', onclick: () => { result = true; d.close('yes'); }}, yes);
    const noBtn = h('button.btn', {type: 'button', onclick: () => d.close('no')}, no);
    const d = dialog({title, body: h('p', text), actions: [noBtn, yesBtn], onClose: () => resolve(result)});
    noBtn.focus();
  });
}
