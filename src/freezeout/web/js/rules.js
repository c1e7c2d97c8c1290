// The Rules page: R1–R30 in the current language (loaded on demand), the
// differences from standard Hold'em, fair dealing, the seed's tips, the keys.
import {h, fill} from './dom.js';
import {getLang, t} from './i18n.js';

export class RulesPage {
  constructor(main) {
    this.main = main;
    fill(main, h('p.loading', t('app.loading')));
    this.load();
  }

  async load() {
    const lang = getLang();
    const rules = (await import(lang === 'cs' ? '../i18n/rules.cs.js' : '../i18n/rules.en.js')).default;
    if (getLang() !== lang) return;
    const house = lang === 'cs' ? 'podnik' : 'house';
    const toc = h('nav', {'aria-label': t('rules.toc')}, h('ul', ...rules.sections.map(s => h('li', h('a.btn.small.ghost', {href: '#/rules', onclick: e => {
      e.preventDefault(); document.getElementById('rules-' + s.id).scrollIntoView({behavior: 'smooth'});
    }}, s.title))), h('li', h('a.btn.small.ghost', {href: '#/rules', onclick: e => { e.preventDefault(); document.getElementById('rules-tips').scrollIntoView({behavior: 'smooth'}); }}, rules.tipsTitle))));
    fill(this.main, h('article.rules.panel',
      h('h1', rules.title), h('p.muted', rules.lead), toc,
      ...rules.sections.map(s => h('section', {id: 'rules-' + s.id, 'aria-labelledby': 'rh-' + s.id},
        h('h2', {id: 'rh-' + s.id}, s.title),
        h('ul', {style: {listStyle: 'none', paddingLeft: 0}}, ...s.items.map(([id, text, isHouse]) =>
          h('li', {id: 'rule-' + id}, h('span.rid', id), ' ', text, isHouse ? h('span.house', house) : null))))),
      h('section', h('h2', rules.differencesTitle), h('ul', ...rules.differences.map(d => h('li', d)))),
      h('section', h('h2', rules.fairTitle), h('p', rules.fair)),
      h('section', {id: 'rules-tips'}, h('h2', rules.tipsTitle), h('ul.tips', ...rules.tips.map(d => h('li', d)))),
      h('section', h('h2', rules.keysTitle), h('table.grid', h('tbody', ...rules.keys.map(([k, v]) => h('tr', h('td', h('kbd.kbd', k)), h('td', v))))))));
  }

  destroy() {}
}
