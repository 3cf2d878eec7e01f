// Workday pickers: `button[aria-haspopup=listbox]` ("Select One", with a 0×0 mirror input beside
// it) and the `selectinput` prompts (`multiSelectContainer`, chosen items as `selectedItem` pills).
// Options live in a body portal (`activeListContainer`). Prompts can be two-level ("How did you
// hear": a category, then an item): items are `promptLeafNode`s, the other rows are categories (or,
// before any item shows, the rows that say they open a list); a category's items may load late,
// and the search box searches on Enter.
(() => {
"use strict";
const { setTextLikeAPerson } = relayContent.typing;
const {
  closePopup, emptyChoice, isPlaceholder, NO_EMPTY_CHOICE, openPopup, popupOf, popupOptions,
} = relayContent["drivers/popup_list"];
const {
  fold, isLocked, isPromptText, isVisible, keepFocus, keyPress, matchOption, norm, outcome, press, settle, textOf,
  waitFor, wantedOf,
} = relayContent["drivers/util"];

const LEAF = "[data-automation-id=promptLeafNode]";
const MAX_CATEGORIES = 12;

/** The element a person clicks, for the element the walker found. @param {Element} el */
function triggerOf(el) {
  if (el.matches("button[aria-haspopup=listbox], input[data-uxi-widget-type=selectinput]")) return el;
  // The mirror input Workday renders right after the button.
  const prev = el.previousElementSibling;
  if (el.matches("input") && prev?.matches("button[aria-haspopup=listbox]")) return prev;
  const inside = el.querySelector?.("input[data-uxi-widget-type=selectinput]");
  return el.matches("[data-automation-id=multiSelectContainer]") ? inside : null;
}

const isPrompt = (/** @type {Element} */ t) => t.matches("input");

/** The box around a prompt that holds its chosen-item pills. @param {Element} trigger */
const pillBox = (trigger) => trigger.closest("[data-automation-id=multiSelectContainer]") ?? trigger.parentElement;

/** The chosen items' texts of a prompt. @param {Element} trigger */
function pillsOf(trigger) {
  const pills = [...pillBox(trigger)?.querySelectorAll("[data-automation-id=selectedItem]") ?? []];
  return pills.map((p) => textOf(p.querySelector("p, [data-automation-id=promptOption]") ?? p)).filter(Boolean);
}

/**
 * What the person sees as chosen: a prompt's pills, a button's text unless it only prompts.
 * Never a popup's aria-selected, which can be its keyboard cursor.
 * @param {Element} trigger
 */
function shown(trigger) {
  if (isPrompt(trigger)) return pillsOf(trigger).join(", ");
  const text = textOf(trigger);
  return isPlaceholder(text) || isPromptText(text) ? "" : text;
}

/** @param {{el: Element}} o */
const isLeaf = (o) => o.el.matches(LEAF) || Boolean(o.el.closest(LEAF)) || Boolean(o.el.querySelector(LEAF));

/** A row that says it opens a sub-list: a popup flag, or a chevron after its text. @param {{el: Element}} o */
const opensList = (o) => o.el.matches("[aria-haspopup]:not([aria-haspopup=false]), [aria-expanded]")
  || /[›»>]\s*$/.test(textOf(o.el));

/**
 * Options that open a sub-list: where the prompt marks its leaves, every other row; where the top
 * level holds only categories (no leaf marked yet), the rows that say they open one.
 * @param {Element} popup
 */
function categories(popup) {
  const options = popupOptions(popup);
  const marked = Boolean(popup.querySelector(LEAF));
  return options.filter((o) => !isLeaf(o) && (marked || opensList(o)));
}

/**
 * Whether Enter may be pressed in a prompt's search box: Workday's prompts search on Enter, and
 * they sit in no form, so a page cannot read the key as "send the form".
 * @param {Element} trigger
 */
const searchesOnEnter = (trigger) => trigger instanceof HTMLInputElement && !trigger.form;

/**
 * Searches a prompt the way a person does: types the item, presses Enter, and takes the result
 * that matches (a single hit may commit at once). What was typed is cleared again; a commit that
 * does not match what was wanted is taken back.
 * @param {HTMLInputElement} input @param {string} wanted
 * @returns {Promise<string>} "" on success, else why not
 */
async function search(input, wanted) {
  const before = shown(input);
  await closePopup(input);
  setTextLikeAPerson(input, wanted, { blur: false });
  await settle();
  keyPress(input, "Enter");
  const popup = () => popupOf(input);
  const leaves = () => {
    const p = popup();
    return p ? popupOptions(p).filter(isLeaf) : [];
  };
  const first = await waitFor(() => (shown(input) !== before ? "committed"
    : leaves().length || popup()?.querySelector("[data-automation-id=promptEmptyText]") ? "results" : null), 1500);
  let why = "";
  if (first !== "committed") {
    const p = popup();
    const hit = p ? matchOption(leaves(), wanted) : null;
    if (!p || !hit) why = `no option matches "${wanted}"`;
    else if ((await clickOption(input, p, hit)) !== "committed") why = `"${hit.text}" did not commit`;
  }
  if (!why && !matchOption(pillsOf(input).map((t) => ({ value: t, text: t })), wanted)) {
    // The page committed its only hit for the typed text, which is not the item wanted.
    const added = [...pillBox(input)?.querySelectorAll("[data-automation-id=selectedItem]") ?? []].at(-1);
    const remove = added?.querySelector("[data-automation-id=DELETE_charm]");
    if (remove) press(remove);
    why = `searching "${wanted}" chose something else`;
  }
  if (input.value) setTextLikeAPerson(input, "", { blur: false });
  return why;
}

/** Goes back from a sub-list to the categories. @param {Element} trigger @param {Element} popup */
async function back(trigger, popup) {
  const button = popup.querySelector("[data-automation-id=promptBackButton], [aria-label^=Back i]");
  const before = popupOptions(popup).map((o) => o.text).join("|");
  if (button) {
    press(button);
    if (await waitFor(() => popupOptions(popup).map((o) => o.text).join("|") !== before, 600)) return popup;
  }
  await closePopup(trigger);
  return openPopup(trigger);
}

/** Clicks an option and waits for either a commit or a new list (a category). */
async function clickOption(/** @type {Element} */ trigger, /** @type {Element} */ popup,
  /** @type {{el: Element}} */ option) {
  const before = popupOptions(popup).map((o) => o.text).join("|");
  const shownBefore = shown(trigger);
  press(option.el);
  return waitFor(() => {
    // A list that empties while a category's items load is still open.
    const gone = !isVisible(popup) && !popupOf(trigger);
    if (shown(trigger) !== shownBefore || gone) return "committed";
    const now = popupOptions(popup).map((o) => o.text).join("|");
    return now && now !== before ? "sublist" : null;
  }, 1200);
}

/** Every choice of a prompt: top-level leaves, and "Category > Item" for two-level ones. */
async function readAll(/** @type {Element} */ trigger) {
  let popup = await openPopup(trigger);
  if (!popup) return [];
  const top = popupOptions(popup);
  const cats = categories(popup);
  /** @type {{value: string, text: string, selected: boolean}[]} */
  const catTexts = cats.map((c) => c.text);
  const out = top.filter((o) => !catTexts.includes(o.text))
    .map(({ value, text, selected }) => ({ value, text, selected }));
  for (const cat of cats.slice(0, MAX_CATEGORIES)) {
    const current = popup && popupOptions(popup).find((o) => o.text === cat.text);
    if (!popup || !current) break;
    if ((await clickOption(trigger, popup, current)) !== "sublist") break;
    for (const leaf of popupOptions(popup).filter(isLeaf)) {
      const text = `${cat.text} > ${leaf.text}`;
      out.push({ value: text, text, selected: leaf.selected });
    }
    popup = await back(trigger, popup);
  }
  return out;
}

/**
 * Picks one answer: a path ("Job Board > LinkedIn"), a top-level item, or an item found inside
 * one of the categories.
 * @param {Element} trigger @param {string} wanted
 * @returns {Promise<string>} "" on success, else why not
 */
async function pickOne(trigger, wanted) {
  const path = wanted.split(/\s+>\s+/).map(norm).filter(Boolean);
  let popup = await openPopup(trigger);
  if (!popup) return "the list did not open";
  for (let i = 0; i < path.length; i += 1) {
    const hit = matchOption(popupOptions(popup), path[i]);
    if (!hit) break;
    const result = await clickOption(trigger, popup, hit);
    if (result === "committed") return i === path.length - 1 ? "" : `"${hit.text}" committed early`;
    if (result !== "sublist") return `"${hit.text}" did nothing`;
    if (i === path.length - 1) return `"${hit.text}" is a category`;
  }
  if (path.length === 1) {
    // Only the item was named: look for it inside each category.
    popup = popupOf(trigger) ?? await openPopup(trigger);
    for (const cat of popup ? categories(popup).slice(0, MAX_CATEGORIES) : []) {
      const current = popup && popupOptions(popup).find((o) => o.text === cat.text);
      if (!popup || !current) break;
      if ((await clickOption(trigger, popup, current)) !== "sublist") break;
      const leaf = matchOption(popupOptions(popup).filter(isLeaf), path[0]);
      if (leaf) {
        return (await clickOption(trigger, popup, leaf)) === "committed" ? "" : `"${leaf.text}" did not commit`;
      }
      popup = await back(trigger, popup);
    }
    // Not among the items the categories show (long lists show a part): search for it.
    if (isPrompt(trigger) && searchesOnEnter(trigger)) {
      return search(/** @type {HTMLInputElement} */ (trigger), path[0]);
    }
  }
  return `no option matches "${wanted}"`;
}

/** @type {import("./util.js").Driver} */
const workdayListbox = {
  name: "workday-listbox",
  read(el) {
    const trigger = triggerOf(el);
    return trigger ? shown(trigger) : "";
  },
  matches: (el) => triggerOf(el) !== null,
  async describe(el) {
    const trigger = /** @type {Element} */ (triggerOf(el));
    const value = shown(trigger);
    const widget = isPrompt(trigger) ? "combobox" : "listbox";
    // A closed picker nobody can see shows no list when pressed: it is not opened.
    if (!isVisible(trigger) && !isVisible(trigger.parentElement)) return { widget, options: [], value };
    const restore = keepFocus(trigger);
    let options = [];
    try {
      options = await readAll(trigger);
    } finally {
      await closePopup(trigger);
      restore();
    }
    // Chosen is what the button or the pills show. A popup's aria-selected can be its keyboard
    // cursor (the first row on opening, with nothing chosen), so it is not read.
    const chosen = value ? value.split(", ").map(fold) : [];
    for (const o of options) o.selected = chosen.includes(fold(o.text.split(" > ").at(-1)));
    return { widget, options, value };
  },
  async apply(el, decision) {
    const trigger = triggerOf(el);
    if (!trigger || !trigger.isConnected) return outcome("not_found", "listbox is gone");
    const locked = isLocked(trigger);
    if (locked) return outcome("refused", `listbox is ${locked}`, shown(trigger));
    let wanted = wantedOf(decision);
    if (!wanted.length) return outcome("skipped", "no option to choose", shown(trigger));
    // Workday marks single-answer prompts "multiselect" too, so every prompt takes one answer;
    // values [category, item] of a two-level prompt arrive as a path.
    if (wanted.length === 2 && isPrompt(trigger)) wanted = [wanted.join(" > ")];
    const restore = keepFocus(trigger);
    const done = [];
    for (const w of wanted.slice(0, 1)) {
      const leafText = w.split(/\s+>\s+/).at(-1) ?? w;
      if (shown(trigger).split(", ").some((s) => fold(s) === fold(leafText))) { done.push(leafText); continue; }
      const why = await pickOne(trigger, w);
      if (why) {
        await closePopup(trigger);
        restore();
        return outcome("refused", why, shown(trigger));
      }
      done.push(leafText);
    }
    await closePopup(trigger);
    restore();
    await settle();
    const after = shown(trigger);
    const missing = done.filter((d) => !after.split(", ").some((a) => fold(a).startsWith(fold(d))));
    if (missing.length) return outcome("refused", `did not stick: ${missing.join(", ")}`, after);
    return outcome("applied", `chose ${done.map((d) => JSON.stringify(d)).join(", ")}`, after);
  },
  /**
   * Takes the choice back as a person would: a prompt's pills through their delete charms, a
   * button's through the list's "Select One" row.
   */
  async clear(el) {
    const trigger = triggerOf(el);
    if (!trigger || !trigger.isConnected) return outcome("not_found", "listbox is gone");
    if (!shown(trigger)) return outcome("applied", "already empty", "");
    if (isPrompt(trigger)) {
      for (let left = pillsOf(trigger).length; left > 0; left -= 1) {
        const charm = pillBox(trigger)?.querySelector(
          "[data-automation-id=selectedItem] [data-automation-id=DELETE_charm]");
        if (!charm) break;
        const before = pillsOf(trigger).length;
        press(charm);
        if (!(await waitFor(() => pillsOf(trigger).length < before, 600))) break;
      }
    } else {
      const restore = keepFocus(trigger);
      try {
        const popup = await openPopup(trigger);
        const empty = popup ? emptyChoice(popupOptions(popup)) : null;
        if (empty) {
          press(empty.el);
          await waitFor(() => shown(trigger) === "", 800);
        }
      } finally {
        await closePopup(trigger);
        restore();
      }
    }
    await settle();
    const after = shown(trigger);
    if (!after) return outcome("applied", "cleared", "");
    return outcome("refused", isPrompt(trigger)
      ? "This list kept its answer when Relay removed it. Remove it with its ×, or choose the answer you want."
      : NO_EMPTY_CHOICE, after);
  },
};

relayContent["drivers/workday_listbox"] = { workdayListbox };
})();
