// Generic ARIA combobox / typeahead (Ashby and Greenhouse location, Workable selects,
// SmartRecruiters autocompletes inside shadow roots, inputs with a <datalist>). Type the text with
// input events, wait for the suggestions, click the best one, then check the input kept it:
// many of these clear text that was typed but not chosen from the list. A place (decision.place)
// is chosen only from a suggestion that names the person's city, region and country. A box that
// takes several answers (MUI's multiple Autocomplete) shows each chosen one as a chip before the
// input and empties the input: the chip is what it kept.
(() => {
"use strict";
const { leave, setTextLikeAPerson } = relayContent.typing;
const {
  SIBLING_LIST, closePopup, listedOptions, notePopupsBefore, openPopup, popupOf, popupOptions,
} = relayContent["drivers/popup_list"];
const {
  fold, isLocked, isVisible, keepFocus, keyPress, matchOption, matchSuggestion, namesPlace, norm, outcome, placeOf,
  press, settle, textOf, waitFor, wantedOf,
} = relayContent["drivers/util"];

/** @param {Element} el */
function inputOf(el) {
  if (el instanceof HTMLInputElement) return el;
  // A host or wrapper handed over by the walker: the combobox inside it (open shadow roots too).
  const direct = el.querySelector("input[role=combobox]");
  if (direct instanceof HTMLInputElement) return direct;
  const inner = el.shadowRoot?.querySelector("input[role=combobox]")
    ?? el.shadowRoot?.querySelector("*")?.shadowRoot?.querySelector("input[role=combobox]");
  return inner instanceof HTMLInputElement ? inner : null;
}

/** Options of a <datalist>, if the input has one. @param {HTMLInputElement} input */
function datalistOptions(input) {
  const list = input.list;
  if (!list) return null;
  return [...list.querySelectorAll("option")].map((o) => ({ value: o.value,
    text: norm(o.label || o.value), selected: o.value === input.value }));
}

/**
 * Whether the input's own text is the answer and suggestions only help: a <datalist>, inline
 * completion (aria-autocomplete=both), or an autofill token such as postal-code or
 * address-line1 (an address lookup over a plain field).
 * @param {HTMLInputElement} input
 */
function takesFreeText(input) {
  if (input.list || input.getAttribute("aria-autocomplete") === "both") return true;
  const tokens = (input.getAttribute("autocomplete") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  return tokens.length > 0 && !tokens.some((t) => t === "on" || t.startsWith("off"));
}

/**
 * Types `text` (keeping focus), then polls `probe` with the time since the typing, up to
 * `timeout`. A box emptied just after it was typed into is typed into once more: the page's blur
 * handler from an earlier look at its list (the snapshot opens and leaves it) may still have been
 * pending, and suggestions for an empty box never come.
 * @template T
 * @param {HTMLInputElement} input @param {string} text
 * @param {(since: number) => T} probe @param {number} timeout
 * @returns {Promise<T|null>}
 */
async function typeAndWait(input, text, probe, timeout) {
  setTextLikeAPerson(input, text, { blur: false });
  let typed = performance.now();
  let again = Boolean(text);
  return waitFor(() => {
    if (again && !input.value) {
      again = false;
      setTextLikeAPerson(input, text, { blur: false });
      typed = performance.now();
      return null;
    }
    return probe(performance.now() - typed);
  }, timeout);
}

/**
 * Types `text`, then the popup once it lists options. Free-text fields only suggest (address
 * lookups): a short look. A lookup gets up to 1.5 s while it shows signs of working (an open
 * popup, aria-expanded, aria-busy), and 0.8 s when nothing at all stirs.
 * @param {HTMLInputElement} input @param {string} text @param {boolean} free
 */
async function typeForSuggestions(input, text, free) {
  const quiet = free ? 400 : 800;
  const found = await typeAndWait(input, text, (since) => {
    const p = popupOf(input);
    if (p && popupOptions(p).length) return p;
    const busy = p || input.getAttribute("aria-expanded") === "true" || input.getAttribute("aria-busy") === "true";
    return !busy && since > quiet ? "quiet" : null;
  }, free ? 400 : 1500);
  return found && found !== "quiet" ? /** @type {Element} */ (found) : null;
}

/**
 * What to type, in turn, until the person's place shows among the suggestions (lists show a
 * few places of a name): the city, then the city with its region written out and as its code
 * ("California", "CA"), or with its country where the profile names no region.
 * @param {string[][]} place @param {string} typed  the plan's text (the city)
 */
function placeQueries(place, typed) {
  const [cities = [], regions = [], countries = []] = place;
  const city = typed || cities[0] || "";
  const bySize = [...regions].sort((a, b) => b.length - a.length);
  const more = bySize.length ? [bySize[0], bySize.at(-1)] : countries.slice(0, 1);
  return [...new Set([city, ...more.filter(Boolean).map((part) => `${city}, ${part}`)])];
}

/**
 * A typeahead that accepts only a suggestion, for a place: types progressively (the city, then
 * more of the place), takes the suggestion that names the person's city, region and country,
 * and checks the page kept it after the box lost focus. When none matches, what was typed is
 * cleared: a wrong place is worse than none.
 * @param {HTMLInputElement} input @param {string} typed @param {string[][]} place @param {string} before
 * @param {() => void} moveOn  see util.js Driver
 */
async function choosePlace(input, typed, place, before, moveOn) {
  let stale = "";
  let offered = 0;
  for (const query of placeQueries(place, typed)) {
    notePopupsBefore(input);
    // Fresh suggestions: a list other than the last query's (services keep it while they search).
    const popup = await typeAndWait(input, query, (since) => {
      const p = popupOf(input);
      const texts = p ? popupOptions(p).map((o) => o.text).join("|") : "";
      if (texts && texts !== stale) return p;
      return since > 1200 ? "quiet" : null;
    }, 1500);
    if (!popup || popup === "quiet") continue;
    const list = /** @type {Element} */ (popup);
    // Suggestions may arrive in steps: give the person's place a moment to show up.
    const hit = await waitFor(() => popupOptions(list).find((o) => namesPlace(o.text, place)), 400);
    const shown = popupOptions(list);
    stale = shown.map((o) => o.text).join("|");
    offered += shown.length;
    if (!hit) continue;
    const beside = hiddenBeside(input);
    const held = beside.map((h) => h.value);
    press(hit.el);
    await waitFor(() => !popupOf(input) || kept(input, hit.text), 600);
    await closePopup(input);
    keyPress(input, "Tab", { up: false });
    leave(input);
    await settle();
    // The page wrote the choice down beside the box (the place's id in its hidden input): it
    // keeps what was chosen, nothing more to watch.
    if (beside.some((h, i) => h.value && h.value !== held[i]) && kept(input, hit.text)) {
      return outcome("applied", `chose "${hit.text}"`, input.value);
    }
    // A box that drops text not chosen from its list does so a moment after losing focus: that
    // is watched while the next field goes on, so from here the page is only read.
    moveOn();
    await waitFor(() => !kept(input, hit.text), 300);
    if (kept(input, hit.text)) return outcome("applied", `chose "${hit.text}"`, input.value);
    return outcome("refused", `the page did not keep "${hit.text}"; left for you`, input.value);
  }
  await closePopup(input);
  if (!offered) {
    // No suggestions at all: a box that keeps typed text takes the city as typed (as for any
    // typeahead that offered nothing); one that takes only suggestions drops it on blur.
    setTextLikeAPerson(input, typed, { blur: false });
    leave(input);
    await settle();
    await waitFor(() => !kept(input, typed), 250);
    if (kept(input, typed)) return outcome("applied", "typed; the page offered no suggestions", input.value);
  }
  if (input.value !== before) setTextLikeAPerson(input, before, { blur: false });
  leave(input);
  await settle();
  const name = place.map((p) => p[0]).filter(Boolean).join(", ");
  return outcome("refused", offered ? `none of the places suggested is ${name}; left for you`
    : `the page suggested no place for ${name}; left for you`, input.value);
}

/**
 * The hidden inputs of the box's own field, where typeaheads keep the chosen place's id: the
 * nearest of three levels up that holds any, never the whole form, and none where it holds many.
 * @param {HTMLInputElement} input @returns {HTMLInputElement[]}
 */
function hiddenBeside(input) {
  let node = input.parentElement;
  for (let depth = 0; node && depth < 3 && !(node instanceof HTMLFormElement); depth += 1) {
    const found = /** @type {HTMLInputElement[]} */ ([...node.querySelectorAll("input[type=hidden]")]);
    if (found.length) return found.length <= 3 ? found : [];
    node = node.parentElement;
  }
  return [];
}

/**
 * The chips before the input in its box: answers already chosen in a box that takes several,
 * each with its own remove control (or itself a button). Labels and outlines are no chips.
 * @param {HTMLInputElement} input @returns {string[]}
 */
function chipsOf(input) {
  /** @type {string[]} */
  const chips = [];
  for (let el = input.previousElementSibling; el; el = el.previousElementSibling) {
    if (el.matches("label, legend, fieldset, [aria-hidden=true]")) continue;
    if (!el.matches("[role=button]") && !el.querySelector("button, [role=button], svg")) continue;
    const text = norm(textOf(el));
    if (text) chips.unshift(text);
  }
  return chips;
}

/** What the box shows: its text, or else its chips. @param {HTMLInputElement} input */
function shownIn(input) {
  return norm(input.value) || chipsOf(input).join(", ");
}

/** Whether what the input shows now is the chosen text. */
function kept(/** @type {HTMLInputElement} */ input, /** @type {string} */ text) {
  const v = fold(input.value);
  return Boolean(v) && (v === fold(text) || v.startsWith(fold(text)) || fold(text).startsWith(v));
}

/** @type {import("./util.js").Driver} */
const combobox = {
  name: "combobox",
  read(el) {
    const input = inputOf(el);
    return input ? shownIn(input) : "";
  },
  matches(el) {
    const input = inputOf(el);
    if (!input || input.type === "hidden") return false;
    return input.getAttribute("role") === "combobox"
      || ["list", "both"].includes(input.getAttribute("aria-autocomplete") ?? "")
      || input.list !== null || Boolean(input.closest("auto-complete[for]"))
      // A plain text input with a suggestion list beside it (Lever's location).
      || (["text", "search"].includes(input.type)
        && Boolean(input.parentElement?.querySelector(`:scope > :is(${SIBLING_LIST})`)));
  },
  async describe(el) {
    const input = /** @type {HTMLInputElement} */ (inputOf(el));
    const value = norm(input.value);
    const fromList = datalistOptions(input) ?? listedOptions(input);
    if (fromList) return { widget: "combobox", role: "combobox", options: fromList, value };
    // A hidden typeahead (the search box of a closed dropdown) is not opened: nobody can see it.
    if (!isVisible(input)) return { widget: "combobox", role: "combobox", options: [], value };
    // Select-like comboboxes list their options when opened; typeaheads show nothing until typed.
    const restore = keepFocus(input);
    /** @type {{value: string, text: string, selected: boolean}[]} */
    let options = [];
    try {
      // Typeaheads show nothing until typed into: a glance, unless the input says it opened.
      const popup = await openPopup(input, 700, input.readOnly ? {} : { glance: 50 });
      if (popup) {
        options = popupOptions(popup).map(({ value: v, text, selected }) => ({ value: v, text, selected }));
      }
    } finally {
      await closePopup(input);
      restore();
    }
    if (norm(input.value) !== value) setTextLikeAPerson(input, value);
    return { widget: "combobox", role: "combobox", options, value };
  },
  async apply(el, decision, hooks = {}) {
    const input = inputOf(el);
    if (!input || !input.isConnected) return outcome("not_found", "combobox is gone");
    const locked = isLocked(input);
    const wanted = norm(decision.value) || wantedOf(decision)[0];
    if (!wanted) return outcome("skipped", "nothing to choose", shownIn(input));
    const before = input.value;
    // Read-only comboboxes (Workable's selects) are chosen from the list, not typed into.
    if (locked === "disabled") return outcome("refused", "combobox is disabled", before);
    // Text typed into an unseen box (a closed dropdown's search) shows no suggestions to pick.
    if (!isVisible(input) && !isVisible(input.parentElement)) {
      return outcome("refused", "the combobox is hidden", before);
    }
    const suggested = datalistOptions(input);
    if (suggested && locked !== "read-only") {
      // A <datalist> only suggests: the typed text is the answer.
      const hit = matchOption(suggested, wanted);
      setTextLikeAPerson(input, hit ? hit.value : wanted);
      await settle();
      if (!kept(input, hit ? hit.value : wanted)) {
        return outcome("refused", "the page dropped the text", shownIn(input));
      }
      return outcome("applied", hit ? `typed suggested "${hit.value}"` : "typed (not one of the suggestions)",
        shownIn(input));
    }
    const place = placeOf(decision);
    if (place.length && locked !== "read-only" && !takesFreeText(input)) {
      return choosePlace(input, wanted, place, before, hooks.moveOn ?? (() => {}));
    }
    let popup = null;
    // The plan's "set_text" says the text itself is the answer, like a free-text field.
    const free = takesFreeText(input) || decision.action === "set_text";
    if (locked !== "read-only") {
      notePopupsBefore(input);
      popup = await typeForSuggestions(input, wanted, free);
    }
    // Typing showed nothing: only a select-like combobox still opens on a press or ArrowDown.
    if (!popup && locked === "read-only") popup = await openPopup(input);
    // Suggestions may arrive in steps (debounced search): give the match a moment to show up.
    const list = popup;
    const hit = list ? await waitFor(() => matchSuggestion(popupOptions(list), wanted), 700) : null;
    if (!hit) {
      await closePopup(input);
      if ((free || !popup) && locked !== "read-only" && kept(input, wanted)) {
        leave(input);
        await settle();
        // With no list at all, the text is the answer if the page keeps it (a lookup that
        // offered nothing); a widget that takes only picked items clears it on blur.
        if (!free) await waitFor(() => !kept(input, wanted), 250);
        if (kept(input, wanted)) {
          return outcome("applied", free ? "typed; no suggestion needed" : "typed; the page offered no suggestions",
            shownIn(input));
        }
      }
      // Leave no half-typed text behind.
      if (input.value !== before && locked !== "read-only") setTextLikeAPerson(input, before, { blur: false });
      leave(input);
      return outcome("refused", `no suggestion matches "${wanted}"`, shownIn(input));
    }
    const chipsBefore = chipsOf(input).length;
    press(hit.el);
    const text = hit.text;
    // A chip for the choice, new since the press: a box of several answers kept it.
    const chipped = () => chipsOf(input).length > chipsBefore
      && chipsOf(input).some((c) => fold(c) === fold(text));
    await waitFor(() => !popupOf(input) || kept(input, text) || chipped(), 600);
    await closePopup(input);
    // Tab away as a person would; some widgets commit or clear on blur.
    keyPress(input, "Tab", { up: false });
    leave(input);
    await settle();
    if (chipped() && !norm(input.value)) return outcome("applied", `chose "${text}"`, shownIn(input));
    if (!kept(input, text) && !kept(input, wanted)) {
      return outcome("refused", `"${text}" did not stay in the field`, shownIn(input));
    }
    return outcome("applied", `chose "${text}"`, shownIn(input));
  },
};

relayContent["drivers/combobox"] = { combobox };
})();
