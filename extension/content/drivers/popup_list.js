// Shared mechanics for controls that open a list in a popup (usually a portal on <body>):
// Workday listbox buttons and prompts, Fabric and MUI select buttons. Not a driver itself.
import {
  byId, isVisible, keyPress, norm, press, textOf, waitFor,
} from "./util.js";

const POPUP = "[role=listbox], [role=menu], [data-automation-id=activeListContainer], "
  + "[data-fabric-component=Menu]";
const OPTION = "[role=option], [role=menuitem], [role=menuitemradio], "
  + "[data-automation-id=promptOption], [data-automation-id=promptLeafNode]";

// Lists that look like popups but are not: Workday's chosen-item pills.
const NOT_POPUP = "[data-automation-id=selectedItemList]";
// Rows that look like options but are not: Workday's "back to the categories" row.
const NOT_OPTION = "[data-automation-id=promptBackButton], [data-automation-id=promptEmptyText]";

/** Placeholder texts that mean "nothing chosen yet". */
const PLACEHOLDER =
  /^[-–—\s]*(please\s+)?(select|choose|pick)(\s+(one|an?\s+option|an?\s+answer))?\s*(\.\.\.|…)?[-–—\s]*$/i;

/** @param {string} text */
export function isPlaceholder(text) {
  const t = norm(text).replace(/[\u200b▼▾⌄]/g, "").trim();
  return !t || PLACEHOLDER.test(t);
}

/** A suggestion list rendered right next to a plain input (Lever's location dropdown). */
export const SIBLING_LIST = ".dropdown-container, [class*=dropdown-results], [class*=autocomplete-items], "
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
export function popupOf(trigger) {
  const refs = [trigger.getAttribute("aria-controls"), trigger.getAttribute("aria-owns"),
    trigger.closest("auto-complete")?.getAttribute("for") ?? null];
  for (const ref of refs) {
    const target = byId(trigger, ref);
    if (target && isVisible(target) && target.querySelector(OPTION)) return target;
  }
  const beside = trigger.parentElement?.querySelector(`:scope > :is(${SIBLING_LIST})`);
  if (beside && isVisible(beside) && beside.querySelector(OPTION)) return beside;
  for (const root of rootsOf(trigger)) {
    const candidates = [...root.querySelectorAll(POPUP)]
      .filter((p) => isVisible(p) && !p.contains(trigger) && !p.parentElement?.closest(POPUP)
        && !p.matches(NOT_POPUP) && p.querySelector(OPTION));
    if (candidates.length) return candidates.at(-1) ?? null;
  }
  return null;
}

/**
 * Option elements of a popup (outermost matches only), with their shown text.
 * @param {Element} popup
 * @returns {{value: string, text: string, selected: boolean, el: Element}[]}
 */
export function popupOptions(popup) {
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
 * Opens the popup the way a person does: a press, then ArrowDown (then Space on buttons). Never
 * Enter: a page may submit its form on it.
 * @param {Element} trigger
 * @param {number} [patience]  ms to wait after the press (keys get a little less)
 * @returns {Promise<Element|null>}
 */
export async function openPopup(trigger, patience = 700) {
  const already = trigger.getAttribute("aria-expanded") === "true" ? popupOf(trigger) : null;
  if (already) return already;
  press(trigger);
  let popup = await waitFor(() => popupOf(trigger), patience);
  const keys = trigger.matches("input, textarea") ? ["ArrowDown"] : ["ArrowDown", " "];
  for (const key of keys) {
    if (popup) break;
    /** @type {HTMLElement} */ (trigger).focus?.({ preventScroll: true });
    keyPress(trigger, key);
    popup = await waitFor(() => popupOf(trigger), Math.round(patience * 0.6));
  }
  return popup;
}

/** Closes any popup the trigger opened: Escape, then a press outside. @param {Element} trigger */
export async function closePopup(trigger) {
  if (!popupOf(trigger)) return;
  const doc = trigger.ownerDocument;
  keyPress(doc.activeElement && doc.activeElement !== doc.body ? doc.activeElement : trigger, "Escape");
  if (await waitFor(() => !popupOf(trigger), 300)) return;
  press(doc.body, ["mousedown", "mouseup"]);
  await waitFor(() => !popupOf(trigger), 300);
}
