// Marks on the page after a fill: a thin ring on each field and a small badge beside it saying
// where its value came from (green filled, amber to check, grey left for the person, blue yours).
// The badge opens a menu of the field's actions (accept, undo, edit, fill again, save this answer,
// hide all marks). Drawn in a fixed overlay inside a closed shadow root: the page's own elements are
// never modified (no layout shift, the form's validation untouched), the ring lets every click
// through, and a badge is only drawn where it covers none of the page's controls.

(() => {
"use strict";
const { unionRect } = relayContent.dom;
const { onPersonEdit } = relayContent.edits;
const { RELAY_UI_ATTR } = relayContent.snapshot;

/**
 * @typedef {object} MarkItem
 * @property {Element[]} targets     what to outline (a group: its choices)
 * @property {Element} tracked       the element edit tracking knows
 * @property {"filled"|"review"|"left"|"edited"|"asking"} kind
 * @property {string} tip
 * @property {string} field_id
 * @property {boolean} [keep]        the latest plan kept the value: an earlier mark stays
 */
/** @typedef {"accept"|"undo"|"edit"|"refill"|"save"|"hide"} MarkAction */
/** @typedef {{item: MarkItem, ring: HTMLElement, badge: HTMLButtonElement}} Mark */

const COLORS = { filled: "#15803d", review: "#b45309", left: "#4b5563", edited: "#1d4ed8", asking: "#6d28d9" };
const SYMBOLS = { filled: "✓", review: "?", left: "–", edited: "✎", asking: "…" };
const BADGE = 18;
const MAX_SEEN_PROBES = 5; // rings looked at each half second to tell the marks are not covered
const GAP = 5; // from the field's edge: clear of the ring
const ACTIONS = /** @type {const} */ ([
  ["accept", "Accept"], ["undo", "Undo"], ["edit", "Edit"], ["refill", "Fill again"],
  ["save", "Save this answer"], ["hide", "Hide all marks"],
]);
// What a badge must never sit on: anything the person can click or type into.
const INTERACTIVE = "a[href], button, input, select, textarea, label, summary, [contenteditable=''], "
  + "[contenteditable=true], [role=button], [role=link], [role=checkbox], [role=radio], [role=combobox], "
  + "[role=option], [role=tab], [role=switch], [role=textbox], [tabindex]:not([tabindex='-1'])";

const CSS = `
  .layer.probing .badge { pointer-events: none; }
  .ring { position: fixed; box-sizing: border-box; border: 2px solid; border-radius: 4px; pointer-events: none; }
  .badge { position: fixed; width: ${BADGE}px; height: ${BADGE}px; padding: 0; border: 0; border-radius: 9px;
    color: #fff; font: bold 11px/${BADGE}px system-ui, sans-serif; text-align: center; cursor: pointer;
    pointer-events: auto; box-shadow: 0 0 0 1px #fff; }
  .badge:focus-visible, .menu button:focus-visible { outline: 3px solid #1d4ed8; outline-offset: 1px; }
  .hidden { display: none; }
  .menu { position: fixed; pointer-events: auto; display: flex; flex-direction: column; min-width: 180px;
    max-width: 280px; padding: 4px; background: #fff; color: #111827; border: 1px solid #9ca3af;
    border-radius: 8px; box-shadow: 0 6px 20px rgba(0,0,0,.2); font: 13px/1.4 system-ui, sans-serif; }
  .menu p { margin: 4px 8px 6px; color: #374151; }
  .menu button { font: inherit; text-align: left; padding: 6px 8px; border: 0; border-radius: 4px;
    background: none; color: inherit; cursor: pointer; }
  .menu button:hover { background: #f3f4f6; }`;

const HOST_CSS = ["all: initial", "display: block", "position: fixed", "inset: 0", "width: 100vw", "height: 100vh",
  "max-width: none", "max-height: none", "margin: 0", "padding: 0", "border: 0", "background: transparent",
  "overflow: visible", "pointer-events: none", "z-index: 2147483646", "visibility: visible", "opacity: 1"]
  .map((d) => `${d} !important;`).join(" ");

/** @type {{host: HTMLElement, layer: HTMLElement, marks: Mark[], menu: HTMLElement|null}|null} */
let overlay = null;
let frameRequested = false;
/** @type {(() => void)|null} */
let stopListening = null;
/** @type {(fieldId: string, action: MarkAction) => void} */
let onAction = () => {};
/** @type {(seen: boolean) => void} */
let onSeen = () => {};

/**
 * Which mark a decision and its apply result earn, and the tooltip text.
 * @param {Record<string, any>} decision @param {Record<string, any>|undefined} result
 * @returns {{kind: MarkItem["kind"], tip: string}}
 */
function classify(decision, result) {
  const pct = Math.round(Number(decision.confidence ?? 0) * 100);
  const why = String(decision.why || "");
  const status = result?.status ?? "skipped";
  if (decision.asking) return { kind: "asking", tip: "Asking the model; its answer comes in a moment." };
  if (status === "user_edited") return { kind: "edited", tip: "You changed this; Relay kept your value." };
  if (status === "applied") {
    if (decision.status === "flag") return { kind: "review", tip: `Please check this (${pct}% sure). ${why}`.trim() };
    return { kind: "filled", tip: `Filled (${pct}% sure). ${why}`.trim() };
  }
  if (status === "refused" || status === "not_found") {
    return { kind: "review", tip: `Relay could not fill this: ${result?.detail || "the page did not take it"}. ${why}`.trim() };
  }
  return { kind: "left", tip: why || "Left for you." };
}

/** Where the badges' actions go (main.js). @param {(fieldId: string, action: MarkAction) => void} fn */
function onMarkAction(fn) {
  onAction = fn;
}

/**
 * Told whether the marks can be seen when they are drawn, and again whenever that changes (a page
 * script may restyle or remove them later). @param {(seen: boolean) => void} fn
 */
function onMarksSeen(fn) {
  onSeen = fn;
}

/**
 * Show marks for ITEMS in this frame. A field the latest plan only kept (`keep`) keeps the mark an
 * earlier fill gave it; every other mark is replaced.
 * @param {MarkItem[]} items
 */
function showMarks(items) {
  const earlier = new Map((overlay?.marks ?? []).map((m) => [m.item.tracked, m.item]));
  const merged = items.map((item) => (item.keep && earlier.get(item.tracked)) || item);
  clearMarks();
  const host = document.createElement("relay-marks");
  host.setAttribute(RELAY_UI_ATTR, "");
  // Out of the page CSS's reach: every property of the host set inline and !important (which no
  // stylesheet rule outranks, whatever its selector or layer), the host in the top layer (above
  // every z-index, clear of the ancestors' clipping and transforms), the rest in a closed shadow
  // root with its own adopted sheet.
  host.style.cssText = HOST_CSS;
  host.popover = "manual";
  const root = host.attachShadow({ mode: "closed" });
  const layer = document.createElement("div");
  layer.className = "layer";
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
    root.append(layer);
  } catch {
    const style = document.createElement("style"); // browsers without constructed sheets here
    style.textContent = CSS;
    root.append(style, layer);
  }
  (document.documentElement ?? document.body).append(host);
  const under = new Set(topLayer()); // drawn below the marks, which open after them
  try {
    host.showPopover();
  } catch {
    // No popover support: the fixed, !important host still sits above the page's z-indexes.
  }
  const shown = { host, layer, marks: /** @type {Mark[]} */ ([]), menu: /** @type {HTMLElement|null} */ (null) };
  overlay = shown;
  for (const item of merged) {
    const ring = document.createElement("div");
    ring.className = "ring";
    const badge = document.createElement("button");
    badge.type = "button";
    badge.className = "badge";
    // Out of the page's tab order: from the keyboard the side panel offers the same actions.
    badge.tabIndex = -1;
    badge.addEventListener("click", (event) => {
      event.stopPropagation();
      openMenu(mark);
    });
    const mark = { item, ring, badge };
    layer.append(ring, badge);
    shown.marks.push(mark);
    paint(mark);
  }
  const schedule = () => {
    if (frameRequested) return;
    frameRequested = true;
    requestAnimationFrame(() => {
      frameRequested = false;
      position();
    });
  };
  const closeOnOutside = (/** @type {Event} */ event) => {
    if (shown.menu && !event.composedPath().includes(shown.menu)) closeMenu();
  };
  const closeOnEscape = (/** @type {KeyboardEvent} */ event) => {
    if (event.key === "Escape" && shown.menu) closeMenu();
  };
  window.addEventListener("scroll", schedule, { capture: true, passive: true });
  window.addEventListener("resize", schedule, { passive: true });
  window.addEventListener("pointerdown", closeOnOutside, true);
  window.addEventListener("keydown", closeOnEscape, true);
  const unsubscribe = onPersonEdit((el) => {
    for (const m of shown.marks) {
      if (m.item.tracked === el) setMark(m.item.field_id, "edited", "You changed this; Relay keeps your value.");
    }
  });
  let seen = true;
  const look = () => {
    const now = marksSeen(host, shown.marks, under);
    if (now !== seen) onSeen((seen = now));
  };
  // Layout can move without scrolling (validation messages appearing, sections expanding).
  const timer = setInterval(() => {
    schedule();
    look();
  }, 500);
  stopListening = () => {
    window.removeEventListener("scroll", schedule, { capture: true });
    window.removeEventListener("resize", schedule);
    window.removeEventListener("pointerdown", closeOnOutside, true);
    window.removeEventListener("keydown", closeOnEscape, true);
    unsubscribe();
    clearInterval(timer);
  };
  position();
  if (merged.length) {
    seen = marksSeen(host, shown.marks, under);
    onSeen(seen);
  }
}

/**
 * Whether the person can see the marks: the overlay drawn at all (shown, not transparent, not of
 * size 0), and not under something the page opened in the top layer after it (a page-sized modal
 * dialog or popover is drawn over Relay's): seen while the middle of one ring on screen is clear
 * of them. What was in the top layer before the marks (`under`: an application in a modal
 * dialog) is below them, until it closes; opened again, it is above.
 * @param {HTMLElement} host @param {Mark[]} marks @param {Set<Element>} under
 */
function marksSeen(host, marks, under) {
  const r = host.getBoundingClientRect();
  const drawn = r.width > 0 && r.height > 0
    && host.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true });
  if (!drawn) return false;
  const open = topLayer();
  for (const el of under) if (!open.includes(el)) under.delete(el);
  const over = open.filter((el) => el !== host && !under.has(el)
    && el.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
    .map((el) => el.getBoundingClientRect());
  if (!over.length) return true;
  const middles = [];
  for (const { ring } of marks) {
    if (middles.length >= MAX_SEEN_PROBES || ring.classList.contains("hidden")) continue;
    const b = ring.getBoundingClientRect();
    if (b.width > 0 && b.bottom > 0 && b.right > 0 && b.top < innerHeight && b.left < innerWidth) {
      middles.push([b.left + b.width / 2, b.top + b.height / 2]);
    }
  }
  const inside = (/** @type {DOMRect} */ o, /** @type {number[]} */ [x, y]) => x >= o.left && x <= o.right && y >= o.top && y <= o.bottom;
  return !middles.length || middles.some((m) => !over.some((o) => inside(o, m)));
}

