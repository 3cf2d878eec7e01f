// Native <select>, single or multiple: choose options by value (then by visible text).
(() => {
"use strict";
const { leave } = relayContent.typing;
const { fire, isLocked, isPlaceholderOption, matchOption, norm, outcome, settle, wantedOf } = relayContent["drivers/util"];

/** @param {HTMLSelectElement} sel */
function readOptions(sel) {
  return [...sel.options].map((o) => ({ value: o.value, text: norm(o.text), selected: o.selected }));
}

/** What a person sees: the chosen options' texts (a placeholder option counts as empty). */
function shown(/** @type {HTMLSelectElement} */ sel) {
  return [...sel.selectedOptions].filter((o) => !isPlaceholderOption(o)).map((o) => norm(o.text)).join(", ");
}

/** @type {import("./util.js").Driver} */
const nativeSelect = {
  name: "native-select",
  read: (el) => shown(/** @type {HTMLSelectElement} */ (el)),
  matches: (el) => el instanceof HTMLSelectElement,
  async describe(el) {
    const sel = /** @type {HTMLSelectElement} */ (el);
    return { widget: "select", multiple: sel.multiple, options: readOptions(sel), value: shown(sel) };
  },
  async apply(el, decision) {
    const sel = /** @type {HTMLSelectElement} */ (el);
    if (!sel.isConnected) return outcome("not_found", "select is no longer in the page");
    const locked = isLocked(sel);
    if (locked) return outcome("refused", `select is ${locked}`, shown(sel));
    const wanted = wantedOf(decision);
    if (!wanted.length) return outcome("skipped", "no option to choose", shown(sel));
    const options = [...sel.options].map((o) => ({ value: o.value, text: norm(o.text), el: o }));
    const picks = [];
    for (const w of sel.multiple ? wanted : wanted.slice(0, 1)) {
      const hit = matchOption(options.filter((o) => !o.el.disabled), w);
      if (!hit) return outcome("refused", `no option matches "${w}"`, shown(sel));
      picks.push(hit.el);
    }
    sel.focus({ preventScroll: true });
    if (sel.multiple) {
      for (const o of sel.options) o.selected = picks.includes(o);
    } else {
      sel.selectedIndex = picks[0].index;
    }
    fire(sel, ["input", "change"]);
    leave(sel);
    await settle(); // let a framework re-render (and possibly undo) before re-reading
    const ok = picks.every((o) => o.selected)
      && (sel.multiple || sel.selectedIndex === picks[0].index);
    if (!ok) return outcome("refused", "the page reset the selection", shown(sel));
    return outcome("applied", `chose ${picks.map((o) => JSON.stringify(norm(o.text))).join(", ")}`,
      shown(sel));
  },
};

relayContent["drivers/native_select"] = { nativeSelect };
})();
