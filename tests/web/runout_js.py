"""What the run-out tests read off the page: each seat's equity badge, the catalogue's words, a share
as the page writes it, and the page's clock held at a moment of the run-out (tests/web's run-out
tests share them: a badge test that read the page its own way would test its own reading)."""

# each seat's badge, line by line (null where none is shown)
SHARES_JS = """() => [...document.querySelectorAll('.felt-wrap > .seat')].map(s => {
  const el = s.querySelector('.runout-eq');
  return el && !el.hidden ? [...el.childNodes].map(n => n.textContent) : null; })"""
CATALOG_JS = """async () => { const lang = (await import('/static/js/i18n.js')).getLang();
  return (await import(`/static/i18n/${lang}.js`)).default; }"""
PCT_JS = """async x => new Intl.NumberFormat((await import('/static/js/i18n.js')).getLang(),
  {minimumFractionDigits: 1, maximumFractionDigits: 1}).format(x)"""
# the page's clock at `cards` run-out cards before the last one is down (0: all of them are)
MOMENT_JS = """async cards => {
  const {DEAL_STAGGER} = await import('/static/js/cards.js');
  const {DEAL_SETTLE} = await import('/static/js/tablerunout.js');
  const t = window.__fzTable;
  const at = t.settleUntil - DEAL_SETTLE - cards * DEAL_STAGGER + DEAL_STAGGER / 4;
  t.now = () => at;
  t.render();
}"""
# each seat's badge as one text (null where none is shown)
SHARE_TEXT_JS = """() => [...document.querySelectorAll('.felt-wrap > .seat')].map(s => {
  const el = s.querySelector('.runout-eq'); return el && !el.hidden ? el.textContent : null; })"""
