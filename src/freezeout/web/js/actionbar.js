// The action bar: exactly the server's legal moves, a raise sizer clamped to
// the legal minimum and maximum whose slider moves in big blinds, and Don't
// wait. Folding when checking is free is asked first (onFoldFree).
import {h, setText, fill} from './dom.js';
import {t, num} from './i18n.js';
import {quickSizes} from './model.js';

export class ActionBar {
  constructor({onAct, onDontWait, onFoldFree}) {
    this.onAct = onAct;
    this.onFoldFree = onFoldFree;
    this.onDontWait = onDontWait;
    this.legal = null;
    this.amount = 0;
    this.status = h('div.status', {role: 'status'});
    this.foldBtn = h('button.btn.fold', {type: 'button', onclick: () => this.fold()}, h('span.lbl'), h('kbd', 'F'));
    this.callBtn = h('button.btn.call', {type: 'button', onclick: () => this.checkCall()}, h('span.lbl'), h('kbd', 'C'));
    this.raiseBtn = h('button.btn.raise', {type: 'button', onclick: () => this.confirm()}, h('span.lbl'), h('kbd', 'R'));
    this.moves = h('div.moves', this.foldBtn, this.callBtn, this.raiseBtn);
    this.sizes = h('div.quick-sizes');
    this.range = h('input', {type: 'range', min: 0, max: 1, step: 1, 'aria-label': t('act.slider'),
      oninput: () => this.setAmount(this.snap(Number(this.range.value)), 'range')});
    this.input = h('input', {type: 'number', inputmode: 'numeric', 'aria-label': t('act.amount'), min: 0, step: 1,
      oninput: () => this.setAmount(Number(this.input.value), 'input', false),
      onchange: () => this.setAmount(Number(this.input.value), 'input'),
      onkeydown: e => { if (e.key === 'Enter') { e.preventDefault(); this.setAmount(Number(this.input.value)); this.confirm(); } }});
    this.sizer = h('div.sizer', {hidden: true}, this.sizes, this.range, this.input);
    this.dontWaitBtn = h('button.btn.danger.dontwait', {type: 'button', hidden: true, onclick: () => this.onDontWait()},
      h('span.lbl'), h('kbd', 'D'));
    // pre-actions while others act: taken at once when your turn comes
    this.preMove = null;
    this.preBtns = {
      checkfold: h('button.btn.small.ghost', {type: 'button', 'aria-pressed': 'false', onclick: () => this.setPre('checkfold')}, t('act.preCheckFold')),
      callany: h('button.btn.small.ghost', {type: 'button', 'aria-pressed': 'false', onclick: () => this.setPre('callany')}, t('act.preCallAny')),
    };
    this.pre = h('div.pre', {hidden: true, role: 'group', 'aria-label': t('act.pre')}, this.preBtns.checkfold, this.preBtns.callany);
    this.el = h('section.actionbar', {'aria-label': t('act.bar')}, this.status, this.moves, this.pre, this.sizer, this.dontWaitBtn);
  }

  /**
   * s: {legal, view, status (text or node), dontWait: name|null, busy}
   */
  update(s) {
    if (s.view && this.view && s.view.hand_number !== this.view.hand_number) this.setPre(null);
    this.view = s.view;
    this.pre.hidden = !s.canPre;
    const legal = s.legal && !s.busy ? s.legal : null;
    const changed = JSON.stringify(legal) !== JSON.stringify(this.legal);
    this.legal = legal;
    const statusKey = typeof s.status === 'string' ? s.status : s.status ? s.status.textContent : '';
    if (this.statusKey !== statusKey) {
      this.statusKey = statusKey;
      if (typeof s.status === 'string' || !s.status) setText(this.status, s.status || '');
      else fill(this.status, s.status);
    }
    this.moves.classList.toggle('off', !legal);
    this.dontWaitBtn.hidden = !s.dontWait;
    if (s.dontWait) {
      setText(this.dontWaitBtn.querySelector('.lbl'), t('act.dontWait'));
      this.dontWaitBtn.title = t('act.dontWaitHint', {name: s.dontWait});
      this.dontWaitBtn.setAttribute('aria-label', t('act.dontWaitHint', {name: s.dontWait}));
    }
    if (!legal) {
      this.sizer.hidden = true;
      for (const b of [this.foldBtn, this.callBtn, this.raiseBtn]) b.disabled = true;
      this.moves.hidden = !!s.dontWait;
      return;
    }
    this.moves.hidden = false;
    const moves = new Set(legal.moves);
    this.foldBtn.disabled = !moves.has('fold');
    setText(this.foldBtn.querySelector('.lbl'), t('act.fold'));
    const stack = (s.view.seats[s.view.viewer] || {}).stack ?? 0;
    if (moves.has('check')) {
      this.callBtn.disabled = false;
      this.callBtn.className = 'btn check';
      setText(this.callBtn.querySelector('.lbl'), t('act.check'));
    } else if (moves.has('call')) {
      this.callBtn.disabled = false;
      this.callBtn.className = 'btn call';
      setText(this.callBtn.querySelector('.lbl'), t(legal.call >= stack ? 'act.callAllIn' : 'act.call', {n: legal.call}));
    } else {
      this.callBtn.disabled = true;
    }
    this.canSize = (moves.has('bet') || moves.has('raise')) && legal.min_to != null && legal.max_to > legal.min_to;
    this.word = moves.has('bet') ? 'bet' : 'raise';
    this.sizer.hidden = !this.canSize;
    if (changed) {
      if (this.canSize) {
        this.range.min = legal.min_to;
        this.range.max = legal.max_to;
        this.range.step = String(this.bigBlind());
        this.input.min = legal.min_to;
        this.input.max = legal.max_to;
        fill(this.sizes, ...quickSizes(s.view, legal).map((q, i) =>
          h('button.btn.small.ghost', {type: 'button', title: `${q.label} (${i + 1})`, dataset: {to: String(q.to)},
            onclick: () => this.setAmount(q.to)}, q.label)));
      }
      this.amount = null;
      this.setAmount(legal.min_to ?? legal.all_in_to);
    }
    // an all-in the rules allow without a raise (min_to is null) is the call itself: one button
    const raiseLegal = moves.has('bet') || moves.has('raise') || (moves.has('allin') && legal.min_to != null);
    this.raiseBtn.disabled = !raiseLegal;
    this.raiseBtn.classList.toggle('gone', !raiseLegal);
    this.renderRaise();
  }

