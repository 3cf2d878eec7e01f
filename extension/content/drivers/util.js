// Shared helpers for the widget drivers: waiting, person-like events, option matching.
// Everything here works from a content script's isolated world: it only touches the DOM and
// dispatches DOM events, which page listeners (React, jQuery, …) receive like any other event.

(() => {
"use strict";
/**
 * @typedef {{value: string, text: string, selected: boolean}} Option
 * @typedef {{status: "applied"|"refused"|"not_found"|"skipped", detail: string, value_after: string}} ApplyOutcome
 * @typedef {{action?: string, value?: string, values?: string[], checked?: boolean|null,
 *   file?: {name: string, mime?: string, data_b64?: string}|null, place?: string[][]}} Decision
 * A widget driver. `read` is what the person sees now, synchronously and without opening
 * anything (edit tracking compares it before and after); `describe` may open a menu briefly;
 * `visibleParts` (optional) names what a person sees of a control the page hides or shrinks;
 * `outline` (optional) is the one element a mark rings, where the control is not what shows;
 * `clear` (optional) takes the widget's choice away as a person would, for undo.
 * @typedef {{name: string, matches: (el: Element) => boolean,
 *   read: (el: Element) => string,
 *   describe: (el: Element) => Promise<Record<string, unknown>>,
 *   apply: (el: Element, decision: Decision) => Promise<ApplyOutcome>,
 *   clear?: (el: Element) => Promise<ApplyOutcome>,
 *   visibleParts?: (el: Element) => Element[], outline?: (el: Element) => Element}} Driver
 */

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One turn of the page's task queue: a MessageChannel message runs after tasks already queued
 * (React's scheduler posts its renders the same way) and is not clamped like nested timers.
 * @returns {Promise<void>}
 */
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/**
 * Lets the page react to what a driver just did (framework re-renders, handlers that undo a
 * value in a zero-delay timer) before it is read back: a timer turn, then a task turn. A few
 * milliseconds, where a fixed sleep cost tens per field.
 * @returns {Promise<void>}
 */
async function settle() {
  await sleep(0);
  await nextTask();
}

/**
 * Polls `probe` until it returns something truthy or the time runs out. The first checks come
 * right after the page's next tasks (most widgets react within one), later ones back off to
 * `interval`, so a quick widget costs a few milliseconds and a slow one no extra work.
 * @template T
 * @param {() => T} probe
 * @param {number} [timeout]
 * @param {number} [interval]
 * @returns {Promise<T|null>}
 */
async function waitFor(probe, timeout = 1500, interval = 20) {
  const end = performance.now() + timeout;
  for (let round = 0; ; round += 1) {
    let got;
    try { got = probe(); } catch { got = null; }
    if (got) return got;
    if (performance.now() > end) return null;
    if (round < 2) await nextTask();
    else await sleep(Math.min(interval, 2 ** (round - 1)));
  }
}

/**
 * Words that only prompt for a choice, in the languages the rules know ("Select…", "-- Please
 * choose --", "— Make a Selection —", "Bitte wählen", "Sélectionnez", "Seleccione", "Kies…").
 */
const PROMPT = new RegExp("^[\\s\\-–—.…*:]*(please\\s+|bitte\\s+|veuillez\\s+)?("
  + "select|selecione|seleccion[ae]r?|s[ée]lectionne[zr]?|s[ée]lection|selecteer|choose|choisi(r|ssez)|pick|"
  + "make\\s+a\\s+(selection|choice)|none\\s+selected|(aus)?w(ä|ae)hlen|auswahl|escolh(a|er)|kies|"
  + "maak\\s+een\\s+keuze)(?![\\p{L}])", "iu");

/** Whether an option's or button's text only prompts for a choice (or is blank or dashes). @param {string} text */
function isPromptText(text) {
  const t = norm(text).replace(/[\u200b▼▾⌄]/g, "").trim();
  return !t || /^[-–—_.…\s]+$/.test(t) || PROMPT.test(t);
}

/**
 * A <select> option that only prompts: value "" (whatever it says), or value "-1" / "0" or the
 * first option when its text prompts (Taleo's "Select..." is value -1). Chosen, it is no answer.
 * @param {HTMLOptionElement} o
 */
function isPlaceholderOption(o) {
  if (o.value === "") return true;
  if (o.value === "-1" || o.value === "0" || o.index === 0) return isPromptText(o.text);
  return false;
}

/** Collapses white space. @param {unknown} s */
function norm(s) {
  return String(s ?? "").replace(/[\s\u00a0]+/g, " ").trim();
}

/** Comparison form: no accents, no case, no trailing required-star. @param {unknown} s */
function fold(s) {
  return norm(s).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/\s*\*$/, "")
    .toLowerCase();
}

/**
 * The same words, whatever the spacing: a button's text ("United States +1") and its option's
 * run-together spans ("United States+1") name one choice.
 * @param {string} a @param {string} b
 */
function sameText(a, b) {
  return fold(a).replace(/\s+/g, "") === fold(b).replace(/\s+/g, "");
}

/** @param {ApplyOutcome["status"]} status @param {string} detail @param {string} [valueAfter] */
function outcome(status, detail, valueAfter = "") {
  return { status, detail, value_after: valueAfter };
}

/**
 * An input that only mirrors an ARIA choice button right before it for the form's sake (Radix's
 * "bubble" inputs after its checkbox, radio and switch buttons): hidden from assistive tech, out
 * of the tab order, following the button's state one way. The button is the control.
 * @param {Element} el
 */
function isMirrorInput(el) {
  return el instanceof HTMLInputElement && isKeptFromPerson(el)
    && Boolean(el.previousElementSibling?.matches("[role=checkbox], [role=radio], [role=switch]"));
}

/**
 * Hidden from assistive tech and out of the tab order: a control a library keeps for the form's
 * sake while the person uses another (a mirror input, a model select).
 * @param {Element} el
 */
function isKeptFromPerson(el) {
  return el.getAttribute("aria-hidden") === "true" && /** @type {HTMLElement} */ (el).tabIndex === -1;
}

/** Whether an element takes up space and is not hidden by CSS. @param {Element|null} el */
function isVisible(el) {
  if (!el || !el.isConnected) return false;
  const style = getComputedStyle(el);
  if (style.visibility === "hidden" || style.display === "none") return false;
  return el.getClientRects().length > 0;
}

/** The root (document or shadow root) an element lives in. @param {Element} el */
function rootOf(el) {
  const root = el.getRootNode();
  return /** @type {Document|ShadowRoot} */ (root instanceof ShadowRoot || root instanceof Document
    ? root : document);
}

/** Resolves an id reference (aria-controls, aria-owns) in the element's root or document. */
function byId(/** @type {Element} */ el, /** @type {string|null} */ id) {
  if (!id) return null;
  const first = id.trim().split(/\s+/)[0];
  const root = rootOf(el);
  return root.getElementById?.(first) ?? el.ownerDocument.getElementById(first);
}

function pointAt(/** @type {Element} */ el) {
  const r = el.getBoundingClientRect();
  return { clientX: r.left + r.width / 2, clientY: r.top + Math.min(r.height / 2, 10) };
}

/**
 * Whether a click on `el` would submit its form (a <button> without a type is a submit button).
 * @param {Element} el
 */
function isSubmitControl(el) {
  const control = el.closest("button, input[type=submit], input[type=image]");
  if (!control) return false;
  if (control instanceof HTMLButtonElement) return control.type === "submit" && control.form !== null;
  return /** @type {HTMLInputElement} */ (control).form !== null;
}

/**
 * Dispatches the pointer and mouse events a person's press makes, in browser order. Like a browser,
 * a mousedown that no listener cancelled focuses the nearest focusable ancestor. Never clicks a
 * control that would submit its form: the press stops short of the click.
 * @param {Element} el
 * @param {string[]} [types]
 */
function press(el, types = ["pointerover", "mouseover", "pointerdown", "mousedown",
  "pointerup", "mouseup", "click"]) {
  const at = pointAt(el);
  const view = el.ownerDocument.defaultView;
  const submits = isSubmitControl(el);
  for (const type of types) {
    if (type === "click" && submits) continue;
    const down = type.endsWith("down");
    const init = { bubbles: true, cancelable: true, composed: true, view, button: 0,
      buttons: down ? 1 : 0, detail: 1, ...at };
    const event = type.startsWith("pointer")
      ? new PointerEvent(type, { ...init, pointerId: 1, pointerType: "mouse", isPrimary: true })
      : new MouseEvent(type, init);
    const kept = el.dispatchEvent(event);
    if (type === "mousedown" && kept) {
      const target = /** @type {HTMLElement|null} */ (el.closest(
        "input, select, textarea, button, a[href], [tabindex], [contenteditable=true]"));
      if (target && target.ownerDocument.activeElement !== target) target.focus({ preventScroll: true });
    }
  }
}

/**
 * Whether `el` is a choice drawn as a <button> with no type inside a form (a yes/no pair built
 * carelessly): a submit button by HTML's rules, though the page means it as an answer.
 * @param {Element} el
 */
function isUntypedFormButton(el) {
  const control = el.closest("button");
  return control instanceof HTMLButtonElement && !control.hasAttribute("type") && control.form !== null;
}

/**
 * The click a person's press ends with, for a choice that is an untyped form button: the page's
 * click handlers record the answer, while the click's default action, submitting the form, is
 * cancelled before the click is dispatched (a cancelled click never starts a submission).
 * @param {Element} el
 */
function clickCancelled(el) {
  const init = { bubbles: true, cancelable: true, composed: true, view: el.ownerDocument.defaultView,
    button: 0, buttons: 0, detail: 1, ...pointAt(el) };
  const event = new MouseEvent("click", init);
  event.preventDefault();
  el.dispatchEvent(event);
}

const KEY_CODES = /** @type {Record<string, [string, number]>} */ ({
  Enter: ["Enter", 13], Tab: ["Tab", 9], Escape: ["Escape", 27], ArrowDown: ["ArrowDown", 40],
  ArrowUp: ["ArrowUp", 38], Backspace: ["Backspace", 8], " ": ["Space", 32],
});

/**
 * Dispatches keydown (+ keyup) for a named key. Returns false when a listener cancelled keydown.
 * @param {Element} el @param {string} key @param {{up?: boolean, shiftKey?: boolean}} [opts]
 */
function keyPress(el, key, opts = {}) {
  const [code, keyCode] = KEY_CODES[key] ?? [`Key${key.toUpperCase()}`, key.toUpperCase().charCodeAt(0)];
  const init = { key, code, keyCode, which: keyCode, bubbles: true, cancelable: true,
    composed: true, shiftKey: Boolean(opts.shiftKey), view: el.ownerDocument.defaultView };
  const kept = el.dispatchEvent(new KeyboardEvent("keydown", init));
  if (opts.up !== false) el.dispatchEvent(new KeyboardEvent("keyup", init));
  return kept;
}

/** Sets a form control's value through the native setter so React notices. */
function setNativeValue(/** @type {HTMLInputElement|HTMLTextAreaElement|HTMLSelectElement} */ el,
  /** @type {string} */ value) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
    : el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  const setter = Object.getOwnPropertyDescriptor(proto, "value")?.set;
  if (setter) setter.call(el, value); else el.value = value;
}

/** @param {Element} el @param {string[]} types */
function fire(el, types) {
  for (const type of types) {
    const event = type === "input"
      ? new InputEvent("input", { bubbles: true, composed: true, inputType: "insertText" })
      : new Event(type, { bubbles: true, composed: true });
    el.dispatchEvent(event);
  }
}

/** What the decision asks for, as a list of wanted option values or texts. @param {Decision} d */
function wantedOf(d) {
  const values = (d.values ?? []).map(norm).filter(Boolean);
  if (values.length) return values;
  const v = norm(d.value);
  return v ? [v] : [];
}

/**
 * Picks the option that best matches `wanted`: exact value, exact text, folded text, then a
 * unique word-prefix match. Ambiguous or weak matches give null: a wrong answer is worse than none.
 * @template {{value: string, text: string}} O
 * @param {O[]} options @param {string} wanted
 * @returns {O|null}
 */
function matchOption(options, wanted) {
  const w = norm(wanted);
  const fw = fold(w);
  if (!fw) return null;
  // Word edges only where the wanted text itself starts / ends with a word character.
  const edge = /\w$/.test(fw) ? "\\b" : "";
  const lead = /^\w/.test(fw) ? "\\b" : "";
  const tiers = [
    (/** @type {O} */ o) => o.value === w,
    (/** @type {O} */ o) => norm(o.text) === w,
    (/** @type {O} */ o) => fold(o.text) === fw || fold(o.value) === fw,
    // Option text with a suffix ("White (Not Hispanic) (United States of America)", "+971").
    (/** @type {O} */ o) => fw.length >= 2 && new RegExp(`^${escapeRe(fw)}${edge}`).test(fold(o.text)),
    (/** @type {O} */ o) => fw.length >= 4 && new RegExp(`${lead}${escapeRe(fw)}${edge}`).test(fold(o.text)),
  ];
  for (const test of tiers) {
    const hits = options.filter(test);
    if (hits.length === 1) return hits[0];
    if (hits.length > 1) {
      // Several equal hits on an exact tier: take the first (duplicates), never on fuzzy tiers.
      if (tiers.indexOf(test) <= 2) return hits[0];
      return null;
    }
  }
  return null;
}

/**
 * For a typeahead's search results: a clear match, else the first suggestion that starts with
 * the typed text ("San Francisco" → "San Francisco, California, United States"). Only for
 * longer texts: a short "Yes" must never pick "Yes, I have a disability".
 * @template {{value: string, text: string}} O
 * @param {O[]} options @param {string} wanted
 * @returns {O|null}
 */
function matchSuggestion(options, wanted) {
  const hit = matchOption(options, wanted);
  if (hit) return hit;
  const fw = fold(wanted);
  if (fw.length < 5) return null;
  return options.find((o) => fold(o.text).startsWith(fw) && /^($|[\s,(/-])/.test(fold(o.text).slice(fw.length)))
    ?? null;
}

/**
 * Whether a places service's suggestion names the person's place: it starts with the city, and
 * each other part it names (between commas; postal codes aside) is the place's region or
 * country, at least one of them. "San Francisco, CA, USA" names San Francisco, California, US;
 * "San Francisco, Córdoba, Argentina" and "San Francisco de Macorís" do not.
 * @param {string} text @param {string[][]} place  [city writings, region writings, country writings]
 */
function namesPlace(text, place) {
  const [cities = [], ...rest] = place;
  const t = fold(text);
  const city = cities.map(fold).find((c) => c && t.startsWith(c) && /^($|[\s,(/-])/.test(t.slice(c.length)));
  if (!city) return false;
  const plain = (/** @type {string} */ w) => fold(w).replace(/\./g, "").replace(/\b\d[\d\s-]*\b/g, "").trim();
  const known = new Set(rest.flat().map(plain).filter(Boolean));
  const parts = t.slice(city.length).split(/[,()/]/).map(plain).filter(Boolean);
  return parts.length > 0 && parts.every((p) => known.has(p));
}

/** The decision's place, as [city, region, country] writings; [] when it names none. @param {Decision} d */
function placeOf(d) {
  return Array.isArray(d.place) ? d.place.filter((p) => Array.isArray(p) && p.length) : [];
}

/** @param {string} s */
function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Visible text of an element, without hidden descendants' noise. @param {Element|null} el */
function textOf(el) {
  if (!el) return "";
  const clone = /** @type {Element} */ (el.cloneNode(true));
  for (const junk of clone.querySelectorAll("desc, title, script, style, [aria-hidden=true]")) {
    junk.remove();
  }
  return norm(clone.textContent);
}

/** The parent, across a shadow root's edge. @param {Element} el @returns {Element|null} */
function upOf(el) {
  const root = el.getRootNode();
  return el.parentElement ?? (root instanceof ShadowRoot ? root.host : null);
}

/**
 * Remembers focus and every scroll position that opening a menu can move (the window and each
 * scrolling box around the control; a portal's focus scrolls them) and gives them back exactly:
 * describe must leave things as it found them.
 * @param {Element} el
 */
function keepFocus(el) {
  const doc = el.ownerDocument;
  const root = rootOf(el);
  const before = /** @type {HTMLElement|null} */ (root.activeElement ?? doc.activeElement);
  const scrollX = doc.defaultView?.scrollX ?? 0;
  const scrollY = doc.defaultView?.scrollY ?? 0;
  /** @type {{box: Element, left: number, top: number}[]} */
  const boxes = [];
  for (let node = upOf(el); node && node !== doc.documentElement; node = upOf(node)) {
    if (node.scrollHeight > node.clientHeight || node.scrollWidth > node.clientWidth) {
      boxes.push({ box: node, left: node.scrollLeft, top: node.scrollTop });
    }
  }
  return () => {
    if (before && before.isConnected && before !== doc.body) before.focus({ preventScroll: true });
    else if (doc.activeElement instanceof HTMLElement && doc.activeElement !== doc.body) {
      doc.activeElement.blur();
    }
    for (const { box, left, top } of boxes) {
      if (box.isConnected && (box.scrollLeft !== left || box.scrollTop !== top)) {
        box.scrollTo({ left, top, behavior: "instant" });
      }
    }
    if (doc.defaultView && (doc.defaultView.scrollX !== scrollX || doc.defaultView.scrollY !== scrollY)) {
      doc.defaultView.scrollTo({ left: scrollX, top: scrollY, behavior: "instant" });
    }
  };
}

/** Whether the control is disabled or read-only for a person. @param {Element} el */
function isLocked(el) {
  if (el.matches(":disabled") || el.getAttribute("aria-disabled") === "true") return "disabled";
  if (el.getAttribute("aria-readonly") === "true") return "read-only";
  if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.readOnly) {
    return "read-only";
  }
  return "";
}

/** The label text a person reads next to a choice control (radio, checkbox). @param {HTMLInputElement} input */
function choiceLabel(input) {
  const labels = input.labels ? [...input.labels] : [];
  for (const label of labels) {
    const t = textOf(label);
    if (t) return t;
  }
  const aria = input.getAttribute("aria-label");
  if (aria) return norm(aria);
  const by = input.getAttribute("aria-labelledby");
  if (by) {
    const t = by.split(/\s+/).map((id) => textOf(byId(input, id))).join(" ");
    if (norm(t)) return norm(t);
  }
  // Text right after the input (Jobvite, plain markup without <label>).
  let node = input.nextSibling;
  while (node && node.nodeType === Node.TEXT_NODE && !norm(node.textContent)) node = node.nextSibling;
  if (node && node.nodeType === Node.TEXT_NODE) return norm(node.textContent);
  if (node instanceof Element && !node.matches("input, select, textarea")) return textOf(node);
  return input.value === "on" ? "" : input.value;
}

relayContent["drivers/util"] = {
  sleep, nextTask, settle, waitFor, isPromptText, isPlaceholderOption, norm, fold, sameText, outcome,
  isVisible, rootOf, byId, isSubmitControl, press, isUntypedFormButton, clickCancelled, keyPress,
  setNativeValue, fire, wantedOf, matchOption, matchSuggestion, namesPlace, placeOf, escapeRe,
  textOf, keepFocus, isLocked, choiceLabel, isMirrorInput, isKeptFromPerson,
};
})();
