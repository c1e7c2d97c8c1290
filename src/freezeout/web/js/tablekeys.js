// The table page's keyboard (table.js, docs/protocol.md "The web page"): F fold, C/K check or
// call, R/B the amount, A all in, D Don't wait, S stand pat, H the history, Enter confirm,
// arrows the amount, 1-7 the quick sizes.  Keys typed into a field stay the field's.
/** A key pressed on the table page: the bar's move, the history, or nothing (then the browser's). */
export function onKey(page, e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  if (document.querySelector('dialog[open]')) return;
  const inField = e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT' || e.target.tagName === 'TEXTAREA');
  const k = e.key.toLowerCase();
  if (inField && e.target.type !== 'range') {
    if (e.key === 'Escape') e.target.blur();
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') { page.bar.adjust(e.key === 'ArrowUp' ? 1 : -1); e.preventDefault(); }
    return;
  }
  const bar = page.bar;
  const handled = {
    f: () => bar.fold(),
    c: () => bar.checkCall(),
    k: () => bar.checkCall(),
    r: () => bar.focusAmount(),
    b: () => bar.focusAmount(),
    a: () => bar.allIn(),
    d: () => bar.dontWait(),
    s: () => bar.standPat(),
    h: () => page.openHistory(),
    enter: () => { if (e.target === document.body || e.target.tagName !== 'BUTTON') bar.confirm(); else return false; },
    arrowup: () => bar.adjust(1),
    arrowdown: () => bar.adjust(-1),
    1: () => bar.quick(0), 2: () => bar.quick(1), 3: () => bar.quick(2), 4: () => bar.quick(3), 5: () => bar.quick(4),
    6: () => bar.quick(5), 7: () => bar.quick(6),
  }[k];
  if (handled && handled() !== false) e.preventDefault();
}
