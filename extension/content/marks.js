// Marks on the page after a fill: a ring around each field and a small badge saying where its value
// came from and how sure Relay is (green filled, amber to review, grey left for the person), with
// the reason as a tooltip. Drawn in a fixed overlay inside a closed shadow root, so the page's CSS
// cannot restyle it and the page's own elements are never modified.

import { unionRect } from "./dom.js";
import { onPersonEdit } from "./edits.js";
import { RELAY_UI_ATTR } from "./snapshot.js";

/**
 * @typedef {object} MarkItem
 * @property {Element[]} targets     what to outline (a group: its choices)
 * @property {Element} tracked       the element edit tracking knows
 * @property {"filled"|"review"|"left"|"edited"} kind
 * @property {string} tip
 */

const COLORS = { filled: "#15803d", review: "#d97706", left: "#9ca3af", edited: "#2563eb" };
const SYMBOLS = { filled: "✓", review: "?", left: "–", edited: "✎" };

/** @type {{host: HTMLElement, layer: HTMLElement, items: {item: MarkItem, ring: HTMLElement, badge: HTMLElement}[]}|null} */
let overlay = null;
let frameRequested = false;
/** @type {(() => void)|null} */
let stopListening = null;

/**
 * Which mark a decision and its apply result earn, and the tooltip text.
 * @param {Record<string, any>} decision @param {Record<string, any>|undefined} result
 * @returns {{kind: MarkItem["kind"], tip: string}}
 */
export function classify(decision, result) {
  const pct = Math.round(Number(decision.confidence ?? 0) * 100);
  const source = String(decision.source ?? "none").replace("_", " ");
  const reason = String(decision.reason ?? "");
  const status = result?.status ?? "skipped";
  if (status === "user_edited") return { kind: "edited", tip: "Relay kept your edit." };
  if (status === "applied") {
    const origin = `from ${source}, ${pct}% sure`;
    if (decision.status === "flag") return { kind: "review", tip: `Filled ${origin}: please check. ${reason}`.trim() };
    return { kind: "filled", tip: `Filled ${origin}. ${reason}`.trim() };
  }
  if (status === "refused" || status === "not_found") {
    return { kind: "review", tip: `Relay could not fill this: ${result?.detail ?? status}. ${reason}`.trim() };
  }
  const why = { leave: "Left for you", never: "Relay never fills this", keep: "Kept the existing value" };
  const head = why[/** @type {keyof typeof why} */ (decision.status)] ?? "Left for you";
  return { kind: "left", tip: `${head}. ${reason}`.trim() };
}

/** Replace all marks in this frame. @param {MarkItem[]} items */
export function showMarks(items) {
  clearMarks();
  const host = document.createElement("relay-marks");
  host.setAttribute(RELAY_UI_ATTR, "");
  host.style.cssText = "all: initial; position: fixed; inset: 0; pointer-events: none; z-index: 2147483646;";
  const root = host.attachShadow({ mode: "closed" });
  const style = document.createElement("style");
  style.textContent = `
    .ring { position: fixed; box-sizing: border-box; border: 2px solid; border-radius: 4px; pointer-events: none; }
    .badge { position: fixed; width: 16px; height: 16px; border-radius: 8px; color: #fff;
      font: bold 11px/16px system-ui, sans-serif; text-align: center; pointer-events: auto; cursor: help;
      box-shadow: 0 0 0 1px #fff; }
    .hidden { display: none; }`;
  const layer = document.createElement("div");
  root.append(style, layer);
  (document.documentElement ?? document.body).append(host);
  overlay = { host, layer, items: [] };
  for (const item of items) {
    const ring = document.createElement("div");
    ring.className = "ring";
    const badge = document.createElement("div");
    badge.className = "badge";
    layer.append(ring, badge);
    overlay.items.push({ item, ring, badge });
    paint(item, ring, badge);
  }
  const schedule = () => {
    if (frameRequested) return;
    frameRequested = true;
    requestAnimationFrame(() => {
      frameRequested = false;
      position();
    });
  };
  window.addEventListener("scroll", schedule, { capture: true, passive: true });
  window.addEventListener("resize", schedule, { passive: true });
  const unsubscribe = onPersonEdit((el) => {
    for (const m of overlay?.items ?? []) {
      if (m.item.tracked === el) {
        m.item.kind = "edited";
        m.item.tip = "You changed this after Relay filled it; Relay will keep your value.";
        paint(m.item, m.ring, m.badge);
      }
    }
  });
  // Layout can move without scrolling (validation messages appearing, sections expanding).
  const timer = setInterval(schedule, 500);
  stopListening = () => {
    window.removeEventListener("scroll", schedule, { capture: true });
    window.removeEventListener("resize", schedule);
    unsubscribe();
    clearInterval(timer);
  };
  position();
}

export function clearMarks() {
  stopListening?.();
  stopListening = null;
  overlay?.host.remove();
  overlay = null;
}

/** How many marks of each kind are shown (tests, the panel). */
export function markCounts() {
  /** @type {Record<string, number>} */
  const counts = { filled: 0, review: 0, left: 0, edited: 0 };
  for (const m of overlay?.items ?? []) counts[m.item.kind] += 1;
  return counts;
}

/** @param {MarkItem} item @param {HTMLElement} ring @param {HTMLElement} badge */
function paint(item, ring, badge) {
  ring.style.borderColor = COLORS[item.kind];
  badge.style.background = COLORS[item.kind];
  badge.textContent = SYMBOLS[item.kind];
  badge.title = `Relay: ${item.tip}`;
  badge.dataset.kind = item.kind;
}

function position() {
  const items = overlay?.items ?? [];
  // Every read before any write: a style write between two reads forces a fresh layout per mark.
  const rects = items.map(({ item }) => unionRect(item.targets.filter((t) => t.isConnected)));
  for (const [i, { ring, badge }] of items.entries()) {
    const rect = rects[i];
    if (!rect) {
      ring.classList.add("hidden");
      badge.classList.add("hidden");
      continue;
    }
    ring.classList.remove("hidden");
    badge.classList.remove("hidden");
    Object.assign(ring.style, {
      left: `${rect.left - 2}px`, top: `${rect.top - 2}px`, width: `${rect.width + 4}px`, height: `${rect.height + 4}px`,
    });
    Object.assign(badge.style, { left: `${rect.right - 6}px`, top: `${rect.top - 10}px` });
  }
}