/** The elements of this document in the top layer now. @returns {Element[]} */
function topLayer() {
  /** @type {Element[]} */
  const out = [];
  for (const selector of [":popover-open", ":modal", ":fullscreen"]) {
    try {
      out.push(...document.querySelectorAll(selector));
    } catch {
      // a browser without this selector has nothing of that kind in its top layer
    }
  }
  return out;
}

/** Remove every mark in this frame. */
function clearMarks() {
  stopListening?.();
  stopListening = null;
  overlay?.host.remove();
  overlay = null;
}

/**
 * Change one field's mark (after accept, an edit, undo); kind null removes it.
 * @param {string} fieldId @param {MarkItem["kind"]|null} kind @param {string} [tip]
 */
function setMark(fieldId, kind, tip = "") {
  if (!overlay) return;
  for (const m of [...overlay.marks]) {
    if (m.item.field_id !== fieldId) continue;
    if (kind === null) {
      m.ring.remove();
      m.badge.remove();
      overlay.marks.splice(overlay.marks.indexOf(m), 1);
      continue;
    }
    m.item.kind = kind;
    if (tip) m.item.tip = tip;
    paint(m);
  }
}

/** How many marks of each kind are shown (tests, diagnostics). */
function markCounts() {
  /** @type {Record<string, number>} */
  const counts = { filled: 0, review: 0, left: 0, edited: 0, asking: 0 };
  for (const m of overlay?.marks ?? []) counts[m.item.kind] += 1;
  return counts;
}

