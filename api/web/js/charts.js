// Bar charts drawn as SVG, with their numbers in the picture's accessible name.

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {string} [text]
 */
function svg(tag, attrs, text) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/**
 * Vertical bars, one per label (a distribution: scores along the bottom, counts up).
 * @param {string} title
 * @param {{label: string, value: number}[]} bars
 * @param {string} unit what a bar counts, for the accessible description
 */
export function columnChart(title, bars, unit) {
  // Bars at most 40 wide: a handful of scores makes a small chart, not a few giant blocks.
  const slot = Math.min(40, 360 / Math.max(1, bars.length));
  const width = Math.max(120, slot * bars.length);
  const height = 180;
  const bottom = 24;
  const top = 14;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, width: width * 1.5, role: "img", class: "chart" });
  chart.append(svg("title", {}, `${title}: ${bars.map((bar) => `${bar.label}: ${bar.value} ${unit}`).join(", ")}`));
  bars.forEach((bar, index) => {
    const barHeight = ((height - bottom - top) * bar.value) / max;
    const x = index * slot + slot * 0.1;
    chart.append(svg("rect", { x, y: height - bottom - barHeight, width: slot * 0.8, height: barHeight, class: "bar" }));
    chart.append(svg("text", { x: x + slot * 0.4, y: height - bottom - barHeight - 3, "text-anchor": "middle", class: "value" }, String(bar.value)));
    if (bars.length <= 24 || index % Math.ceil(bars.length / 24) === 0) {
      chart.append(svg("text", { x: x + slot * 0.4, y: height - 8, "text-anchor": "middle", class: "axis" }, bar.label));
    }
  });
  return chart;
}

/**
 * Horizontal bars, one per label (pick rates: a name and a share).
 * @param {string} title
 * @param {{label: string, value: number, text: string}[]} bars
 */
export function barChart(title, bars) {
  const width = 360;
  const row = 20;
  const labels = 140;
  const max = Math.max(Number.EPSILON, ...bars.map((bar) => bar.value));
  const chart = svg("svg", { viewBox: `0 0 ${width} ${bars.length * row + 4}`, width: width * 1.5, role: "img", class: "chart" });
  chart.append(svg("title", {}, `${title}: ${bars.map((bar) => `${bar.label} ${bar.text}`).join(", ")}`));
  bars.forEach((bar, index) => {
    const y = index * row + 2;
    const length = ((width - labels - 50) * bar.value) / max;
    // Long names (Spin Some's special plates) are cut here; the title above has them whole.
    const label = bar.label.length > 24 ? `${bar.label.slice(0, 23)}…` : bar.label;
    chart.append(svg("text", { x: labels - 6, y: y + 14, "text-anchor": "end", class: "axis" }, label));
    chart.append(svg("rect", { x: labels, y: y + 3, width: Math.max(1, length), height: row - 6, class: "bar" }));
    chart.append(svg("text", { x: labels + length + 4, y: y + 14, class: "value" }, bar.text));
  });
  return chart;
}
