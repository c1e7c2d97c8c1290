// The action bar: exactly the server's legal moves, a raise sizer clamped to
// the legal minimum and maximum whose slider moves in big blinds, and Don't
// wait. Folding when checking is free is asked first (onFoldFree).
import {h, setText, fill} from './dom.js';
import {t, num} from './i18n.js';
import {quickSizes} from './model.js';
import {cardEl} from './cards.js';
import {splitCards} from './poker.js';

export class ActionBar {
  constructor({onAct, onDontWait, onFoldFree, onDraw}) {
    this.onAct = onAct;
    this.onDraw = onDraw;
    // a draw (V11): your cards to tap, then Draw n / Stand pat (the bar's own buttons)
    this.picked = new Set();
    this.picker = h('div.drawpick', {hidden: true, role: 'group', 'aria-label': t('act.picker')});
    this.onFoldFree = onFoldFree;
    this.onDontWait = onDontWait;
    this.legal = null;
    this.amount = 0;
    this.status = h('div.status', {role: 'status'});
    // no move until the first update says there is one: a bar drawn before the table's first
    // message offers nothing to press
    this.foldBtn = h('button.btn.fold', {type: 'button', disabled: true, onclick: () => this.fold()}, h('span.lbl'), h('kbd', 'F'));
    this.callBtn = h('button.btn.call', {type: 'button', disabled: true, onclick: () => this.checkCall()}, h('span.lbl'), h('kbd', 'C'));
    // fixed limit (V3): the cap as the server counts it (view.limit), under the raise's label
    this.capEl = h('small.cap', {hidden: true});
    this.raiseBtn = h('button.btn.raise', {type: 'button', disabled: true, onclick: () => this.confirm()}, h('span.lbl'), this.capEl, h('kbd', 'R'));
    this.moves = h('div.moves.off', this.foldBtn, this.callBtn, this.raiseBtn);
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
    this.el = h('section.actionbar', {'aria-label': t('act.bar')}, this.status, this.picker, this.moves, this.pre, this.sizer, this.dontWaitBtn);
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
    this.drawing = !!legal && (legal.moves.includes('standpat') || legal.moves.includes('discard'));
    this.picker.hidden = !this.drawing;
    if (!this.drawing && this.picked.size) this.picked.clear();
    if (!this.drawing) {
      this.foldBtn.classList.remove('gone');
      this.capEl.hidden = true;
      if (this.raiseBtn.classList.contains('drawbtn')) this.raiseBtn.className = 'btn raise';
    }
    if (!legal) {
      this.sizer.hidden = true;
      for (const b of [this.foldBtn, this.callBtn, this.raiseBtn]) b.disabled = true;
      this.moves.hidden = !!s.dontWait;
      return;
    }
    this.moves.hidden = false;
    const moves = new Set(legal.moves);
    if (this.drawing) { this.renderDraw(s.view, legal, changed); return; }
    this.foldBtn.disabled = !moves.has('fold');
    setText(this.foldBtn.querySelector('.lbl'), t('act.fold'));
    const stack = (s.view.seats[s.view.viewer] || {}).stack ?? 0;
    if (moves.has('check')) {
      this.callBtn.disabled = false;
      this.callBtn.className = 'btn check';
      setText(this.callBtn.querySelector('.lbl'), t('act.check'));
    } else if (moves.has('bringin') && !moves.has('call')) {
      // stud's bring-in (V7): the smaller forced bet, or complete to the full bet
      this.callBtn.disabled = false;
      this.callBtn.className = 'btn call';
      setText(this.callBtn.querySelector('.lbl'), t('act.bringIn', {n: num(legal.bring_in ?? legal.call)}));
    } else if (moves.has('call')) {
      this.callBtn.disabled = false;
      this.callBtn.className = 'btn call';
      setText(this.callBtn.querySelector('.lbl'), t(legal.call >= stack ? 'act.callAllIn' : 'act.call', {n: legal.call}));
    } else {
      this.callBtn.disabled = true;
    }
    // fixed limit: the only totals a bet or raise may reach (legal.sizes), no slider
    this.fixed = Array.isArray(legal.sizes) && legal.sizes.length ? legal.sizes : null;
    this.canSize = !this.fixed && (moves.has('bet') || moves.has('raise') || moves.has('complete')) && legal.min_to != null && legal.max_to > legal.min_to;
    this.word = moves.has('complete') ? 'complete' : moves.has('bet') ? 'bet' : 'raise';
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
      if (this.fixed) this.amount = this.fixed[0];
      else this.setAmount(legal.min_to ?? legal.all_in_to);
    }
    // an all-in the rules allow without a raise (min_to is null) is the call itself: one button
    const raiseLegal = moves.has('bet') || moves.has('raise') || moves.has('complete') || (moves.has('allin') && legal.min_to != null);
    const limit = s.view && s.view.limit;
    this.capped = !raiseLegal && !!limit && limit.capped;
    this.raiseBtn.disabled = !raiseLegal;
    // a capped round keeps the button, disabled, saying so; otherwise it goes when no raise is legal
    this.raiseBtn.classList.toggle('gone', !raiseLegal && !this.capped);
    this.raiseBtn.classList.toggle('capped', this.capped);
    const capText = !limit || limit.cap == null ? '' : this.capped ? '' : t('act.betsLeft', {n: limit.left, cap: limit.cap});
    setText(this.capEl, capText);
    this.capEl.hidden = !capText;
    this.renderRaise();
  }

  setAmount(value, from, normalize = true) {
    const legal = this.legal;
    if (!legal) return;
    if (this.fixed) { this.renderRaise(); return; }
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
    if (!legal || this.drawing) return;
    if (this.capped) {
      const limit = this.view.limit;
      setText(this.raiseBtn.querySelector('.lbl'), t('act.capped', {cap: limit.cap}));
      this.raiseBtn.classList.remove('allin');
      this.raiseBtn.classList.add('raise');
      return;
    }
    const amount = this.fixed ? this.fixed[0] : this.canSize ? Math.max(legal.min_to, Math.min(legal.max_to, this.amount ?? legal.min_to)) : legal.all_in_to;
    const allIn = amount >= legal.all_in_to;
    const word = {bet: 'act.bet', raise: 'act.raise', complete: 'act.complete'}[this.word];
    const label = allIn ? t('act.allin', {n: legal.all_in_to}) : t(word, {n: amount});
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
    if (this.drawing) this.standPat();
    else if (this.legal.moves.includes('check')) this.onAct('check');
    else if (this.legal.moves.includes('bringin') && !this.legal.moves.includes('call')) this.onAct('bringin');
    else if (this.legal.moves.includes('call')) this.onAct('call');
  }
  confirm() {
    const legal = this.legal;
    if (!legal) return;
    if (this.drawing) { this.draw(); return; }
    if (this.fixed) {
      const to = this.fixed[0];
      if (to >= legal.all_in_to && legal.moves.includes('allin')) this.onAct('allin');
      else if (legal.moves.includes(this.word)) this.onAct(this.word, to);
      return;
    }
    if (this.word === 'complete' && !this.canSize && legal.moves.includes('complete')) { this.onAct('complete', legal.min_to ?? undefined); return; }
    const amount = this.canSize ? Math.max(legal.min_to, Math.min(legal.max_to, this.amount ?? legal.min_to)) : legal.all_in_to;
    if (amount >= legal.all_in_to && legal.moves.includes('allin')) this.onAct('allin');
    else if (this.canSize) this.onAct(this.word, amount);
  }
  /** The draw: your cards as toggles (at most legal.draw marked), Stand pat in the
   * call button's place and Draw n in the raise button's (keys C and R, 1–7 mark). */
  renderDraw(view, legal, changed) {
    this.sizer.hidden = true;
    this.capEl.hidden = true;
    this.foldBtn.disabled = true;
    this.foldBtn.classList.add('gone');
    const me = view && view.viewer != null ? view.seats[view.viewer] : null;
    const cards = splitCards(me && me.cards).filter(c => c !== '??');
    const key = cards.join('');
    if (changed || this.picker.dataset.key !== key) {
      this.picker.dataset.key = key;
      this.picked = new Set([...this.picked].filter(c => cards.includes(c)));
      fill(this.picker, ...cards.map((card, i) => h('button.pick', {type: 'button', 'aria-pressed': String(this.picked.has(card)),
        dataset: {card}, title: `${i + 1}`, onclick: () => this.togglePick(card)}, cardEl(card, {animate: false}))));
    }
    this.callBtn.disabled = !legal.moves.includes('standpat');
    this.callBtn.className = 'btn check standpat';
    setText(this.callBtn.querySelector('.lbl'), t('act.standPat'));
    this.renderDrawButton();
  }

  renderDrawButton() {
    const legal = this.legal;
    const n = this.picked.size;
    this.raiseBtn.className = 'btn raise drawbtn';
    this.raiseBtn.disabled = !n || !legal.moves.includes('discard');
    setText(this.raiseBtn.querySelector('.lbl'), n ? t('act.draw', {n}) : t('act.pickHint', {n: legal.draw}));
    for (const b of this.picker.children) b.setAttribute('aria-pressed', String(this.picked.has(b.dataset.card)));
  }

  togglePick(card) {
    if (!this.drawing) return;
    if (this.picked.has(card)) this.picked.delete(card);
    else if (this.picked.size < (this.legal.draw ?? 0)) this.picked.add(card);
    this.renderDrawButton();
  }

  /** Mark the i-th card (a digit key) in a draw. */
  pickAt(i) { const b = this.picker.children[i]; if (b && this.drawing) this.togglePick(b.dataset.card); }

  draw() {
    if (!this.drawing || !this.picked.size) return;
    const cards = [...this.picked].join('');
    this.picked.clear();
    this.onDraw(cards);
  }

  standPat() {
    if (!this.drawing) return;
    this.picked.clear();
    this.onDraw('');
  }

  allIn() { if (this.legal && this.canSize) this.setAmount(this.legal.max_to); }
  quick(i) { if (this.drawing) { this.pickAt(i); return; } const b = this.sizes.children[i]; if (b && this.canSize) this.setAmount(Number(b.dataset.to)); }
  adjust(dir) {
    if (!this.legal || !this.canSize) return;
    this.setAmount((this.amount ?? this.legal.min_to) + dir * this.bigBlind());
  }
  focusAmount() { if (this.drawing) { this.draw(); return; } if (this.canSize) { this.input.focus(); this.input.select(); } else this.raiseBtn.focus(); }
  dontWait() { if (!this.dontWaitBtn.hidden) this.onDontWait(); }
}
