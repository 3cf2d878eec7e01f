// A role=listbox that is a field of its own, its rows in the page (Google Forms' dropdown: closed,
// it shows only the chosen row, a "Choose" row while nothing is chosen; a click opens a popup of
// copied rows). Popups that other controls open are theirs, not fields (snapshot.js).
(() => {
"use strict";
const { isPlaceholder } = relayContent["drivers/popup_list"];
const {
  fold, isLocked, isVisible, keepFocus, keyPress, matchOption, norm, outcome, press, settle, textOf,
  waitFor, wantedOf,
} = relayContent["drivers/util"];

const ROW = "[role=option]";

/** A row that stands for "nothing chosen": no value, or a prompt ("Choose", "Select…"). @param {Element} row */
function isPromptRow(row) {
  return row.getAttribute("data-value") === "" || isPlaceholder(textOf(row));
}

/** The listbox's own rows, prompt rows left out. @param {Element} box */
function rowsOf(box) {
  return [...box.querySelectorAll(ROW)]
    .filter((r) => !r.parentElement?.closest(ROW) && !isPromptRow(r) && r.getAttribute("aria-disabled") !== "true")
    .map((r) => ({ value: r.getAttribute("data-value") ?? norm(textOf(r)), text: norm(textOf(r)), el: r }));
}

/** @param {{el: Element}} row */
const isChosen = (row) => row.el.getAttribute("aria-selected") === "true" || row.el.getAttribute("aria-checked") === "true";

/** What is chosen, from the rows the list marks selected; a prompt row is no choice. @param {Element} box */
function shown(box) {
  return rowsOf(box).filter(isChosen).map((r) => r.text).join(", ");
}

/**
 * The visible row outside the listbox that reads as `text`: the popup's copy of it.
 * @param {Element} box @param {string} text
 */
function popupRow(box, text) {
  return [...box.ownerDocument.querySelectorAll(ROW)]
    .find((r) => !box.contains(r) && isVisible(r) && fold(textOf(r)) === fold(text)) ?? null;
}

/** @type {import("./util.js").Driver} */
const ariaListbox = {
  name: "aria-listbox",
  read: (el) => shown(el),
  matches: (el) => el.matches("[role=listbox]") && !(el instanceof HTMLSelectElement)
    && !el.closest("[role=combobox]") && el.querySelector(ROW) !== null,
  async describe(el) {
    const rows = rowsOf(el);
    return {
      widget: "listbox", multiple: el.getAttribute("aria-multiselectable") === "true", value: shown(el),
      options: rows.map((r) => ({ value: r.value, text: r.text, selected: isChosen(r) })),
    };
  },
  async apply(el, decision) {
    if (!el.isConnected) return outcome("not_found", "list is no longer in the page");
    const locked = isLocked(el);
    if (locked) return outcome("refused", `list is ${locked}`, shown(el));
    const wanted = wantedOf(decision)[0];
    if (!wanted) return outcome("skipped", "no option to choose", shown(el));
    const hit = matchOption(rowsOf(el), wanted);
    if (!hit) return outcome("refused", `no option matches "${wanted}"`, shown(el));
    if (fold(shown(el)) === fold(hit.text)) return outcome("applied", "already chosen", shown(el));
    const restore = keepFocus(el);
    try {
      // A list showing its rows is clicked on the row; a closed one is opened and its popup's
      // copy of the row clicked.
      let target = isVisible(hit.el) ? hit.el : null;
      if (!target) {
        press(el);
        await waitFor(() => popupRow(el, hit.text) !== null, 800);
        target = popupRow(el, hit.text);
        if (!target) return outcome("refused", "the list did not open", shown(el));
      }
      press(target);
      const ok = await waitFor(() => fold(shown(el)) === fold(hit.text), 800);
      await settle();
      if (popupRow(el, hit.text)) keyPress(el, "Escape");
      if (!ok) return outcome("refused", `"${hit.text}" did not commit`, shown(el));
      return outcome("applied", `chose "${hit.text}"`, shown(el));
    } finally {
      restore();
    }
  },
};

relayContent["drivers/aria_listbox"] = { ariaListbox };
})();
