// A small SVG line chart (stacks per hand, Elo per game). No library.
import {h, svg} from './dom.js';
import {num} from './i18n.js';

export const PALETTE = ['#f2c14e', '#5fb3f0', '#ef6b5b', '#43c47f'];

/** One colour per seat, the same in the chart and the standings: yours is the
 * accent (as your standings row), the others follow the palette in seat order. */
export function seatColors(n, me) {
  const rest = PALETTE.slice(1);
  let k = 0;
  return Array.from({length: n}, (_, seat) => (seat === me ? PALETTE[0] : me == null && seat === 0 ? PALETTE[0] : rest[k++ % rest.length]));
}

/**
 * series: [{name, color, dash, points: [[x, y], ...]}] (dash: a dashed line); opts: {label, width, height, yZero, xLabel, pointTitle}
 * pointTitle(point, index, series): when given, every point gets a dot whose tooltip (an SVG
 * <title>) is its text — a history where each point is one event (the play chips' ledger).
 */
export function lineChart(series, {label = '', width = 560, height = 240, yZero = false, xLabel = v => v, pointTitle = null} = {}) {
  const pad = {l: 48, r: 12, t: 12, b: 26};
  const all = series.flatMap(s => s.points);
  if (!all.length) return h('div');
  let xmin = Math.min(...all.map(p => p[0])), xmax = Math.max(...all.map(p => p[0]));
  let ymin = Math.min(...all.map(p => p[1])), ymax = Math.max(...all.map(p => p[1]));
  if (yZero) ymin = Math.min(0, ymin);
  if (xmax === xmin) xmax = xmin + 1;
  if (ymax === ymin) { ymax += 10; ymin -= 10; }
  const span = ymax - ymin;
  ymax += span * 0.05; if (!yZero) ymin -= span * 0.05;
  const X = x => pad.l + (x - xmin) / (xmax - xmin) * (width - pad.l - pad.r);
  const Y = y => pad.t + (1 - (y - ymin) / (ymax - ymin)) * (height - pad.t - pad.b);
  const root = svg('svg', {class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label});
  root.append(svg('title', {text: label}));
  const ticks = niceTicks(ymin, ymax, 4);
  for (const v of ticks) {
    root.append(svg('line', {class: 'grid', x1: pad.l, x2: width - pad.r, y1: Y(v), y2: Y(v)}));
    root.append(svg('text', {x: pad.l - 6, y: Y(v) + 4, 'text-anchor': 'end', text: num(Math.round(v))}));
  }
  const xt = niceTicks(xmin, xmax, Math.min(8, xmax - xmin)).filter(v => Number.isInteger(v));
  for (const v of xt) root.append(svg('text', {x: X(v), y: height - 8, 'text-anchor': 'middle', text: String(xLabel(v))}));
  root.append(svg('line', {class: 'axis', x1: pad.l, x2: width - pad.r, y1: height - pad.b, y2: height - pad.b}));
  series.forEach((s, i) => {
    const color = s.color || PALETTE[i % PALETTE.length];
    const dy = s.offset || 0;
    // lines drawn a little apart, but never below the chart's floor (a busted player is at 0, not under it)
    const y = v => Math.min(Y(v) + dy, Y(ymin));
    const d = s.points.map((p, k) => (k ? 'L' : 'M') + X(p[0]).toFixed(1) + ' ' + y(p[1]).toFixed(1)).join(' ');
    root.append(svg('path', {class: 'line', d, stroke: color, ...(s.dash ? {'stroke-dasharray': '6 4'} : {})}));
    if (pointTitle) {
      s.points.forEach((p, k) => root.append(svg('circle', {class: 'point', cx: X(p[0]), cy: y(p[1]), r: 2.5, fill: color},
        svg('title', {text: pointTitle(p, k, s)}))));
    }
    const last = s.points[s.points.length - 1];
    if (last) root.append(svg('circle', {cx: X(last[0]), cy: y(last[1]), r: 3.5, fill: color}));
  });
  const legend = h('div.legend', ...series.map((s, i) => h('span' + (s.dash ? '.dash' : ''), {style: {'--c': s.color || PALETTE[i % PALETTE.length]}}, s.name)));
  return h('figure', {style: {margin: 0}}, root, series.length > 1 ? legend : null);
}

function niceTicks(lo, hi, count) {
  if (!(hi > lo) || count < 1) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map(m => m * mag).find(s => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v * 1e6) / 1e6);
  return out;
}
