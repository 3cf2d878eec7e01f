// A single checkbox (native or role=checkbox): set it to the decision's `checked`.
(() => {
"use strict";
const { checkboxGroup } = relayContent["drivers/checkbox_group"];
const { clickChoice, isOn } = relayContent["drivers/choices"];
const { choiceLabel, isLocked, outcome, settle, waitFor } = relayContent["drivers/util"];

/** @param {Element} el */
const label = (el) => (el instanceof HTMLInputElement ? choiceLabel(el) : "");

/** @type {import("./util.js").Driver} */
const checkbox = {
  name: "checkbox",
  read: (el) => (isOn(el) ? "true" : ""),
  // Native checkboxes and ARIA ones are also handled by the snapshot's own fallback (it groups
  // same-named boxes); this driver claims the custom switches that fallback does not click well.
  matches: (el) => !(el instanceof HTMLInputElement) && el.matches("[role=switch]"),
  async describe(el) {
    const on = isOn(el);
    return { widget: "checkbox", options: [{ value: "true", text: label(el) || "checked", selected: on }],
      value: on ? "true" : "" };
  },
  async apply(el, decision) {
    if (!el.isConnected) return outcome("not_found", "checkbox is gone");
    // One box of a same-named group, asked to choose options: answer for the whole group.
    if (decision.action === "choose" && decision.values?.length) return checkboxGroup.apply(el, decision);
    let want = decision.checked;
    if (typeof want !== "boolean") {
      const v = String(decision.value ?? decision.values?.[0] ?? "").trim().toLowerCase();
      if (["true", "yes", "on", "1", "checked"].includes(v)) want = true;
      else if (["false", "no", "off", "0", "unchecked"].includes(v)) want = false;
      else return outcome("skipped", "no checked state given", checkbox.read(el));
    }
    const locked = isLocked(el);
    if (locked) return outcome("refused", `checkbox is ${locked}`, checkbox.read(el));
    if (isOn(el) !== want) {
      clickChoice(el);
      await waitFor(() => isOn(el) === want, 500);
    }
    await settle();
    if (isOn(el) !== want) return outcome("refused", "the page kept the old state", checkbox.read(el));
    return outcome("applied", want ? "checked" : "unchecked", checkbox.read(el));
  },
};

relayContent["drivers/checkbox"] = { checkbox };
})();
