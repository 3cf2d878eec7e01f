// A small bar chart as SVG (no chart library): one bar per period, the amount in each bar's title,
// and the same numbers as a table for screen readers.

import { el, money } from "./dom.js";

const NS = "http://www.w3.org/2000/svg";

/** @param {string} tag @param {Record<string, string|number>} attrs */
function svg(tag, attrs) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * @param {string} id @param {string} caption @param {Array<{label: string, usd: number}>} rows
 * @param {(label: string) => string} short the axis label for a period
 */
export function barChart(id, caption, rows, short) {
  // About the size it is drawn at, so its labels read at the page's own text size.
  const width = 400;
  const height = 150;
  const pad = { top: 10, bottom: 26, left: 6, right: 6 };
  const max = Math.max(...rows.map((r) => r.usd), 0.0001);
  const slot = (width - pad.left - pad.right) / Math.max(rows.length, 1);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-labelledby": `${id}-title` });
  const title = svg("title", { id: `${id}-title` });
  title.textContent = rows.length ? `${caption}: ${rows.map((r) => `${r.label} ${money(r.usd)}`).join(", ")}` : `${caption}: nothing spent yet`;
  chart.append(title, svg("line", { x1: pad.left, x2: width - pad.right, y1: height - pad.bottom, y2: height - pad.bottom, class: "axis" }));
  rows.forEach((r, i) => {
    const h = Math.max((r.usd / max) * (height - pad.top - pad.bottom), r.usd > 0 ? 2 : 0);
    const x = pad.left + i * slot + slot * 0.15;
    const bar = svg("rect", { x, y: height - pad.bottom - h, width: slot * 0.7, height: h, rx: 3, class: r.usd > 0 ? "bar spent" : "bar" });
    const tip = svg("title", {});
    tip.textContent = `${r.label}: ${money(r.usd)}`;
    bar.append(tip);
    chart.append(bar);
    // Every label when few, else every few counted back from the newest, so they never overlap.
    if (rows.length <= 8 || (rows.length - 1 - i) % Math.ceil(rows.length / 7) === 0) {
      const text = svg("text", { x: x + slot * 0.35, y: height - 8, "text-anchor": "middle", class: "tick" });
      text.textContent = short(r.label);
      chart.append(text);
    }
  });
  const table = el("table", { class: "visually-hidden" }, el("caption", { text: caption }),
    el("tbody", {}, ...rows.map((r) => el("tr", {}, el("th", { scope: "row", text: r.label }), el("td", { text: money(r.usd) })))));
  return el("figure", { class: "chart-box", id }, el("figcaption", { text: caption }), chart, table);
}
