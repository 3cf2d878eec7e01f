// Select buttons of component libraries (Fabric on BambooHR, MUI Select, Radix Select, other
// role=button / role=combobox elements with aria-haspopup, any <button> with role=combobox: a
// select-only combobox): the button shows the choice, the options open in a portal as
// role=option / role=menuitem, and a click on one commits it. A list that says it is
// aria-multiselectable (MUI's multiple Select) stays open and takes a click per chosen option.
(() => {
"use strict";
const {
  closePopup, emptyChoice, isPlaceholder, listedOptions, NO_EMPTY_CHOICE, openPopup, popupOf,
  popupOptions,
} = relayContent["drivers/popup_list"];
const {
  fold, isKeptFromPerson, isLocked, isPlaceholderOption, isPromptText, isVisible, keepFocus, matchOption, norm, outcome, press,
  sameText, settle, textOf, waitFor, wantedOf,
} = relayContent["drivers/util"];

const TRIGGER = ".fab-SelectToggle, [role=combobox][aria-haspopup=listbox]:not(input), button[role=combobox], "
  + "[role=button][aria-haspopup=listbox], [role=button][aria-haspopup=true][aria-expanded], "
  + "[data-fabric-component=Select] button[aria-haspopup]";

const TEXT_BOX = "input:not([type]), input[type=text], input[type=search], input[type=email], "
  + "input[type=tel], input[type=url], input[type=number], textarea";

/** The element a person clicks, for the element the walker found. @param {Element} el */
function triggerOf(el) {
  // A combobox role on a wrapper around a text box (ARIA 1.1) is a typeahead, not a button.
  if (el.matches(TRIGGER)) return el.querySelector(TEXT_BOX) ? null : el;
  // Hidden proxies: Fabric's select, MUI's native input sit next to the trigger.
  if (el.matches("select[aria-hidden=true], input[aria-hidden=true], input.MuiSelect-nativeInput")) {
    for (const sib of [el.previousElementSibling, el.nextElementSibling]) {
      if (sib?.matches(TRIGGER)) return sib;
    }
  }
  return null;
}

/**
 * The hidden input right after the trigger that keeps its value for the form (SuccessFactors'
 * `_value`, a mirror input), or null.
 * @param {Element} trigger
 * @returns {HTMLInputElement|null}
 */
function modelInput(trigger) {
  const next = trigger.nextElementSibling;
  return next instanceof HTMLInputElement && (next.type === "hidden" || next.getAttribute("aria-hidden") === "true")
    ? next : null;
}

/**
 * The committed choice, from what the button and its model show: never from a popup, whose
 * aria-selected may only be its keyboard cursor. A prompt on the button ("Select One", "Choose
 * your country") is no choice; nor is text the hidden model input does not back, unless it is
 * one of the options.
 * @param {Element} trigger @param {{text: string}[]} [options]  the options, when read
 */
function shown(trigger, options) {
  const content = trigger.querySelector(".fab-SelectToggle__content");
  if (content) return textOf(content);
  if (trigger.querySelector(".fab-SelectToggle__placeholder")) return "";
  const clone = /** @type {Element} */ (trigger.cloneNode(true));
  for (const junk of clone.querySelectorAll("[class*=toggleButton], [class*=Icon], svg")) junk.remove();
  const text = textOf(clone).replace(/[\u200b▼▾⌄]/g, "").trim();
  if (isPlaceholder(text)) return "";
  if (options?.some((o) => sameText(o.text, text))) return text;
  if (isPromptText(text)) return "";
  if (options?.length && modelInput(trigger)?.value === "") return "";
  return text;
}

/**
 * Marks as selected only the option the button shows: a popup's aria-selected counts only when
 * something is chosen and no option's text is the button's (a shortened label).
 * @param {{value: string, text: string, selected: boolean}[]} options @param {string} value
 */
function markChosen(options, value) {
  const byText = options.some((o) => sameText(o.text, value));
  return options.map(({ value: v, text, selected }) => ({ value: v, text,
    selected: value !== "" && (byText ? sameText(text, value) : selected) }));
}

/**
 * The hidden native <select> a select button stands in for: right before or after the button or
 * its wrapper (Radix puts it after), not rendered, and showing the same choice (or both showing
 * none). Null otherwise.
 * @param {Element} trigger @param {string} value  what the button shows
 * @returns {HTMLSelectElement|null}
 */
function modelSelect(trigger, value) {
  /** @type {Element|null} */
  let node = trigger;
  for (let depth = 0; node && depth < 3; depth += 1, node = node.parentElement) {
    const select = [node.previousElementSibling, node.nextElementSibling]
      .find((sib) => sib instanceof HTMLSelectElement);
    if (!(select instanceof HTMLSelectElement)) continue;
    // Fabric's proxy holds only the chosen option: no list to read there. A select kept from the
    // person (hidden from assistive tech and the tab order, as Radix's is) is a model even
    // though it is rendered, a pixel wide.
    if ((isVisible(select) && !isKeptFromPerson(select)) || select.multiple || select.options.length < 2) return null;
    const chosen = [...select.selectedOptions].filter((o) => !isPlaceholderOption(o)).map((o) => norm(o.text)).join(", ");
    return fold(chosen) === fold(value) ? select : null;
  }
  return null;
}

/**
 * The select button standing in for a hidden native <select> (right after it or inside the
 * element right after it, or right before it): the control a person uses, while the select only
 * keeps the value.
 * @param {HTMLSelectElement} select
 * @returns {Element|null}
 */
function proxyTriggerOf(select) {
  if (select.multiple || select.options.length < 2) return null;
  const next = select.nextElementSibling;
  const prev = select.previousElementSibling;
  const trigger = (next?.matches(TRIGGER) ? next : next?.querySelector(TRIGGER))
    ?? (prev?.matches(TRIGGER) ? prev : null);
  if (!trigger || trigger.querySelector(TEXT_BOX)) return null;
  return modelSelect(trigger, shown(trigger)) === select ? trigger : null;
}

/** A list that holds many choices at once. @param {Element|null} popup */
function isMultiple(popup) {
  return popup?.getAttribute("aria-multiselectable") === "true";
}

/**
 * Clicks each wanted option of an open multi-select list that is not chosen yet (the list stays
 * open), then checks every one is chosen. Options already chosen are left as they are.
 * @param {Element} trigger @param {Element} popup @param {string[]} wanted
 */
async function chooseMany(trigger, popup, wanted) {
  /** @type {string[]} */
  const chosen = [];
  for (const want of wanted) {
    const current = popupOf(trigger) ?? popup;
    const hit = matchOption(popupOptions(current), want);
    if (!hit) return outcome("refused", `no option matches "${want}"`, shown(trigger));
    chosen.push(hit.text);
    if (hit.selected) continue;
    press(hit.el);
    const text = hit.text;
    const ok = await waitFor(() => {
      const list = popupOf(trigger);
      return list ? popupOptions(list).some((o) => o.text === text && o.selected) : false;
    }, 800);
    if (!ok) return outcome("refused", `"${text}" did not commit`, shown(trigger));
  }
  await settle();
  return outcome("applied", `chose ${chosen.map((t) => `"${t}"`).join(", ")}`, shown(trigger));
}

/** @type {import("./util.js").Driver} */
const popupSelect = {
  name: "popup-select",
  read(el) {
    const trigger = triggerOf(el);
    return trigger ? shown(trigger) : "";
  },
  matches: (el) => triggerOf(el) !== null,
  async describe(el) {
    const trigger = /** @type {Element} */ (triggerOf(el));
    const value = shown(trigger);
    // A button standing in for a hidden native select (iCIMS): the select lists the options.
    const model = modelSelect(trigger, value);
    if (model) {
      return { widget: "listbox", value, options: [...model.options].map((o) => ({ value: o.value,
        text: norm(o.text), selected: o.selected && !isPlaceholderOption(o) })) };
    }
    // A list the page keeps in the DOM while closed (SuccessFactors' picklists): read, not opened.
    const listed = listedOptions(trigger);
    if (listed) {
      const chosen = shown(trigger, listed);
      return { widget: "listbox", value: chosen, options: markChosen(listed, chosen) };
    }
    // A closed button nobody can see (a wizard's hidden step) shows no list when pressed.
    if (!isVisible(trigger)) return { widget: "listbox", value, options: [] };
    const restore = keepFocus(trigger);
    /** @type {{value: string, text: string, selected: boolean}[]} */
    let options = [];
    let multiple = false;
    try {
      const popup = await openPopup(trigger);
      if (popup) options = popupOptions(popup).map(({ value: v, text, selected }) => ({ value: v, text, selected }));
      multiple = isMultiple(popup);
    } finally {
      await closePopup(trigger);
      restore();
    }
    if (multiple) {
      // Many chosen: the list's aria-selected is each option's state, the button their summary.
      return { widget: "listbox", multiple, options, value: shown(trigger) };
    }
    const chosen = shown(trigger, options);
    return { widget: "listbox", options: markChosen(options, chosen), value: chosen };
  },
  async apply(el, decision) {
    const trigger = triggerOf(el);
    if (!trigger || !trigger.isConnected) return outcome("not_found", "select button is gone");
    const locked = isLocked(trigger);
    if (locked) return outcome("refused", `select button is ${locked}`, shown(trigger));
    const wantedAll = wantedOf(decision);
    const wanted = wantedAll[0];
    if (!wanted) return outcome("skipped", "no option to choose", shown(trigger));
    const restore = keepFocus(trigger);
    try {
      const popup = await openPopup(trigger);
      if (!popup) return outcome("refused", "the list did not open", shown(trigger));
      if (isMultiple(popup)) return await chooseMany(trigger, popup, wantedAll);
      const hit = matchOption(popupOptions(popup), wanted);
      if (!hit) return outcome("refused", `no option matches "${wanted}"`, shown(trigger));
      press(hit.el);
      const ok = await waitFor(() => sameText(shown(trigger), hit.text), 800);
      await settle();
      if (!ok) return outcome("refused", `"${hit.text}" did not commit`, shown(trigger));
      return outcome("applied", `chose "${hit.text}"`, shown(trigger));
    } finally {
      await closePopup(trigger);
      restore();
    }
  },
  /** Takes the choice back as a person would: the list's own empty row, where it has one. */
  async clear(el) {
    const trigger = triggerOf(el);
    if (!trigger || !trigger.isConnected) return outcome("not_found", "select button is gone");
    if (!shown(trigger)) return outcome("applied", "already empty", "");
    const restore = keepFocus(trigger);
    try {
      const popup = await openPopup(trigger);
      const empty = popup ? emptyChoice(popupOptions(popup)) : null;
      if (!empty) return outcome("refused", NO_EMPTY_CHOICE, shown(trigger));
      press(empty.el);
      await waitFor(() => shown(trigger) === "", 800);
      await settle();
    } finally {
      await closePopup(trigger);
      restore();
    }
    const after = shown(trigger);
    return after ? outcome("refused", NO_EMPTY_CHOICE, after) : outcome("applied", "cleared", "");
  },
};

relayContent["drivers/popup_select"] = { proxyTriggerOf, popupSelect };
})();
