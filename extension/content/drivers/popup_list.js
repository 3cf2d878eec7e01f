// Shared mechanics for controls that open a list in a popup (usually a portal on <body>):
// Workday listbox buttons and prompts, Fabric and MUI select buttons. Not a driver itself.
(() => {
"use strict";
const { leave } = relayContent.typing;
const {
  byId, isVisible, keyPress, norm, press, textOf, waitFor,
} = relayContent["drivers/util"];

const POPUP = "[role=listbox], [role=menu], [data-automation-id=activeListContainer], "
  + "[data-fabric-component=Menu]";
const OPTION = "[role=option], [role=menuitem], [role=menuitemradio], "
  + "[data-automation-id=promptOption], [data-automation-id=promptLeafNode]";

// Lists that look like popups but are not: Workday's chosen-item pills.
const NOT_POPUP = "[data-automation-id=selectedItemList]";
// Rows that look like options but are not: Workday's "back to the categories" row.
const NOT_OPTION = "[data-automation-id=promptBackButton], [data-automation-id=promptEmptyText]";

/** Placeholder texts that mean "nothing chosen yet". */
const PLACEHOLDER = new RegExp("^[-–—\\s]*(please\\s+|bitte\\s+|veuillez\\s+)?"
  + "(select|choose|pick|make\\s+a\\s+selection|(aus)?wählen|s[ée]lectionne[zr]?|choisi(r|ssez)|seleccion[ae]r?|selecione|kies|selecteer)"
  + "(\\s+(one|an?\\s+option|an?\\s+answer|sie|une\\s+option|una\\s+opci[oó]n|uma\\s+op[cç][aã]o|een\\s+optie))?"
  + "\\s*(\\.\\.\\.|…)?[-–—\\s]*$", "i");

/** @param {string} text */
function isPlaceholder(text) {
  const t = norm(text).replace(/[\u200b▼▾⌄]/g, "").trim();
  return !t || PLACEHOLDER.test(t);
}

/**
 * The list's own "nothing chosen" row, if it has one: an empty value (MUI's "None") or a prompt
 * ("Select One", "–Select–"). Undo chooses it to take an answer back.
 * @param {{value: string, text: string, el: Element}[]} options
 */
function emptyChoice(options) {
  return options.find((o) => o.value === "" || isPlaceholder(o.text)) ?? null;
}

/** Why undo cannot empty a list that has no such row, in the person's words. */
const NO_EMPTY_CHOICE = "This list has no empty choice, so Relay cannot take its answer back. "
  + "Choose the answer you want, or reload the page to start again.";

/** A suggestion list rendered right next to a plain input (Lever's location dropdown). */
const SIBLING_LIST = ".dropdown-container, [class*=dropdown-results], [class*=autocomplete-items], "
  + "[class*=suggestions]";

/** Roots from the trigger's own outwards: its shadow root(s), then the document. @param {Element} el */
function rootsOf(el) {
  /** @type {(Document|ShadowRoot)[]} */
  const roots = [];
  let node = el.getRootNode();
  while (node instanceof ShadowRoot) {
    roots.push(node);
    node = node.host.getRootNode();
  }
  roots.push(node instanceof Document ? node : el.ownerDocument);
  return roots;
}

/**
 * The popup the trigger controls: named by aria-controls / aria-owns / <auto-complete for>, or a
 * suggestion list beside the input, or the newest visible popup in the trigger's shadow roots
 * (SmartRecruiters keeps it there) or the document (portals).
 * @param {Element} trigger
 */
function popupOf(trigger) {
  const refs = [trigger.getAttribute("aria-controls"), trigger.getAttribute("aria-owns"),
    trigger.closest("auto-complete")?.getAttribute("for") ?? null];
  for (const ref of refs) {
    const target = byId(trigger, ref);
    if (target && isVisible(target) && target.querySelector(OPTION)) return target;
  }
  const beside = trigger.parentElement?.querySelector(`:scope > :is(${SIBLING_LIST})`);
  if (beside && isVisible(beside) && beside.querySelector(OPTION)) return beside;
  const before = shownBefore.get(trigger);
  for (const root of rootsOf(trigger)) {
    const candidates = [...root.querySelectorAll(POPUP)]
      .filter((p) => isVisible(p) && !p.contains(trigger) && !p.parentElement?.closest(POPUP)
        && !p.matches(NOT_POPUP) && !before?.has(p) && p.querySelector(OPTION));
    if (candidates.length) return candidates.at(-1) ?? null;
  }
  return null;
}

/** Per trigger: the lists already showing before Relay opened it (another control's). */
const shownBefore = new WeakMap();

/**
 * Remembers which lists show before Relay presses or types into `trigger`, so a list that was
 * already open (an always-visible listbox elsewhere on the page) is never taken for its popup.
 * @param {Element} trigger
 */
function notePopupsBefore(trigger) {
  shownBefore.delete(trigger);
  /** @type {Set<Element>} */
  const seen = new Set();
  for (const root of rootsOf(trigger)) {
    for (const p of root.querySelectorAll(POPUP)) if (isVisible(p)) seen.add(p);
  }
  shownBefore.set(trigger, seen);
}

/**
 * Option elements of a popup (outermost matches only), with their shown text.
 * @param {Element} popup
 * @returns {{value: string, text: string, selected: boolean, el: Element}[]}
 */
function popupOptions(popup) {
  const nodes = [...popup.querySelectorAll(OPTION)]
    .filter((n) => !n.parentElement?.closest(OPTION) && isVisible(n) && !n.matches(NOT_OPTION)
      && n.getAttribute("aria-disabled") !== "true");
  return nodes.map((n) => {
    const labelled = n.getAttribute("data-automation-label")
      ?? n.querySelector("[data-automation-label]")?.getAttribute("data-automation-label");
    const text = norm(labelled ?? textOf(n));
    const value = n.getAttribute("data-value") ?? text;
    const selected = n.getAttribute("aria-selected") === "true" || n.getAttribute("aria-checked") === "true";
    return { value, text, selected, el: n };
  });
}

/**
 * The options of the list a closed trigger names (aria-controls / aria-owns) when the page keeps
 * that list in the DOM while it is closed (intl-tel-input's country list): read without opening
 * anything. Null when the list is not there or holds no options.
 * @param {Element} trigger
 * @returns {{value: string, text: string, selected: boolean}[]|null}
 */
function listedOptions(trigger) {
  for (const ref of [trigger.getAttribute("aria-controls"), trigger.getAttribute("aria-owns")]) {
    const list = byId(trigger, ref);
    if (!list || list.contains(trigger) || !list.matches(POPUP)) continue;
    const nodes = [...list.querySelectorAll(OPTION)]
      .filter((n) => !n.parentElement?.closest(OPTION) && !n.matches(NOT_OPTION)
        && n.getAttribute("aria-disabled") !== "true");
    if (!nodes.length) continue;
    return nodes.map((n) => {
      const text = norm(n.getAttribute("data-automation-label") ?? textOf(n));
      return { value: n.getAttribute("data-value") ?? text, text,
        selected: n.getAttribute("aria-selected") === "true" || n.getAttribute("aria-checked") === "true" };
    });
  }
  return null;
}

/**
 * Opens the popup the way a person does: a press, then ArrowDown (then Space on buttons). Never
 * Enter: a page may submit its form on it.
 * @param {Element} trigger
 * @param {number} [patience]  ms to wait after the press (keys get a little less)
 * @param {{glance?: number}} [opts]  glance: see waitForPopup
 * @returns {Promise<Element|null>}
 */
async function openPopup(trigger, patience = 700, opts = {}) {
  const already = trigger.getAttribute("aria-expanded") === "true" ? popupOf(trigger) : null;
  if (already) return already;
  notePopupsBefore(trigger);
  press(trigger);
  let popup = await waitForPopup(trigger, patience, opts.glance);
  // A typeahead that a press did not open waits for typing: no key probes (glance).
  const keys = opts.glance ? [] : trigger.matches("input, textarea") ? ["ArrowDown"] : ["ArrowDown", " "];
  for (const key of keys) {
    if (popup) break;
    /** @type {HTMLElement} */ (trigger).focus?.({ preventScroll: true });
    keyPress(trigger, key);
    popup = await waitForPopup(trigger, Math.round(patience * 0.6), opts.glance);
  }
  return popup;
}

/**
 * Waits for the trigger's popup. With `glance`, gives up after that many ms unless the trigger
 * says it opened (aria-expanded=true, options still loading): a typeahead that shows nothing
 * until typed into is not waited on for the full patience.
 * @param {Element} trigger @param {number} patience @param {number} [glance]
 */
async function waitForPopup(trigger, patience, glance) {
  if (!glance || glance >= patience) return waitFor(() => popupOf(trigger), patience);
  const expanded = () => trigger.getAttribute("aria-expanded") === "true";
  const first = await waitFor(() => popupOf(trigger) ?? (expanded() ? "expanded" : null), glance);
  if (first && first !== "expanded") return /** @type {Element} */ (first);
  if (!first) return null;
  return waitFor(() => popupOf(trigger), patience - glance);
}

/** Closes any popup the trigger opened: Escape, then a press outside. @param {Element} trigger */
async function closePopup(trigger) {
  if (!popupOf(trigger)) return;
  const doc = trigger.ownerDocument;
  const wasExpanded = trigger.getAttribute("aria-expanded") === "true";
  keyPress(doc.activeElement && doc.activeElement !== doc.body ? doc.activeElement : trigger, "Escape");
  // A list that closes on Escape starts closing within a task or two (the trigger says so even
  // while the list fades out); one that ignores Escape (iCIMS) gets the press outside at once.
  const closing = () => !popupOf(trigger) || (wasExpanded && trigger.getAttribute("aria-expanded") === "false");
  // The press outside as a person makes it: pointer events too (Radix's layers listen for them),
  // and the click that ends it (lists that close on a click elsewhere in the document).
  if (!(await waitFor(closing, 25))) press(doc.body, ["pointerdown", "mousedown", "pointerup", "mouseup", "click"]);
  // A list that closes on the press outside starts at once (the trigger says so while it fades).
  if (await waitFor(closing, 60)) {
    await waitFor(() => !popupOf(trigger), 300);
    return;
  }
  // A list that closes only when its box loses focus (Oracle's cx-select): leave the box, as
  // the press outside does when a person makes it. The caller gives focus back where it was; a
  // list left open would cover the fields below it.
  const focused = doc.activeElement;
  if (focused instanceof HTMLElement && (focused === trigger || focused.contains(trigger) || trigger.contains(focused))) {
    leave(focused);
  }
  await waitFor(() => !popupOf(trigger), 400);
}

relayContent["drivers/popup_list"] = {
  isPlaceholder, emptyChoice, NO_EMPTY_CHOICE, SIBLING_LIST, popupOf, notePopupsBefore,
  popupOptions, listedOptions, openPopup, closePopup,
};
})();