/** Where each badge is drawn, for tests: [{field_id, x, y, shown}]. */
function badgeSpots() {
  return (overlay?.marks ?? []).map((m) => {
    const r = m.badge.getBoundingClientRect();
    return { field_id: m.item.field_id, x: r.left + r.width / 2, y: r.top + r.height / 2, shown: !m.badge.classList.contains("hidden") };
  });
}

/** @param {Mark} mark */
function paint({ item, ring, badge }) {
  ring.style.borderColor = COLORS[item.kind];
  badge.style.background = COLORS[item.kind];
  badge.textContent = SYMBOLS[item.kind];
  badge.title = `Relay: ${item.tip}`;
  badge.setAttribute("aria-label", `Relay: ${item.tip}`);
  badge.dataset.kind = item.kind;
}

/** @param {Mark} mark */
function openMenu(mark) {
  if (!overlay) return;
  closeMenu();
  const menu = document.createElement("div");
  menu.className = "menu";
  menu.setAttribute("role", "menu");
  menu.setAttribute("aria-label", "Relay: this field");
  const tip = document.createElement("p");
  tip.textContent = mark.item.tip;
  menu.append(tip);
  for (const [action, text] of ACTIONS) {
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("role", "menuitem");
    button.textContent = text;
    button.addEventListener("click", (event) => {
      event.stopPropagation();
      closeMenu();
      onAction(mark.item.field_id, action);
    });
    menu.append(button);
  }
  overlay.layer.append(menu);
  overlay.menu = menu;
  const at = mark.badge.getBoundingClientRect();
  const box = menu.getBoundingClientRect();
  const left = Math.max(4, Math.min(at.left, window.innerWidth - box.width - 4));
  const below = at.bottom + GAP + box.height <= window.innerHeight;
  const top = below ? at.bottom + GAP : Math.max(4, at.top - GAP - box.height);
  Object.assign(menu.style, { left: `${left}px`, top: `${top}px` });
  /** @type {HTMLElement|null} */ (menu.querySelector("button"))?.focus();
}