  setAmount(value, from, normalize = true) {
    const legal = this.legal;
    if (!legal) return;
    if (!this.canSize) { this.amount = legal.all_in_to; this.renderRaise(); return; }
    if (!Number.isFinite(value)) value = legal.min_to;
    let v = Math.round(value);
    if (normalize) v = Math.max(legal.min_to, Math.min(legal.max_to, v));
    this.amount = v;
    if (from !== 'range') this.range.value = String(Math.max(legal.min_to, Math.min(legal.max_to, v)));
    if (from !== 'input' || normalize) this.input.value = String(v);
    for (const b of this.sizes.children) b.setAttribute('aria-pressed', String(Number(b.dataset.to) === v));
    this.renderRaise();
  }

  renderRaise() {
    const legal = this.legal;
    if (!legal) return;
    const amount = this.canSize ? Math.max(legal.min_to, Math.min(legal.max_to, this.amount ?? legal.min_to)) : legal.all_in_to;
    const allIn = amount >= legal.all_in_to;
    const label = allIn ? t('act.allin', {n: legal.all_in_to}) : t(this.word === 'bet' ? 'act.bet' : 'act.raise', {n: amount});
    setText(this.raiseBtn.querySelector('.lbl'), label);
    this.raiseBtn.classList.toggle('allin', allIn);
    this.raiseBtn.classList.toggle('raise', !allIn);
  }

  /** Toggle a pre-action ('checkfold' | 'callany'); null clears it. */
  setPre(move) {
    this.preMove = move && this.preMove !== move ? move : null;
    for (const [key, btn] of Object.entries(this.preBtns)) btn.setAttribute('aria-pressed', String(this.preMove === key));
  }

  /** The move a pre-action makes with these legal moves (and clears it), or null. */
  takePre(legal) {
    const pre = this.preMove;
    this.setPre(null);
    if (!pre || !legal) return null;
    const moves = new Set(legal.moves);
    if (pre === 'checkfold') return moves.has('check') ? 'check' : moves.has('fold') ? 'fold' : null;
    return moves.has('call') ? 'call' : moves.has('check') ? 'check' : null;
  }

  bigBlind() { return (this.view && this.view.blinds && this.view.blinds[1]) || 1; }

  /** A slider position → a raise in whole big blinds; its last step is all-in. */
  snap(value) {
    const legal = this.legal;
    if (!legal || !this.canSize) return value;
    if (value >= legal.max_to - this.bigBlind() / 2) return legal.max_to;
    return Math.min(legal.max_to, legal.min_to + Math.round((value - legal.min_to) / this.bigBlind()) * this.bigBlind());
  }

  // --- moves (also bound to keys) ---
  fold() {
    if (!this.legal || !this.legal.moves.includes('fold')) return;
    if (this.legal.moves.includes('check') && this.onFoldFree) this.onFoldFree();
    else this.onAct('fold');
  }
  checkCall() {
    if (!this.legal) return;
    if (this.legal.moves.includes('check')) this.onAct('check');
    else if (this.legal.moves.includes('call')) this.onAct('call');
  }
  confirm() {
    const legal = this.legal;
    if (!legal) return;
    const amount = this.canSize ? Math.max(legal.min_to, Math.min(legal.max_to, this.amount ?? legal.min_to)) : legal.all_in_to;
    if (amount >= legal.all_in_to && legal.moves.includes('allin')) this.onAct('allin');
    else if (this.canSize) this.onAct(this.word, amount);
  }
  allIn() { if (this.legal && this.canSize) this.setAmount(this.legal.max_to); }
  quick(i) { const b = this.sizes.children[i]; if (b && this.canSize) this.setAmount(Number(b.dataset.to)); }
  adjust(dir) {
    if (!this.legal || !this.canSize) return;
    this.setAmount((this.amount ?? this.legal.min_to) + dir * this.bigBlind());
  }
  focusAmount() { if (this.canSize) { this.input.focus(); this.input.select(); } else this.raiseBtn.focus(); }
  dontWait() { if (!this.dontWaitBtn.hidden) this.onDontWait(); }
}
