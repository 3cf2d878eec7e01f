// Checkbox groups answering one question (Greenhouse `fieldset.checkbox` with `name="question_X[]"`,
// Ashby MultiValueSelect, Workable `[data-input-type=checkbox]`): the decision's values are the
// boxes to tick, matched by value or label text; the others are cleared.
(() => {
"use strict";
const { checkboxChoices, clickChoice, isOn } = relayContent["drivers/choices"];
const { isLocked, matchOption, outcome, settle, waitFor, wantedOf } = relayContent["drivers/util"];

/** @param {ReturnType<typeof checkboxChoices>} choices */
const shown = (choices) => choices.filter((c) => c.selected).map((c) => c.text).join(", ");

/** @type {import("./util.js").Driver} */
const checkboxGroup = {
  name: "checkbox-group",
  read: (el) => shown(checkboxChoices(el)),
  matches(el) {
    if (el instanceof HTMLInputElement) return false; // one box alone is the checkbox driver's
    if (el.querySelector("select, textarea, input:not([type=checkbox]):not([type=hidden])")) return false;
    return el.querySelectorAll("input[type=checkbox], [role=checkbox]").length >= 2
      && el.matches("fieldset, [role=group], [data-input-type=checkbox], div, ul, section");
  },
  async describe(el) {
    const choices = checkboxChoices(el);
    return { widget: "checkbox_group", multiple: true,
      options: choices.map(({ value, text, selected }) => ({ value, text, selected })),
      value: shown(choices) };
  },
  // `el` may also be one box of a same-named group (the checkbox driver hands those over).
  async apply(el, decision) {
    if (!el.isConnected) return outcome("not_found", "checkbox group is gone");
    const choices = checkboxChoices(el);
    const wanted = wantedOf(decision);
    if (!wanted.length) return outcome("skipped", "no boxes to tick", shown(choices));
    const picks = [];
    for (const w of wanted) {
      const hit = matchOption(choices, w);
      if (!hit) return outcome("refused", `no box matches "${w}"`, shown(choices));
      picks.push(hit);
    }
    for (const c of choices) {
      const want = picks.includes(c);
      if (isOn(c.el) === want) continue;
      if (isLocked(c.el)) return outcome("refused", `"${c.text}" is locked`, shown(checkboxChoices(el)));
      clickChoice(c.el);
      await waitFor(() => isOn(c.el) === want, 500);
    }
    await settle();
    const after = checkboxChoices(el);
    const wrong = after.filter((c) => c.selected !== picks.some((p) => p.el === c.el));
    if (wrong.length) {
      return outcome("refused", `did not stick: ${wrong.map((c) => c.text).join(", ")}`, shown(after));
    }
    return outcome("applied", `ticked ${picks.map((p) => JSON.stringify(p.text)).join(", ")}`, shown(after));
  },
};

relayContent["drivers/checkbox_group"] = { checkboxGroup };
})();
