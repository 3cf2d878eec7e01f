// "Fill new fields as they appear" (a setting, off by default): once Relay has filled this frame,
// watch for form fields that show up later — the next step of a wizard, a section that opens — and
// tell the service worker, which fills the tab again. It only reports; the plan keeps every value
// already there, and nothing here touches the page.

(() => {
"use strict";
const { isVisible, walkElements } = relayContent.dom;
const { registry } = relayContent.snapshot;

const SETTLE_MS = 400;
const SETTING = "autoFillNewFields";
const FIELD_SELECTOR = [
  "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image])",
  "select", "textarea", "[contenteditable=true]", "[role=combobox]", "[role=textbox]",
].join(",");

/** @type {MutationObserver|null} */
let observer = null;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let timer;
let enabled = false;
/** Elements already reported once: a field the snapshot skips must not trigger fills forever. */
const reported = new WeakSet();

/** Start watching (idempotent). Called after this frame applied a plan. */
async function watchForNewFields() {
  if (observer) return;
  enabled = (await chrome.storage.local.get(SETTING))[SETTING] === true;
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === "local" && SETTING in changes) enabled = changes[SETTING].newValue === true;
  });
  observer = new MutationObserver(() => {
    if (!enabled) return;
    clearTimeout(timer);
    timer = setTimeout(reportNewFields, SETTLE_MS);
  });
  observer.observe(document.documentElement, {
    childList: true, subtree: true, attributes: true,
    attributeFilter: ["hidden", "style", "class", "aria-hidden", "disabled"],
  });
}

function reportNewFields() {
  /** @type {Set<Element>} */
  const known = new Set();
  for (const entry of registry.values()) {
    if (entry.el) known.add(entry.el);
    for (const member of entry.members ?? []) known.add(member);
  }
  let fresh = false;
  for (const el of walkElements(document)) {
    if (!el.matches(FIELD_SELECTOR) || known.has(el) || reported.has(el)) continue;
    if (!isVisible(el)) continue;
    reported.add(el);
    fresh = true;
  }
  if (fresh) chrome.runtime.sendMessage({ relay_bg: "fields-appeared" }).catch(() => {});
}

relayContent.watch = { watchForNewFields };
})();