function closeMenu() {
  overlay?.menu?.remove();
  if (overlay) overlay.menu = null;
}

function position() {
  if (!overlay) return;
  const marks = overlay.marks;
  // Every read before any write: a style write between two reads forces a fresh layout per mark.
  const rects = marks.map(({ item }) => unionRect(item.targets.filter((t) => t.isConnected)));
  overlay.layer.classList.add("probing");
  const spots = marks.map((m, i) => (rects[i] ? badgeSpot(/** @type {DOMRect} */ (rects[i]), m.item.targets) : null));
  overlay.layer.classList.remove("probing");
  for (const [i, { ring, badge }] of marks.entries()) {
    const rect = rects[i];
    ring.classList.toggle("hidden", !rect);
    badge.classList.toggle("hidden", !spots[i]);
    if (rect) {
      // Just outside the field: its own border and text stay readable (the ring lets clicks through).
      Object.assign(ring.style, {
        left: `${rect.left - 3}px`, top: `${rect.top - 3}px`, width: `${rect.width + 6}px`, height: `${rect.height + 6}px`,
      });
    }
    const spot = spots[i];
    if (spot) Object.assign(badge.style, { left: `${spot.x}px`, top: `${spot.y}px` });
  }
}

/**
 * Beside the field, right of it or else left of it, where nothing the person can use lies under
 * the badge; null when there is no such place (the ring alone marks the field then).
 * @param {DOMRect} rect @param {Element[]} own
 * @returns {{x: number, y: number}|null}
 */
function badgeSpot(rect, own) {
  const y = rect.top + Math.max(0, Math.min(rect.height, 28) - BADGE) / 2;
  for (const x of [rect.right + GAP, rect.left - GAP - BADGE]) {
    if (x < 0 || y < 0 || x + BADGE > window.innerWidth || y + BADGE > window.innerHeight) continue;
    if (freeAt(x, y, own)) return { x, y };
  }
  return null;
}

/** @param {number} x @param {number} y @param {Element[]} own */
function freeAt(x, y, own) {
  for (const [dx, dy] of [[1, 1], [BADGE - 1, 1], [1, BADGE - 1], [BADGE - 1, BADGE - 1], [BADGE / 2, BADGE / 2]]) {
    const hit = document.elementFromPoint(x + dx, y + dy);
    if (!hit || hit === overlay?.host) continue;
    if (own.some((t) => t === hit || t.contains(hit))) return false;
    if (hit.closest(INTERACTIVE)) return false;
  }
  return true;
}

relayContent.marks = {
  classify, onMarkAction, onMarksSeen, showMarks, clearMarks, setMark, markCounts, badgeSpots,
};
})();
