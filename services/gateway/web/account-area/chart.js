// Small SVG charts drawn here, from our own code: no chart library, nothing from a CDN, and no
// inline style (colours are SVG attributes), so the area's strict CSP holds.

const SVG = 'http://www.w3.org/2000/svg';
/** Distinct on the dark background, in the order series are given (largest first). */
export const PALETTE = ['#7983f5', '#3ba55d', '#e3a33b', '#e0659b', '#45b5c4', '#b07ce8', '#c9c26a', '#8d96a8'];
/** Series past this many are summed into "other", so the legend stays readable. */
const MAX_SERIES = 7;

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attributes
 * @param {Node[]} [children]
 */
function svg(tag, attributes, children = []) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  node.append(...children);
  return node;
}

/** A round step for the y axis: 1, 2 or 5 times a power of ten, about four gridlines high. */
function niceStep(max) {
  const rough = Math.max(1, max) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? rough;
  return Math.max(1, step);
}

/**
 * The series to draw, largest total first, the smallest folded into "other".
 * @param {Record<string, number[]>} series
 * @param {number} length
 */
export function rankSeries(series, length) {
  const ranked = Object.entries(series)
    .map(([label, values]) => ({ label, values, total: values.reduce((sum, value) => sum + value, 0) }))
    .filter((entry) => entry.total > 0)
    .sort((a, b) => b.total - a.total || a.label.localeCompare(b.label));
  if (ranked.length <= MAX_SERIES) return ranked;
  const kept = ranked.slice(0, MAX_SERIES - 1);
  const other = Array(length).fill(0);
  for (const entry of ranked.slice(MAX_SERIES - 1)) entry.values.forEach((value, index) => (other[index] += value));
  return [...kept, { label: 'other', values: other, total: other.reduce((sum, value) => sum + value, 0) }];
}

/**
 * A stacked bar chart of daily counts, with a legend. Each bar part has a tooltip (`<title>`)
 * with its day, label and count; the whole chart says its total for screen readers.
 * @param {{ days: string[], series: Record<string, number[]>, unit: string }} data
 * @returns {HTMLElement}
 */
export function stackedBars(data) {
  const { days } = data;
  const ranked = rankSeries(data.series, days.length);
  const totals = days.map((_, index) => ranked.reduce((sum, entry) => sum + entry.values[index], 0));
  const grand = totals.reduce((sum, value) => sum + value, 0);
  const step = niceStep(Math.max(...totals, 1));
  const top = Math.ceil(Math.max(...totals, 1) / step) * step;

  const width = 600;
  const height = 200;
  const left = 48;
  const bottom = 30;
  const plotWidth = width - left - 6;
  const plotHeight = height - bottom - 16;
  const slot = plotWidth / days.length;
  const y = (value) => 16 + plotHeight - (value / top) * plotHeight;

  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': `${grand} ${data.unit} in the last ${days.length} days`,
    'data-total': grand,
    class: 'chart-svg',
  });
  for (let value = 0; value <= top; value += step) {
    chart.append(
      svg('line', { x1: left, x2: width - 6, y1: y(value), y2: y(value), class: 'grid' }),
      svg('text', { x: left - 6, y: y(value) + 4, 'text-anchor': 'end', class: 'axis' }, [document.createTextNode(String(value))]),
    );
  }
  days.forEach((day, index) => {
    let base = 0;
    const x = left + index * slot + slot * 0.15;
    ranked.forEach((entry, rank) => {
      const value = entry.values[index];
      if (value === 0) return;
      const title = svg('title', {}, [document.createTextNode(`${day}: ${entry.label} ${value}`)]);
      chart.append(svg('rect', { x, y: y(base + value), width: slot * 0.7, height: y(base) - y(base + value), fill: PALETTE[rank % PALETTE.length], 'data-day': day, 'data-label': entry.label, 'data-count': value }, [title]));
      base += value;
    });
    // A date under every fifth bar and the last one (today); the outer two kept inside the frame.
    if ((index % 5 === 0 && index < days.length - 5) || index === days.length - 1) {
      const anchor = index === 0 ? 'start' : index === days.length - 1 ? 'end' : 'middle';
      const at = anchor === 'start' ? x : anchor === 'end' ? x + slot * 0.7 : x + slot * 0.35;
      chart.append(svg('text', { x: at, y: height - 4, 'text-anchor': anchor, class: 'axis' }, [document.createTextNode(day.slice(5))]));
    }
  });

  const legend = document.createElement('ul');
  legend.className = 'legend';
  if (ranked.length === 0) {
    const empty = document.createElement('li');
    empty.textContent = `No ${data.unit} in these days.`;
    legend.append(empty);
  }
  ranked.forEach((entry, rank) => {
    const item = document.createElement('li');
    item.append(svg('svg', { width: 12, height: 12, 'aria-hidden': 'true' }, [svg('rect', { width: 12, height: 12, rx: 2, fill: PALETTE[rank % PALETTE.length] })]), ` ${entry.label} (${entry.total})`);
    legend.append(item);
  });
  const wrapper = document.createElement('div');
  wrapper.className = 'chart-body';
  wrapper.append(chart, legend);
  return wrapper;
}
