// Contenteditable editors (rich-text cover letters, role=textbox divs): typed through
// setTextLikeAPerson, which uses execCommand("insertText") so editors see beforeinput/input.
(() => {
"use strict";
const { setTextLikeAPerson } = relayContent.typing;
const { isLocked, norm, outcome, settle } = relayContent["drivers/util"];

/** The editing host (not a nested editable child). @param {Element} el */
function hostOf(el) {
  let host = /** @type {HTMLElement} */ (el);
  while (host.parentElement?.isContentEditable) host = host.parentElement;
  return host;
}

const shown = (/** @type {HTMLElement} */ el) => norm(el.innerText);

/** @type {import("./util.js").Driver} */
const contentEditable = {
  name: "contenteditable",
  read: (el) => shown(hostOf(el)),
  matches: (el) => el instanceof HTMLElement && el.isContentEditable,
  async describe(el) {
    return { widget: "contenteditable", options: [], value: shown(hostOf(el)) };
  },
  async apply(el, decision) {
    const host = hostOf(el);
    if (!host.isConnected) return outcome("not_found", "editor is gone");
    const locked = isLocked(host);
    if (locked) return outcome("refused", `editor is ${locked}`, shown(host));
    const text = decision.value ?? "";
    if (!norm(text)) return outcome("skipped", "no text to type", shown(host));
    setTextLikeAPerson(host, text);
    await settle();
    if (shown(host) !== norm(text)) return outcome("refused", "the editor did not keep the text", shown(host));
    return outcome("applied", "typed", shown(host));
  },
};

relayContent["drivers/contenteditable"] = { contentEditable };
})();
