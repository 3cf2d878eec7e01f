// After an apply: did the form change in a way a later round of the same Fill must look at? An
// answer can reveal a question ("please specify", a race question after "Hispanic or Latino:
// No"), show a section, enable a control (a state list that opens once a country is chosen), or
// give a list new options (the states of the chosen country). The
// service worker asks each frame once the apply is done (background/fill.js); the frame waits
// for the page to go quiet, then compares what it shows with its latest snapshot. Read-only.
// Quiet is counted from Relay's last act on the page (apply.js and room.js note it) or the
// page's last change, whichever is later, not from the question: an apply that ends with fields
// it only left alone has usually given the page its quiet already.

(() => {
"use strict";
const { RELAY_UI_ATTR, isVisible, walkElements } = relayContent.dom;
const { registry } = relayContent.snapshot;
const { canSee } = relayContent.sight;

const QUIET_MS = 150; // the page's own reactions (a re-render, a fetched option list) settle
const MOST_MS = 1_000;
// A Fill that stops before asking (an error, a closed panel) must not leave the observer running.
const WATCH_MOST_MS = 10_000;
const WATCHED = ["hidden", "style", "class", "aria-hidden", "disabled"];
const FIELD_SELECTOR = [
  "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image])",
  "select", "textarea", "[contenteditable=true]", "[role=combobox]", "[role=textbox]", "[role=listbox]",
  "[role=radiogroup]", "[aria-haspopup=listbox]",
].join(",");

/** field id → how many options its native list had at the snapshot */
const optionCounts = new Map();
/** field ids that were disabled or read-only at the snapshot */
const lockedThen = new Set();
/** Field-like elements at the snapshot (widgets' inner parts too), and those hidden then. */
let seen = new WeakSet();
let hiddenThen = new WeakSet();

/** When Relay last acted on the page, and when the page last changed (watched from a snapshot
 * until the question after its apply is answered). */
let actedAt = 0;
let changedAt = 0;
/** @type {MutationObserver|null} */
let observer = null;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let watchTimer;

/** Relay has just acted on the page (typed, chose, pressed): its reaction is waited for. */
function noteActed() {
  actedAt = performance.now();
}

/** The snapshot just taken: what later comparisons start from. */
function rememberSnapshot() {
  if (!observer) {
    observer = new MutationObserver((records) => {
      if (records.every((r) => r.target instanceof Element && r.target.closest(`[${RELAY_UI_ATTR}]`))) return;
      changedAt = performance.now();
    });
    observer.observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: WATCHED });
  }
  clearTimeout(watchTimer);
  watchTimer = setTimeout(stopWatching, WATCH_MOST_MS);
  optionCounts.clear();
  lockedThen.clear();
  for (const entry of registry.values()) {
    if (entry.el instanceof HTMLSelectElement) optionCounts.set(entry.id, entry.el.options.length);
    if (isLocked(entry)) lockedThen.add(entry.id);
  }
  seen = new WeakSet();
  hiddenThen = new WeakSet();
  for (const el of walkElements(document)) {
    if (!el.matches(FIELD_SELECTOR)) continue;
    seen.add(el);
    if (!isVisible(el)) hiddenThen.add(el);
  }
}

/** @returns {Promise<{changed: boolean}>} */
async function formChanged() {
  try {
    await quiet();
    return { changed: hasChanges() };
  } finally {
    stopWatching();
  }
}

/** Ends the watch begun at the snapshot: after the question, or when no question came. */
function stopWatching() {
  clearTimeout(watchTimer);
  watchTimer = undefined;
  observer?.disconnect();
  observer = null;
}

function hasChanges() {
  for (const entry of registry.values()) {
    // A field hidden at the snapshot (covered, transparent, …) that the person can see now, as
    // the snapshot sees it (a honeypot in a collapsed box is rendered, yet nobody sees it).
    const el = entry.kind === "group" ? entry.members[0] : entry.el;
    if (entry.hidden && el?.isConnected && isVisible(el) && canSee(entry).visible) return true;
    if (entry.el instanceof HTMLSelectElement && optionCounts.get(entry.id) !== entry.el.options.length) return true;
    if (lockedThen.has(entry.id) && el?.isConnected && !isLocked(entry)) return true;
  }
  for (const el of walkElements(document)) {
    if (!el.matches(FIELD_SELECTOR) || el.closest(`[${RELAY_UI_ATTR}]`)) continue;
    if ((!seen.has(el) || hiddenThen.has(el)) && isVisible(el)) return true;
  }
  return false;
}

/** Disabled or read-only, as the snapshot reads it (a group: all its members). @param {any} entry */
function isLocked(entry) {
  const els = entry.kind === "group" ? entry.members : [entry.el];
  return els.length > 0 && els.every((/** @type {Element|null} */ el) => el instanceof Element && (
    el.matches(":disabled") || el.getAttribute("aria-disabled") === "true"
    || (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement ? el.readOnly : false)
    || el.getAttribute("aria-readonly") === "true"));
}

/**
 * Resolves once neither Relay nor the page (Relay's own marks aside) changed anything for
 * QUIET_MS, or MOST_MS after the question (a page that never stops changing).
 */
function quiet() {
  const asked = performance.now();
  return new Promise((resolve) => {
    const check = () => {
      const now = performance.now();
      const still = now - Math.max(actedAt, changedAt);
      if (still >= QUIET_MS || now - asked >= MOST_MS) resolve(undefined);
      else setTimeout(check, Math.min(QUIET_MS - still, MOST_MS - (now - asked)));
    };
    check();
  });
}

addEventListener("pagehide", stopWatching);

relayContent.changes = { rememberSnapshot, formChanged, noteActed };
})();
