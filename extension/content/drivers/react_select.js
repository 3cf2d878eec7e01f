// react-select (Greenhouse's new job boards, many React forms): an input[role=combobox] inside
// `.select__control` (or an emotion `…-control` class). The menu opens on a mousedown on the
// control and is often portaled to <body>; an option commits on click; the chosen value renders
// as `.select__single-value` (single) or `.select__multi-value` chips (multi).
(() => {
"use strict";
const { leave, setTextLikeAPerson } = relayContent.typing;
const {
  byId, fold, isLocked, isVisible, keepFocus, keyPress, matchOption, matchSuggestion, namesPlace, norm, outcome, placeOf,
  press, settle, textOf, waitFor, wantedOf,
} = relayContent["drivers/util"];

const CONTROL = ".select__control, [class*='-control']";

/** The control element for an input or any node inside the widget. @param {Element} el */
function controlOf(el) {
  const control = el.closest(CONTROL);
  if (control) return control;
  // The walker may hand over the container: look down for the control.
  return el.querySelector(".select__control") ?? [...el.querySelectorAll("[class*='-control']")]
    .find((c) => c.querySelector("input[role=combobox]")) ?? null;
}

/** @param {Element} control */
function inputOf(control) {
  return /** @type {HTMLInputElement|null} */ (control.querySelector("input[role=combobox], input"));
}

/** @param {Element} control */
function isMulti(control) {
  if (control.querySelector(".select__multi-value, [class*='multiValue'], [class*='value-container--is-multi']")) {
    return true;
  }
  // Emotion-only classes say nothing about multi until a chip exists; an open menu does.
  const input = inputOf(control);
  const listbox = input ? byId(input, input.getAttribute("aria-controls")) : null;
  return listbox?.getAttribute("aria-multiselectable") === "true";
}

/** Texts of the committed value(s), as shown. @param {Element} control */
function chosen(control) {
  const chips = [...control.querySelectorAll(".select__multi-value, [class*='multiValue']")]
    .filter((c) => !c.parentElement?.closest(".select__multi-value, [class*='multiValue']"));
  if (chips.length) {
    return chips.map((c) => textOf(c.querySelector(".select__multi-value__label, div") ?? c))
      .filter(Boolean);
  }
  const single = control.querySelector(".select__single-value, [class*='singleValue']");
  return single ? [textOf(single)] : [];
}

/** The open menu's option elements. @param {HTMLInputElement} input */
function menuOptions(input) {
  const listbox = byId(input, input.getAttribute("aria-controls"));
  let nodes = listbox ? [...listbox.querySelectorAll("[role=option], [id*='-option-']")] : [];
  if (!nodes.length) {
    nodes = [...input.ownerDocument.querySelectorAll(
      "[id^='react-select'][id*='-option-'], .select__menu .select__option, .select__option")];
  }
  return nodes.filter((n) => !n.getAttribute("aria-disabled") || n.getAttribute("aria-disabled") === "false");
}

function menuOpen(/** @type {HTMLInputElement} */ input) {
  return input.getAttribute("aria-expanded") === "true"
    || Boolean(input.ownerDocument.querySelector(".select__menu, [id^='react-select'][id$='-listbox']"));
}

/** Opens the menu the way a click does and waits for it. @param {Element} control */
async function openMenu(control) {
  const input = inputOf(control);
  if (!input) return false;
  if (!menuOpen(input)) press(control, ["mousedown"]);
  if (await waitFor(() => menuOpen(input), 600)) return true;
  // Some setups open only from the keyboard.
  input.focus({ preventScroll: true });
  keyPress(input, "ArrowDown");
  return Boolean(await waitFor(() => menuOpen(input), 600));
}

async function closeMenu(/** @type {HTMLInputElement} */ input) {
  if (menuOpen(input)) keyPress(input, "Escape");
  await waitFor(() => !menuOpen(input), 300);
}

/**
 * After typing: the matching suggestion, or null once the menu has said "no options" (and is not
 * loading) for a moment, or after 1.5 s.
 * @param {HTMLInputElement} input @param {string} wanted @param {string[][]} [place]  a place to find
 */
async function waitForSuggestion(input, wanted, place = []) {
  let emptySince = 0;
  const found = await waitFor(() => {
    const options = asOptions(menuOptions(input));
    // A place takes only the suggestion that names the person's city, region and country.
    const hit = place.length ? options.find((o) => namesPlace(o.text, place)) ?? null : matchSuggestion(options, wanted);
    if (hit) return hit;
    const doc = input.ownerDocument;
    const empty = doc.querySelector(".select__menu-notice--no-options, [class*='-NoOptionsMessage']")
      && !doc.querySelector(
        ".select__menu-notice--loading, [class*='-LoadingMessage'], [class*='loadingIndicator']");
    if (!empty) { emptySince = 0; return null; }
    emptySince ||= performance.now();
    return performance.now() - emptySince > 250 ? "none" : null;
  }, 1500);
  return found && found !== "none" ? found : null;
}

/**
 * Whether the open menu is settled without options: it shows a notice ("No options", "Type to
 * search") and is not loading. An async select says so at once; waiting for options is useless.
 * @param {HTMLInputElement} input
 */
function menuSaysEmpty(input) {
  const doc = input.ownerDocument;
  return Boolean(doc.querySelector(".select__menu-notice, [class*='-NoOptionsMessage']"))
    && !doc.querySelector(".select__menu-notice--loading, [class*='-LoadingMessage'], [class*='loadingIndicator']");
}

/** Texts of the options the open menu marks selected (opens and closes it). @param {Element} control */
async function selectedInMenu(control) {
  const input = inputOf(control);
  if (!input || !(await openMenu(control))) return [];
  await waitFor(() => menuOptions(input).length, 300);
  const texts = menuOptions(input)
    .filter((n) => n.getAttribute("aria-selected") === "true" || /--is-selected\b/.test(n.className))
    .map((n) => textOf(n));
  await closeMenu(input);
  return texts;
}

/** @param {Element[]} nodes */
const asOptions = (nodes) => nodes.map((n) => ({ value: textOf(n), text: textOf(n), el: n }));

/** @type {import("./util.js").Driver} */
const reactSelect = {
  name: "react-select",
  read(el) {
    const control = controlOf(el);
    return control ? chosen(control).join(", ") : "";
  },
  visibleParts(el) {
    // The input is a 2 px caret box; the person sees the control with the chosen value.
    const control = controlOf(el);
    return control ? [control] : [];
  },
  matches(el) {
    const control = controlOf(el);
    if (!control || control === el && el.matches("input")) return false;
    const input = inputOf(control);
    if (!input || input === control || input.getAttribute("role") !== "combobox") return false;
    // Emotion keeps react-select's labels in class names: `css-<hash>-control`, `…-container`.
    return control.classList.contains("select__control")
      || (/-control\b/.test(control.className) && Boolean(control.closest("[class*='-container']")));
  },
  async describe(el) {
    const control = /** @type {Element} */ (controlOf(el));
    const input = /** @type {HTMLInputElement} */ (inputOf(control));
    const values = chosen(control);
    // A closed select nobody can see shows no menu when pressed: it is not opened.
    if (!isVisible(control)) {
      return { widget: "combobox", role: "combobox", multiple: isMulti(control),
        options: values.map((v) => ({ value: v, text: v, selected: true })), value: values.join(", ") };
    }
    const restore = keepFocus(input);
    let options = [];
    try {
      if (await openMenu(control)) {
        await waitFor(() => menuOptions(input).length || menuSaysEmpty(input), 500);
        // Nothing shown as chosen, nothing selected: aria-selected may mark the menu's cursor.
        options = asOptions(menuOptions(input)).map(({ value, text, el: node }) => ({ value, text,
          selected: values.length > 0 && (node.getAttribute("aria-selected") === "true"
            || /--is-selected\b/.test(node.className) || values.includes(text)) }));
      }
    } finally {
      await closeMenu(input);
      restore();
    }
    // Multi-selects hide chosen options from the menu; list them too.
    for (const v of isMulti(control) ? values : []) {
      if (!options.some((o) => o.text === v)) options.push({ value: v, text: v, selected: true });
    }
    return { widget: "combobox", role: "combobox", multiple: isMulti(control), options,
      value: values.join(", ") };
  },
  async apply(el, decision) {
    const control = controlOf(el);
    if (!control || !control.isConnected) return outcome("not_found", "react-select is gone");
    const input = inputOf(control);
    if (!input) return outcome("not_found", "react-select has no input");
    if (isLocked(input) || control.matches("[class*='--is-disabled']")) {
      return outcome("refused", "react-select is disabled", chosen(control).join(", "));
    }
    const wanted = wantedOf(decision);
    if (!wanted.length) return outcome("skipped", "no option to choose", chosen(control).join(", "));
    const multi = isMulti(control);
    const place = placeOf(decision);
    const fits = (/** @type {{text: string}} */ o, /** @type {string} */ w) => (place.length
      ? namesPlace(o.text, place) : fold(o.text) === fold(w));
    const picked = [];
    for (const w of multi ? wanted : wanted.slice(0, 1)) {
      if (chosen(control).some((c) => fits({ text: c }, w))) { picked.push(w); continue; }
      if (!(await openMenu(control))) {
        return outcome("refused", "the menu did not open", chosen(control).join(", "));
      }
      await waitFor(() => menuOptions(input).length || menuSaysEmpty(input), 500);
      const listed = asOptions(menuOptions(input));
      let hit = place.length ? listed.find((o) => fits(o, w)) ?? null : matchOption(listed, w);
      if (!hit) {
        // Long or async lists: type to filter, as a person would, and wait for the options.
        setTextLikeAPerson(input, w, { blur: false });
        hit = await waitForSuggestion(input, w, place);
      }
      if (!hit) {
        await closeMenu(input);
        leave(input); // uncommitted typed text is dropped on blur
        const why = place.length ? `none of the places suggested is ${place.map((p) => p[0]).join(", ")}; left for you`
          : `no option matches "${w}"`;
        return outcome("refused", why, chosen(control).join(", "));
      }
      const text = hit.text;
      const before = chosen(control);
      press(hit.el);
      // The chosen value may render shorter than its option ("United States +1" shows "+1").
      const shows = (/** @type {string} */ c) => c === text || (c !== "" && fold(text).includes(fold(c)));
      const ok = await waitFor(() => chosen(control).some((c) => shows(c) && !before.includes(c))
        || chosen(control).includes(text), 800);
      // Still unsure (both options render "+1"): ask the menu which option it marks selected.
      if (!ok && !(await selectedInMenu(control)).includes(text)) {
        await closeMenu(input);
        return outcome("refused", `"${text}" did not commit`, chosen(control).join(", "));
      }
      picked.push(text);
    }
    await closeMenu(input);
    leave(input);
    await settle();
    const after = chosen(control);
    const stillShown = (/** @type {string} */ p) => after.some((a) => a !== ""
      && (fold(a) === fold(p) || fold(p).includes(fold(a))));
    const missing = picked.filter((p) => !stillShown(p));
    if (missing.length) return outcome("refused", `lost after blur: ${missing.join(", ")}`, after.join(", "));
    return outcome("applied", `chose ${picked.map((p) => JSON.stringify(norm(p))).join(", ")}`,
      after.join(", "));
  },
  /**
   * Takes every chosen value away as a person would: the clear button, else Backspace per chip.
   * A single select without a clear button cannot be emptied: react-select's Backspace clears
   * a single value only when the select is clearable.
   */
  async clear(el) {
    const control = controlOf(el);
    const input = control ? inputOf(control) : null;
    if (!control || !input) return outcome("not_found", "react-select is gone");
    const clearButton = control.querySelector(".select__clear-indicator, [class*='clearIndicator']");
    if (clearButton) press(clearButton);
    for (let left = chosen(control).length; left > 0 && chosen(control).length; left -= 1) {
      input.focus({ preventScroll: true });
      keyPress(input, "Backspace");
      await settle();
    }
    await closeMenu(input);
    leave(input);
    await settle();
    const after = chosen(control).join(", ");
    return after ? outcome("refused", "This list cannot be emptied once an answer is chosen. "
      + "Choose the answer you want, or reload the page to start again.", after) : outcome("applied", "cleared", "");
  },
};

relayContent["drivers/react_select"] = { reactSelect };
})();
