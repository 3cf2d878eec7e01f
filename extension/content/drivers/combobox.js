// Generic ARIA combobox / typeahead (Ashby and Greenhouse location, Workable selects,
// SmartRecruiters autocompletes inside shadow roots, inputs with a <datalist>). Type the text with
// input events, wait for the suggestions, click the best one, then check the input kept it:
// many of these clear text that was typed but not chosen from the list.
import { leave, setTextLikeAPerson } from "../typing.js";
import { SIBLING_LIST, closePopup, openPopup, popupOf, popupOptions } from "./popup_list.js";
import {
  fold, isLocked, keepFocus, keyPress, matchOption, matchSuggestion, norm, outcome, press, sleep, waitFor,
  wantedOf,
} from "./util.js";

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

/** Whether what the input shows now is the chosen text. */
function kept(/** @type {HTMLInputElement} */ input, /** @type {string} */ text) {
  const v = fold(input.value);
  return Boolean(v) && (v === fold(text) || v.startsWith(fold(text)) || fold(text).startsWith(v));
}

/** @type {import("./util.js").Driver} */
export const combobox = {
  name: "combobox",
  read: (el) => norm(inputOf(el)?.value),
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
    const fromList = datalistOptions(input);
    if (fromList) return { widget: "combobox", role: "combobox", options: fromList, value };
    // Select-like comboboxes list their options when opened; typeaheads show nothing until typed.
    const restore = keepFocus(input);
    /** @type {{value: string, text: string, selected: boolean}[]} */
    let options = [];
    try {
      // Typeaheads show nothing until typed into: do not wait long for them.
      const popup = await openPopup(input, input.readOnly ? 700 : 350);
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
  async apply(el, decision) {
    const input = inputOf(el);
    if (!input || !input.isConnected) return outcome("not_found", "combobox is gone");
    const locked = isLocked(input);
    const wanted = norm(decision.value) || wantedOf(decision)[0];
    if (!wanted) return outcome("skipped", "nothing to choose", input.value);
    const before = input.value;
    // Read-only comboboxes (Workable's selects) are chosen from the list, not typed into.
    if (locked === "disabled") return outcome("refused", "combobox is disabled", before);
    const suggested = datalistOptions(input);
    if (suggested && locked !== "read-only") {
      // A <datalist> only suggests: the typed text is the answer.
      const hit = matchOption(suggested, wanted);
      setTextLikeAPerson(input, hit ? hit.value : wanted);
      await sleep(30);
      if (!kept(input, hit ? hit.value : wanted)) {
        return outcome("refused", "the page dropped the text", input.value);
      }
      return outcome("applied", hit ? `typed suggested "${hit.value}"` : "typed (not one of the suggestions)",
        input.value);
    }
    let popup = null;
    if (locked !== "read-only") {
      setTextLikeAPerson(input, wanted, { blur: false });
      popup = await waitFor(() => {
        const p = popupOf(input);
        return p && popupOptions(p).length ? p : null;
      }, 1500);
    }
    // Typing showed nothing: only a select-like combobox still opens on a press or ArrowDown.
    if (!popup && locked === "read-only") popup = await openPopup(input);
    // Suggestions may arrive in steps (debounced search): give the match a moment to show up.
    const list = popup;
    const hit = list ? await waitFor(() => matchSuggestion(popupOptions(list), wanted), 700) : null;
    if (!hit) {
      const free = datalistOptions(input) !== null || input.getAttribute("aria-autocomplete") === "both";
      await closePopup(input);
      if (free && kept(input, wanted)) {
        leave(input);
        await sleep(30);
        if (kept(input, wanted)) return outcome("applied", "typed; no suggestion needed", input.value);
      }
      // Leave no half-typed text behind.
      if (input.value !== before && locked !== "read-only") setTextLikeAPerson(input, before, { blur: false });
      leave(input);
      return outcome("refused", `no suggestion matches "${wanted}"`, input.value);
    }
    press(hit.el);
    const text = hit.text;
    await waitFor(() => !popupOf(input) || kept(input, text), 600);
    await closePopup(input);
    // Tab away as a person would; some widgets commit or clear on blur.
    keyPress(input, "Tab", { up: false });
    leave(input);
    await sleep(50);
    if (!kept(input, text) && !kept(input, wanted)) {
      return outcome("refused", `"${text}" did not stay in the field`, input.value);
    }
    return outcome("applied", `chose "${text}"`, input.value);
  },
};
