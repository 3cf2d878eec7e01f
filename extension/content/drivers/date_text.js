// Dates typed into a text box: react-datepicker (Ashby: parses only on a Tab keydown), flatpickr
// with allowInput, and plain inputs whose placeholder gives the format ("MM/DD/YYYY", "YYYY").
(() => {
"use strict";
const { leave, setTextLikeAPerson } = relayContent.typing;
const {
  defaultFormat, formatDate, formatFromPlaceholder, parseIso, readDate, sameDate,
} = relayContent["drivers/date_format"];
const { isLocked, isVisible, keyPress, norm, outcome, press, settle, waitFor } = relayContent["drivers/util"];

const PICKER = ".react-datepicker__input-container, .react-datepicker-wrapper";

/** @param {HTMLInputElement} input */
function formatOf(input) {
  const declared = input.getAttribute("data-date-format") ?? input.getAttribute("data-format") ?? "";
  return formatFromPlaceholder(input.placeholder) || formatFromPlaceholder(declared)
    // react-datepicker's default dateFormat.
    || (input.closest(PICKER) ? "MM/DD/YYYY" : "") || defaultFormat(input.ownerDocument);
}

/** An open calendar popup, if any. @param {Document} doc */
function openCalendar(doc) {
  return [...doc.querySelectorAll(
    ".react-datepicker-popper, .react-datepicker__tab-loop, .flatpickr-calendar.open")]
    .find(isVisible) ?? null;
}

/** @type {import("./util.js").Driver} */
const dateText = {
  name: "date-text",
  read: (el) => norm(/** @type {HTMLInputElement} */ (el).value),
  matches(el) {
    if (!(el instanceof HTMLInputElement) || !["text", "search", ""].includes(el.getAttribute("type") ?? "")) {
      return false;
    }
    return Boolean(el.closest(PICKER)) || el.matches(".flatpickr-input, .ashby-application-form-input-date")
      || formatFromPlaceholder(el.placeholder) !== "";
  },
  async describe(el) {
    const input = /** @type {HTMLInputElement} */ (el);
    // The format stays inside the driver: the plan sends ISO dates (FormField.pattern is the
    // HTML pattern attribute, not a date format).
    return { widget: "date_text", options: [], value: norm(input.value) };
  },
  async apply(el, decision) {
    const input = /** @type {HTMLInputElement} */ (el);
    if (!input.isConnected) return outcome("not_found", "date field is gone");
    const locked = isLocked(input);
    // flatpickr marks its input read-only but takes typed dates with allowInput.
    if (locked && !input.matches(".flatpickr-input")) {
      return outcome("refused", `date field is ${locked}`, input.value);
    }
    const fmt = formatOf(input);
    const parts = parseIso(decision.value ?? "");
    let text = norm(decision.value);
    if (!parts && decision.action === "set_date") {
      return outcome("refused", `"${decision.value}" is not a valid ISO date`, input.value);
    }
    if (parts && decision.action !== "set_text") {
      const written = formatDate(fmt, parts);
      if (written === null) {
        return outcome("refused", `"${decision.value}" lacks a part ${fmt} needs`, input.value);
      }
      text = written;
    }
    if (!text) return outcome("skipped", "no date given", input.value);
    setTextLikeAPerson(input, text, { blur: false });
    // react-datepicker (and Ashby's wrapper) commit the typed text on a Tab keydown.
    keyPress(input, "Tab", { up: false });
    const doc = input.ownerDocument;
    if (openCalendar(doc)) {
      keyPress(input, "Escape");
      // Pickers that close on Escape do so at once; the others get the press outside below.
      await waitFor(() => !openCalendar(doc), 100);
    }
    leave(input);
    await settle();
    if (openCalendar(doc)) {
      // Still open (some pickers re-focus on blur while open): a press outside closes it.
      press(doc.body, ["mousedown", "mouseup"]);
      await waitFor(() => !openCalendar(doc), 300);
    }
    const after = norm(input.value);
    const ok = parts && decision.action !== "set_text" ? sameDate(readDate(fmt, after), parts) : after === text;
    if (!ok) return outcome("refused", `the field shows "${after}" after typing "${text}"`, after);
    return outcome("applied", `typed ${text} (${fmt})`, after);
  },
};

relayContent["drivers/date_text"] = { dateText };
})();
