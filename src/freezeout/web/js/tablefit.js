// The felt's fit on the table page (table.js): the table shrinks into the height the head and the
// action bar leave it, so the whole bar is on the screen on your turn, and the bar only grows
// during a game so the table does not jump with every turn (style.css ".table-page.fit").

/** The least height (px, as drawn) of a seat's name and stack on a shrunk felt (issue #31 item 2). */
const TEXT_MIN = 11.5;

/** The least width (px, as drawn) of your own cards on a shrunk felt (issue #34): the rank is
 * .42 of the width (style.css ".card .r"), so it is drawn at least 11 px tall. */
const CARD_MIN = 27;

/** The bar only grows during a game (a longer result, a game's draw picker), so the table does
 * not jump back and forth with every turn; a new width starts afresh. */
export function holdBarHeight(page) {
  const bar = page.bar.el;
  if (bar.hidden) return;
  const {width, height} = bar.getBoundingClientRect();
  if (!height) return;
  if (page.barHold && Math.abs(page.barHold.width - width) > 1) { page.barHold = null; bar.style.minHeight = ''; return; }
  if (!page.barHold || height > page.barHold.height + 0.5) {
    page.barHold = {width, height};
    bar.style.minHeight = height + 'px';
  }
}

/** Shrink the table into the height the head and the action bar leave it,
 * so that on a phone the whole bar is on the screen on your turn without
 * scrolling, whatever the bar holds (style.css ".table-page.fit"). */
export function fit(page) {
  const wrap = page.felt.el;
  const box = page.feltBox;
  if (box.hidden || !box.isConnected || !page.page.classList.contains('fit')) return;
  const room = box.clientHeight;
  if (!room) return;
  wrap.style.zoom = '';
  wrap.style.width = '';
  wrap.style.maxWidth = '';
  wrap.style.removeProperty('--tz');
  wrap.style.removeProperty('--mz');
  const natural = wrap.getBoundingClientRect();
  // the room is never taller than the table needs: the bar follows the table, the spare space goes below
  const most = Math.ceil(natural.height) + 'px';
  if (box.style.maxHeight !== most) box.style.maxHeight = most;
  let z = Math.min(1, room / natural.height);
  if (z >= 0.995) return;
  const grid = wrap.classList.contains('grid');
  // the oval keeps its proportions at its natural width; the phones' grid keeps the screen's width
  if (!grid) wrap.style.width = natural.width + 'px';
  wrap.style.zoom = String(Math.floor(z * 1000) / 1000);
  if (!grid) return;
  // the grid keeps the screen's width as it shrinks (a zoomed 100% is a narrow strip with bare
  // sides: bets and names had no room)
  const across = () => {
    wrap.style.maxWidth = 'none';
    wrap.style.width = box.clientWidth / parseFloat(wrap.style.zoom) + 'px';
  };
  across();
  // The grid shrinks its decoration, never its text (issue #31 item 2): the names and stacks are
  // drawn back up to TEXT_MIN px (--tz, style.css) and the rest shrinks a little more for them.
  // Your own cards likewise keep a readable size (--mz, style.css) however far the felt shrinks.
  let tz = 1;
  let mz = 0;
  for (let i = 0; i < 24; i++) {
    const heights = [...wrap.querySelectorAll('.seat .pname, .seat .stack')].map(el => el.getBoundingClientRect().height).filter(x => x > 0);
    const low = heights.length ? Math.min(...heights) : TEXT_MIN;
    const widths = [...wrap.querySelectorAll('.seat.me .hole .card:not(.slot)')].map(el => el.getBoundingClientRect().width).filter(x => x > 0);
    const narrow = widths.length ? Math.min(...widths) : CARD_MIN;
    const tall = wrap.getBoundingClientRect().height;
    if (low >= TEXT_MIN && narrow >= CARD_MIN && tall <= room + 0.5) break;
    if (low < TEXT_MIN) { tz = tz * TEXT_MIN / low + 0.05; wrap.style.setProperty('--tz', tz.toFixed(3)); }
    if (narrow < CARD_MIN) {
      mz = Math.max(mz, Math.min(tz, 1.8)) * CARD_MIN / narrow + 0.05;
      wrap.style.setProperty('--mz', mz.toFixed(3));
    }
    z = Math.min(z, z * room / wrap.getBoundingClientRect().height);
    wrap.style.zoom = String(Math.floor(z * 1000) / 1000);
    across();
  }
}
