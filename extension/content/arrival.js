// Has the application arrived in this frame? What the service worker asks before a Fill's
// snapshot (background/arrival.js), so a form that a page builds after load (an SPA booting, a
// turbo-frame swapped in, an application iframe created on window load) is waited for instead of
// answered with "no fields" or with the page's newsletter box. Read-only: nothing here touches
// the page (the observer below only notes when the page last changed).

(() => {
"use strict";
const { isVisible, walkElements } = relayContent.dom;

// A cluster with this many answerable controls, or with a file upload, reads as an application;
// a site search, a log-in, a newsletter or talent-community sign-up has fewer. Password boxes
// count: an account step (email, password, confirmation), as Workday, Taleo and SuccessFactors
// open their applications with, is the application's first step; a log-in box has two controls.
const APPLICATION_CONTROLS = 3;
const CONTROL = [
  "input", "select", "textarea", "[contenteditable=true]", "[role=combobox]", "[role=textbox]",
  "[role=listbox]", "[role=radiogroup]", "[role=spinbutton]", "[aria-haspopup=listbox]",
].join(",");
// Controls that say nothing about an application: choices (consent, "keep me posted"), buttons,
// searches.
const NOT_COUNTED = new Set(["hidden", "submit", "button", "reset", "image", "checkbox", "radio", "search"]);

// When this document last added or removed nodes, to tell a page still rendering from a settled
// one. It starts with this module, on the worker's first question; before that nothing is known,
// so the first answer reports a quiet period as long as the module has run.
let lastChange = performance.now();
new MutationObserver(() => { lastChange = performance.now(); })
  .observe(document, { childList: true, subtree: true });

/**
 * @typedef {object} ArrivalState
 * @property {string} ready_state      document.readyState
 * @property {number} since_load_ms    since this document's load event ended (-1: not yet)
 * @property {boolean} application     a visible cluster of controls reads as an application
 * @property {number} controls         visible answerable controls in this frame
 * @property {number} quiet_ms         since this document last added or removed nodes (as far as
 *   this module has watched)
 * @property {number} frames_in_dom    visible iframes with a document to load (compared with the
 *   frames the browser lists under this one: more here means one is still on its way)
 */

/** @returns {ArrivalState} */
function arrivalState() {
  /** @type {Map<Element|Document, number>} cluster (its form, else the document) → controls */
  const clusters = new Map();
  let upload = false;
  let controls = 0;
  let framesInDom = 0;
  for (const el of walkElements(document)) {
    if (el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement) {
      if (hasDocumentToLoad(el) && isVisible(el)) framesInDom += 1;
      continue;
    }
    if (!el.matches(CONTROL)) continue;
    if (el instanceof HTMLInputElement) {
      if (el.type === "file") {
        // Upload widgets hide the real input under a drop zone; its being there is the signal.
        upload ||= !el.closest("[role=search]");
        continue;
      }
      if (NOT_COUNTED.has(el.type)) continue;
    }
    if (el.closest("[role=search]") || !isVisible(el)) continue;
    controls += 1;
    const cluster = /** @type {HTMLInputElement} */ (el).form ?? el.closest("form, [role=form]") ?? document;
    clusters.set(cluster, (clusters.get(cluster) ?? 0) + 1);
  }
  const application = upload || [...clusters.values()].some((n) => n >= APPLICATION_CONTROLS);
  return {
    ready_state: document.readyState,
    since_load_ms: sinceLoad(),
    application,
    controls,
    quiet_ms: Math.round(performance.now() - lastChange),
    frames_in_dom: framesInDom,
  };
}

/** @param {HTMLIFrameElement|HTMLFrameElement} el */
function hasDocumentToLoad(el) {
  if (el instanceof HTMLIFrameElement && el.srcdoc) return true;
  const src = el.getAttribute("src") ?? "";
  return Boolean(src) && !/^(about:|javascript:)/i.test(src);
}

function sinceLoad() {
  const [nav] = /** @type {PerformanceNavigationTiming[]} */ (performance.getEntriesByType("navigation"));
  if (!nav || !nav.loadEventEnd) return document.readyState === "complete" ? performance.now() : -1;
  return Math.max(0, performance.now() - nav.loadEventEnd);
}

relayContent.arrival = { arrivalState };
})();
