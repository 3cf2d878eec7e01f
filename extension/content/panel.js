// The review panel: a small box in the top frame listing what Relay filled, what it wants the
// person to check, and what it left, across all frames. Clicking a row scrolls to the field.
// It is read-only: the person edits in the form itself and submits the form themselves.

import { RELAY_UI_ATTR } from "./snapshot.js";

/**
 * @typedef {object} PanelRow
 * @property {string} frame
 * @property {string} field_id
 * @property {string} label
 * @property {"filled"|"review"|"left"|"edited"} kind
 * @property {string} value
 * @property {string} tip
 */
/**
 * @typedef {object} PanelModel
 * @property {string} run_id
 * @property {PanelRow[]} rows
 * @property {{code: string, message: string}|null} [error]
 * @property {string} [note]
 * @property {BlockedRow[]} [blocked]  submissions the page attempted, which Relay stopped
 */
/**
 * @typedef {object} BlockedRow
 * @property {string} kind
 * @property {string} detail
 * @property {number} [times]
 */

/** @type {HTMLElement|null} */
let panelHost = null;
/** @type {{model: PanelModel, onPick: (row: PanelRow) => void, blocked: number}|null} what the panel shows */
let shown = null;
/** @type {Map<string, BlockedRow[]>} attempts reported apart from a run's panel (they may come first) */
const lateBlocked = new Map();
const KEEP_RUNS = 5;

const BLOCKED_NOTE = "The page tried to submit the form while Relay was filling it; Relay stopped it. "
  + "Nothing was sent.";
const MAX_BLOCKED_ROWS = 50;

const CSS = `
  :host { all: initial; }
  .box { position: fixed; right: 16px; bottom: 16px; width: 340px; max-height: 60vh; display: flex;
    flex-direction: column; background: #fff; color: #111827; border: 1px solid #d1d5db; border-radius: 10px;
    box-shadow: 0 8px 24px rgba(0,0,0,.18); font: 13px/1.4 system-ui, sans-serif; z-index: 2147483647; }
  header { display: flex; align-items: center; gap: 8px; padding: 8px 10px; border-bottom: 1px solid #e5e7eb; }
  header b { flex: 1; }
  button { font: inherit; border: 0; background: none; cursor: pointer; padding: 2px 6px; border-radius: 4px; }
  button:hover { background: #f3f4f6; }
  .counts { padding: 6px 10px; color: #374151; }
  .list { overflow: auto; padding: 0 4px 8px; }
  h3 { font-size: 12px; margin: 8px 6px 4px; color: #6b7280; text-transform: uppercase; letter-spacing: .03em; }
  .row { display: flex; gap: 6px; padding: 4px 6px; border-radius: 6px; cursor: pointer; }
  .row:hover { background: #f9fafb; }
  .dot { flex: none; width: 8px; height: 8px; border-radius: 4px; margin-top: 6px; }
  .label { flex: 1; min-width: 0; }
  .value { color: #6b7280; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .error { padding: 8px 10px; color: #b91c1c; }
  .blocked { margin: 8px 10px 0; padding: 6px 8px; border-radius: 6px; background: #fef2f2; color: #991b1b; }
  .blocked ul { margin: 4px 0 0; padding-left: 16px; color: #7f1d1d; }
  .note { padding: 0 10px 8px; color: #6b7280; }`;

const DOT = { filled: "#15803d", review: "#d97706", left: "#9ca3af", edited: "#2563eb" };
const GROUPS = /** @type {const} */ ([
  ["review", "To review"], ["filled", "Filled"], ["edited", "Your edits (kept)"], ["left", "Left for you"],
]);

/**
 * Show (or replace) the panel.
 * @param {PanelModel} model
 * @param {(row: PanelRow) => void} onPick  called when the person clicks a row
 */
