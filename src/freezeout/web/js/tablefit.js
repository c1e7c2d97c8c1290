// The felt's fit on the table page (table.js): the table shrinks into the height the head and the
// action bar leave it, so the whole bar is on the screen on your turn, and the bar only grows
// during a game so the table does not jump with every turn (style.css ".table-page.fit").

/** The least height (px, as drawn) of a seat's name and stack on a shrunk felt (issue #31 item 2). */
const TEXT_MIN = 11.5;

/** The least width (px, as drawn) of your own cards on a shrunk felt (issue #34): the rank is
 * .42 of the width (style.css ".card .r"), so it is drawn at least 11 px tall. */
const CARD_MIN = 27;

/** The least height (px, as drawn) of a card's rank anyone can read on a shrunk felt (issue #34):
 * your own cards, the others' up-cards and shown hands, the board. */
const RANK_MIN = 11;

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
  wrap.style.removeProperty('--oz');
  wrap.style.removeProperty('--bz');
  const natural = wrap.getBoundingClientRect();
  // the room is never taller than the table needs: the bar follows the table, the spare space goes below
  const most = Math.ceil(natural.height) + 'px';
  if (box.style.maxHeight !== most) box.style.maxHeight = most;
  let z = Math.min(1, room / natural.height);
  if (z >= 0.995) return;
  const grid = wrap.classList.contains('grid');
  // the oval keeps its proportions at its natural width; the phones' grid keeps the screen's width
  if (!grid) wrap.style.width = natural.width + 'px';
  wrap.style.zoom = String(Math.floor(z * 10000) / 10000);
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
  // The others' face-up cards (stud's up-cards, a showdown) and the board, its empty slots too,
  // likewise (--oz, --bz, issue #34): every rank anyone can read is drawn at least RANK_MIN px tall.
  let tz = 1;
  let mz = 0;
  let oz = 0;
  let bz = 0;
  // what is drawn smallest of ``sel`` over what it should be at least (1: nothing of it, or enough)
  const ratio = (sel, dim, want) => {
    const sizes = [...wrap.querySelectorAll(sel)].map(el => el.getBoundingClientRect()[dim]).filter(x => x > 0);
    return sizes.length ? Math.min(...sizes) / want : 1;
  };
  const many = wrap.classList.contains('many');
  const texts = '.seat .pname, .seat .stack' + (many ? ', .seat.empty .state' : '');
  for (let i = 0; i < 40; i++) {
    const low = ratio(texts, 'height', TEXT_MIN);
    const mine = Math.min(ratio('.seat.me .hole .card:not(.slot)', 'width', CARD_MIN), ratio('.seat.me .hole .card .r', 'height', RANK_MIN));
    const others = many ? ratio('.seat:not(.me) .hole .card .r', 'height', RANK_MIN) : 1;
    const board = Math.min(ratio('.board .card, .board2 .card', 'width', CARD_MIN), ratio('.board .card .r, .board2 .card .r', 'height', RANK_MIN));
    const tall = wrap.getBoundingClientRect().height;
    if (low >= 1 && mine >= 1 && others >= 1 && board >= 1 && tall <= room + 0.5) break;
    // each a little past its least (2 %), so that the next smaller zoom needs no step of its own
    if (low < 1) { tz = tz / low * 1.02; wrap.style.setProperty('--tz', tz.toFixed(4)); }
    if (mine < 1) { mz = Math.max(mz, Math.min(tz, 1.8)) / mine * 1.02; wrap.style.setProperty('--mz', mz.toFixed(4)); }
    if (others < 1) { oz = Math.max(oz, 1) / others * 1.02; wrap.style.setProperty('--oz', oz.toFixed(4)); }
    if (board < 1) { bz = Math.max(bz, 1) / board * 1.02; wrap.style.setProperty('--bz', bz.toFixed(4)); }
    z = Math.min(z, z * room / wrap.getBoundingClientRect().height);
    wrap.style.zoom = String(Math.floor(z * 10000) / 10000);
    across();
  }
}
