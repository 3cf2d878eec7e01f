// What a person sees of each field: the elements the visibility check (visibility.js) looks at
// for a control, since pages show many controls through something else (a widget's box, a styled
// label, an Upload button), and which of this document's iframes are which frames.

(() => {
"use strict";
const { isPartOfWidget } = relayContent["drivers/index"];
const { composedParent, textOf, walkElements } = relayContent.dom;
const { labelsOf } = relayContent.labels;
const { perceive } = relayContent.visibility;

/** @typedef {import("./snapshot.js").Entry} Entry */

/**
 * What a person may see a field through (seeing one is enough), and what counts as its own
 * pixels when checking that nothing covers it: a text box only through itself (a hidden one with
 * a visible label is a honeypot), a styled choice through its label, a widget through its parts.
 * @param {Entry} entry @returns {import("./visibility.js").SightItem}
 */
function sightItem(entry) {
  if (entry.kind === "group") {
    const targets = entry.members.flatMap((m) => [m, ...labelsOf(m)]);
    return { targets, own: targets };
  }
  const el = entry.el;
  const labels = labelsOf(el);
  const targets = [el];
  if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) targets.push(...labels);
  const under = overlaidBox(el);
  if (under) targets.push(under);
  if (entry.driver) {
    // Libraries hide the control they drive (select2's <select>) and show their own parts.
    for (const sib of [el.previousElementSibling, el.nextElementSibling]) {
      if (sib && isPartOfWidget(sib)) targets.push(sib);
    }
    try {
      targets.push(...(entry.driver.visibleParts?.(el) ?? []));
    } catch (err) {
      console.warn(`Relay: ${entry.driver.name}.visibleParts failed`, err);
    }
  }
  return { targets, own: [...targets, ...labels] };
}

/**
 * The box a transparent choice control is laid over, which shows it: react-phone-number-input's
 * country <select> spread over its flag, a file input over its drop zone. Only for controls whose
 * value a box can show (not text boxes), laid over most of a parent that shows something else.
 * @param {Element} el @returns {Element|null}
 */
function overlaidBox(el) {
  const choice = el instanceof HTMLSelectElement
    || (el instanceof HTMLInputElement && ["file", "checkbox", "radio"].includes(el.type));
  const parent = composedParent(el);
  if (!choice || !parent) return null;
  const style = getComputedStyle(el);
  if (Number(style.opacity) > 0.1 || (style.position !== "absolute" && style.position !== "fixed")) return null;
  const r = el.getBoundingClientRect();
  const p = parent.getBoundingClientRect();
  const overlap = Math.max(0, Math.min(r.right, p.right) - Math.max(r.left, p.left))
    * Math.max(0, Math.min(r.bottom, p.bottom) - Math.max(r.top, p.top));
  if (overlap < 0.5 * p.width * p.height) return null;
  const shows = [...parent.children].some((c) => c !== el) || textOf(parent) !== "";
  return shows ? parent : null;
}

/**
 * Whether the person can see the field now (apply checks again right before writing).
 * @param {Entry} entry @returns {import("./visibility.js").Sight}
 */
function canSee(entry) {
  return perceive([sightItem(entry)])[0];
}

/**
 * This document's iframes, each with its index among the window's child frames (`window[i]`),
 * which the frame itself can find out even across origins (frameIndex): that is how the service
 * worker pairs what a parent says of an iframe with the frame's own snapshot.
 */
function childFrames() {
  /** @type {Map<unknown, Element>} */
  const byWindow = new Map();
  for (const el of walkElements(document)) {
    if (el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement) byWindow.set(el.contentWindow, el);
  }
  /** @type {{el: Element, index: number}[]} */
  const frames = [];
  for (let index = 0; index < window.length && byWindow.size; index += 1) {
    const el = byWindow.get(window[index]);
    if (el) frames.push({ el, index });
  }
  return frames;
}

/** This frame's index among its parent's child frames (-1 for the top frame or when unknown). */
function frameIndex() {
  if (window === window.parent) return -1;
  try {
    for (let i = 0; i < window.parent.length; i += 1) if (window.parent[i] === window) return i;
  } catch {
    // A parent that refuses even this cross-origin access: unknown.
  }
  return -1;
}

relayContent.sight = { sightItem, canSee, childFrames, frameIndex };
})();
