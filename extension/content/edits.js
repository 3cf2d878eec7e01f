// Tracks which fields Relay filled and which the person changed afterwards, so a second Fill never
// overwrites the person's own words. Relay's own writes are told apart two ways: events Relay
// dispatches are untrusted (isTrusted false), and while Relay operates a control its events are
// ignored (focus, click() and execCommand can produce trusted events).

(() => {
"use strict";
/** @type {WeakMap<Element, string>} what Relay left in each control it filled */
const filledValue = new WeakMap();
/** @type {WeakSet<Element>} controls the person changed after Relay filled them */
const edited = new WeakSet();
/** @type {Set<Element>} controls Relay is operating right now */
const writing = new Set();
/** @type {Set<(el: Element) => void>} */
const editListeners = new Set();
let started = false;

/** Listen for the person's input once per frame. */
function startEditTracking() {
  if (started) return;
  started = true;
  const onEdit = (/** @type {Event} */ event) => {
    if (!event.isTrusted) return;
    const path = event.composedPath();
    const target = path[0];
    if (!(target instanceof Element)) return;
    for (const busy of writing) if (path.includes(busy)) return;
    // The nearest element on the path Relay filled (a radio's group, a combobox's wrapper).
    for (const node of path) {
      if (node instanceof Element && filledValue.has(node)) {
        if (!edited.has(node)) {
          edited.add(node);
          for (const fn of editListeners) fn(node);
        }
        return;
      }
    }
  };
  // Capture at the window: `input` is composed, so typing inside open shadow roots arrives here.
  window.addEventListener("input", onEdit, true);
  window.addEventListener("change", onEdit, true);
}

/**
 * Runs `fn` (sync or async) while events on `els` count as Relay's own.
 * @template T @param {Element[]} els @param {() => T|Promise<T>} fn @returns {Promise<T>}
 */
async function asRelay(els, fn) {
  for (const el of els) writing.add(el);
  try {
    return await fn();
  } finally {
    for (const el of els) writing.delete(el);
  }
}

/** Remember what Relay put in a control. @param {Element} el @param {string} value */
function markFilled(el, value) {
  filledValue.set(el, value);
  edited.delete(el);
}

/** Relay put the control back as it was: no longer Relay's, nor edited. @param {Element} el */
function forgetFilled(el) {
  filledValue.delete(el);
  edited.delete(el);
}

/** Whether the person changed the control after Relay filled it. @param {Element} el @param {string} [current] */
function wasEditedByPerson(el, current) {
  if (edited.has(el)) return true;
  // A change that fired no event (a script, a paste some sites swallow) still counts.
  if (current !== undefined && filledValue.has(el) && filledValue.get(el) !== current) return true;
  return false;
}

/** @param {(el: Element) => void} fn */
function onPersonEdit(fn) {
  editListeners.add(fn);
  return () => editListeners.delete(fn);
}

relayContent.edits = {
  startEditTracking, asRelay, markFilled, forgetFilled, wasEditedByPerson, onPersonEdit,
};
})();
