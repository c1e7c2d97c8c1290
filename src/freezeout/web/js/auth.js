// Log in / register dialog.
import {h} from './dom.js';
import {t} from './i18n.js';
import * as api from './api.js';
import {dialog, toast} from './ui.js';

export function openAuth(mode = 'login') {
  const name = h('input', {type: 'text', id: 'auth-name', name: 'username', autocomplete: 'username', required: true,
    minlength: 3, maxlength: 24, pattern: '[A-Za-z0-9_\\-]{3,24}', 'aria-describedby': 'auth-name-hint'});
  const password = h('input', {type: 'password', id: 'auth-password', name: 'password', required: true, minlength: 8, maxlength: 200,
    autocomplete: mode === 'login' ? 'current-password' : 'new-password', 'aria-describedby': 'auth-password-hint'});
  const error = h('p.error-text', {role: 'alert'});
  const submit = h('button.btn.primary', {type: 'submit'}, t(mode === 'login' ? 'nav.login' : 'nav.register'));
  const other = h('button.btn.ghost.small', {type: 'button', onclick: () => { d.close(); openAuth(mode === 'login' ? 'register' : 'login'); }},
    t(mode === 'login' ? 'auth.toRegister' : 'auth.toLogin'));
  const form = h('form', {novalidate: true, onsubmit: async e => {
    e.preventDefault();
    error.textContent = '';
    if (!name.checkValidity()) { error.textContent = t('auth.nameHint'); name.focus(); return; }
    if (!password.checkValidity()) { error.textContent = t('auth.passwordHint'); password.focus(); return; }
    submit.disabled = true;
    try {
      const data = await (mode === 'login' ? api.login : api.register)(name.value, password.value);
      d.close();
      toast(t('auth.welcome', {name: data.user.name}), 'info', 2500);
    } catch (err) {
      const key = err.status === 401 ? 'err.bad_credentials' : err.status === 409 ? 'err.name_taken' : 'err.' + err.code;
      const msg = t(key, {message: err.message});
      error.textContent = msg === key ? t('err.generic', {message: err.message}) : msg;
    } finally { submit.disabled = false; }
  }},
  h('div.field', h('label', {for: 'auth-name'}, t('auth.name')), name, h('span.hint', {id: 'auth-name-hint'}, t('auth.nameHint'))),
  h('div.field', h('label', {for: 'auth-password'}, t('auth.password')), password, h('span.hint', {id: 'auth-password-hint'}, t('auth.passwordHint'))),
  error, h('div.actions', other, submit));
  const d = dialog({title: t(mode === 'login' ? 'auth.login' : 'auth.register'), body: form});
  name.focus();
  return d;
}
