// What a frame of another site shows, asked without putting Relay's content script into it (ad,
// chat and analytics frames never get Relay): whether it holds a form that reads as an
// application, and whether the person's focus is in one of its fields (the frame they clicked
// in). inject.js runs `frameProbe` with chrome.scripting in Relay's isolated world, so the page
// cannot answer for it; it leaves nothing behind. The function is serialised into the frame:
// it uses nothing from outside its body.

/**
 * @returns {{application: boolean, focused: boolean}}
 */
export function frameProbe() {
  const CONTROL = "input, select, textarea, [contenteditable=true], [role=combobox], [role=textbox]";
  const NOT_COUNTED = new Set(["hidden", "submit", "button", "reset", "image", "checkbox", "radio", "search"]);
  const APPLICATION_CONTROLS = 3; // as content/arrival.js counts a cluster
  /** @type {Map<Element|Document, number>} */
  const clusters = new Map();
  let upload = false;
  /** @param {Element} el */
  const seen = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
  };
  /** @param {Document|ShadowRoot} root */
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.shadowRoot) walk(el.shadowRoot);
      if (!el.matches(CONTROL) || el.closest("[role=search]")) continue;
      if (el instanceof HTMLInputElement && el.type === "file") {
        upload = true;
        continue;
      }
      if (el instanceof HTMLInputElement && NOT_COUNTED.has(el.type)) continue;
      if (!seen(el)) continue;
      const cluster = /** @type {HTMLInputElement} */ (el).form ?? el.closest("form, [role=form]") ?? document;
      clusters.set(cluster, (clusters.get(cluster) ?? 0) + 1);
    }
  };
  walk(document);
  // The browser keeps an element focused only in the frame that has the focus (or had it last,
  // when the person then clicked Relay's button).
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  const focused = Boolean(active && active !== document.body && active.matches(CONTROL));
  return { application: upload || [...clusters.values()].some((n) => n >= APPLICATION_CONTROLS), focused };
}
