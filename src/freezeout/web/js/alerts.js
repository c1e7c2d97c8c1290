// Your-turn alerts: a short tone (muted with the table's switch, remembered),
// the tab title flashing while the page is in the background, and a vibration
// on phones that have it. Each fires once per turn; the 10 s warning once more.
const KEY = 'fz-sound';

export function soundOn() {
  try { return localStorage.getItem(KEY) !== 'off'; } catch { return true; }
}

export function setSound(on) {
  try { localStorage.setItem(KEY, on ? 'on' : 'off'); } catch { /* ignore */ }
}

let audio = null;
function tone(freqs) {
  if (!soundOn()) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    let at = audio.currentTime;
    for (const f of freqs) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.12, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.18);
      at += 0.14;
    }
  } catch { /* no audio here */ }
}

/** The alerts given, for the browser tests (window.__fzAlerts). */
function record(kind) {
  (window.__fzAlerts = window.__fzAlerts || []).push(kind);
}

export class TurnAlerts {
  constructor(titleText) {
    this.titleText = titleText;
    this.flashTimer = null;
    this.baseTitle = null;
    this._visible = () => { if (!document.hidden) this.stopFlash(); };
    document.addEventListener('visibilitychange', this._visible);
  }

  /** It became your turn. */
  turn() {
    record('turn');
    tone([660, 880]);
    if (navigator.vibrate) try { navigator.vibrate(120); } catch { /* ignore */ }
    if (document.hidden) this.flash();
  }

  /** Another player's clock ran out and only you can press Don't wait (R26). */
  late(text) {
    record('late');
    tone([660, 660]);
    if (navigator.vibrate) try { navigator.vibrate([120, 80, 120]); } catch { /* ignore */ }
    if (document.hidden) this.flash(text);
  }

  /** 10 s left on your turn. */
  hurry() {
    tone([880, 880, 880]);
    if (navigator.vibrate) try { navigator.vibrate([80, 60, 80]); } catch { /* ignore */ }
  }

  flash(text) {
    if (this.flashTimer) return;
    this.baseTitle = document.title;
    let on = false;
    this.flashTimer = setInterval(() => {
      on = !on;
      document.title = on ? '● ' + (text || this.titleText()) : this.baseTitle;
    }, 900);
  }

  stopFlash() {
    if (!this.flashTimer) return;
    clearInterval(this.flashTimer);
    this.flashTimer = null;
    document.title = this.baseTitle;
  }

  destroy() {
    this.stopFlash();
    document.removeEventListener('visibilitychange', this._visible);
  }
}
