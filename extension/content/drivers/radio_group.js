// Radio groups: native radios sharing a name (also Ashby's value="on" radios, chosen by label
// text), role=radio groups, and button-style yes/no pairs (Ashby `button[data-option=yes|no]`
// with aria-pressed over a hidden checkbox, Oracle pills, Workable option divs).
(() => {
"use strict";
const { TOGGLE_BUTTON, clickChoice, isOn, radioChoices } = relayContent["drivers/choices"];
const { isLocked, matchOption, outcome, settle, waitFor, wantedOf } = relayContent["drivers/util"];

/** Ashby's hidden checkbox behind yes/no buttons: the buttons are what a person uses. */
function yesNoBehind(/** @type {Element} */ el) {
  if (!(el instanceof HTMLInputElement) || el.type !== "checkbox") return null;
  const box = el.parentElement;
  return box && box.querySelectorAll(TOGGLE_BUTTON).length >= 2 ? box : null;
}

/** The element whose choices answer the question. @param {Element} el */
function groupOf(el) {
  return yesNoBehind(el) ?? el;
}

/** @param {ReturnType<typeof radioChoices>} choices */
const shown = (choices) => choices.filter((c) => c.selected).map((c) => c.text).join(", ");

/** @type {import("./util.js").Driver} */
const radioGroup = {
  name: "radio-group",
  read: (el) => shown(radioChoices(groupOf(el))),
  // Bare native radios are left to the snapshot, which models them as a group whose options
  // carry their own ids; this driver takes button-style groups and containers handed to it.
  matches(el) {
    if (el instanceof HTMLInputElement) return yesNoBehind(el) !== null;
    if (el.matches(TOGGLE_BUTTON)) return (el.parentElement?.querySelectorAll(TOGGLE_BUTTON).length ?? 0) >= 2;
    if (el.matches("[role=radiogroup]")) return !el.querySelector("input[type=radio]");
    // A container (fieldset, div) whose only controls are radios or toggle buttons.
    const others = "select, textarea, input:not([type=radio]):not([type=hidden]):not([type=checkbox])";
    if (el.querySelector(others)) return false;
    return el.querySelectorAll("input[type=radio]").length >= 2
      || el.querySelectorAll(TOGGLE_BUTTON).length >= 2;
  },
  async describe(el) {
    const choices = radioChoices(groupOf(el));
    return { widget: "radio_group",
      options: choices.map(({ value, text, selected }) => ({ value, text, selected })),
      value: shown(choices) };
  },
  async apply(el, decision) {
    if (!el.isConnected) return outcome("not_found", "radio group is gone");
    const choices = radioChoices(groupOf(el));
    if (!choices.length) return outcome("not_found", "no choices left in the group");
    let wanted = wantedOf(decision)[0];
    if (decision.action === "check" && typeof decision.checked === "boolean") {
      wanted = decision.checked ? "yes" : "no";
    }
    if (!wanted) return outcome("skipped", "no choice to make", shown(choices));
    const hit = matchOption(choices, wanted);
    if (!hit) return outcome("refused", `no choice matches "${wanted}"`, shown(choices));
    const locked = isLocked(hit.el);
    if (locked) return outcome("refused", `"${hit.text}" is ${locked}`, shown(choices));
    if (!isOn(hit.el)) {
      clickChoice(hit.el);
      await waitFor(() => isOn(hit.el), 500);
    }
    await settle();
    const after = radioChoices(groupOf(el));
    const now = after.find((c) => c.el === hit.el) ?? after.find((c) => c.text === hit.text);
    if (!now || !now.selected) return outcome("refused", `"${hit.text}" did not stay chosen`, shown(after));
    return outcome("applied", `chose "${hit.text}"`, shown(after));
  },
};

relayContent["drivers/radio_group"] = { radioGroup };
})();