export function showPanel(model, onPick) {
  closePanel();
  const blocked = [...(model.blocked ?? []), ...(lateBlocked.get(model.run_id) ?? [])].slice(0, MAX_BLOCKED_ROWS);
  shown = { model, onPick, blocked: blocked.length };
  const host = document.createElement("relay-panel");
  host.setAttribute(RELAY_UI_ATTR, "");
  const root = host.attachShadow({ mode: "closed" });
  const style = document.createElement("style");
  style.textContent = CSS;
  const box = el("div", "box");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", "Relay review");

  const header = el("header");
  const title = el("b", "", "Relay");
  const close = el("button", "", "✕");
  close.title = "Close";
  close.addEventListener("click", closePanel);
  header.append(title, close);
  box.append(header);

  if (model.error) {
    box.append(el("div", "error", `Relay could not fill this page: ${model.error.message}`));
  }
  const counts = { filled: 0, review: 0, left: 0, edited: 0 };
  for (const row of model.rows) counts[row.kind] += 1;
  if (model.rows.length) {
    box.append(el("div", "counts",
      `${counts.filled} filled · ${counts.review} to review · ${counts.left} left${counts.edited ? ` · ${counts.edited} kept` : ""}`));
  }
  if (blocked.length) box.append(blockedNotice(blocked));
  if (model.note) box.append(el("div", "note", model.note));
  const list = el("div", "list");
  for (const [kind, heading] of GROUPS) {
    const rows = model.rows.filter((r) => r.kind === kind);
    if (!rows.length) continue;
    list.append(el("h3", "", heading));
    for (const row of rows) {
      const line = el("div", "row");
      line.title = row.tip;
      line.dataset.kind = row.kind;
      const dot = el("span", "dot");
      dot.style.background = DOT[row.kind];
      const text = el("div", "label");
      text.append(el("div", "", row.label || "(unlabelled field)"));
      if (row.value) text.append(el("div", "value", row.value));
      line.append(dot, text);
      line.addEventListener("click", () => onPick(row));
      list.append(line);
    }
  }
  box.append(list);
  root.append(style, box);
  (document.documentElement ?? document.body).append(host);
  panelHost = host;
}

export function closePanel() {
  panelHost?.remove();
  panelHost = null;
  shown = null;
}

/**
 * Add attempts reported apart from the run's panel (the watch after the apply, replays). Kept per
 * run, so the run's panel shows them even when they arrive first; shown at once, on whatever the
 * panel shows now, and opening it if the person closed it: they must learn the page tried.
 * @param {string} runId @param {BlockedRow[]} rows @param {(row: PanelRow) => void} onPick
 */
export function addBlocked(runId, rows, onPick) {
  if (!rows.length) return;
  lateBlocked.set(runId, [...(lateBlocked.get(runId) ?? []), ...rows].slice(0, MAX_BLOCKED_ROWS));
  for (const old of [...lateBlocked.keys()].slice(0, Math.max(lateBlocked.size - KEEP_RUNS, 0))) lateBlocked.delete(old);
  if (!shown) showPanel({ run_id: runId, rows: [] }, onPick);
  else if (shown.model.run_id === runId) showPanel(shown.model, shown.onPick);
  else showPanel({ ...shown.model, blocked: [...(shown.model.blocked ?? []), ...rows] }, shown.onPick);
}

/** @param {BlockedRow[]} rows */
function blockedNotice(rows) {
  const box = el("div", "blocked");
  box.setAttribute("role", "alert");
  box.append(el("div", "", BLOCKED_NOTE));
  const list = el("ul");
  for (const row of rows) {
    const times = Number(row.times ?? 1);
    list.append(el("li", "", `${row.detail}${times > 1 ? ` (${times} times)` : ""}`));
  }
  box.append(list);
  return box;
}

/** Whether the panel is open, and its row count by kind (tests). */
export function panelState() {
  return { open: Boolean(panelHost?.isConnected), blocked: shown?.blocked ?? 0 };
}

/**
 * @param {string} tag @param {string} [cls] @param {string} [text]
 * @returns {HTMLElement}
 */
function el(tag, cls = "", text = "") {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text) node.textContent = text;
  return node;
}
