// Dates chosen in a Pikaday calendar (HubSpot's forms, many CMS sites): the text box is often
// read-only, so a date is given as a person gives it, by opening the calendar, setting its month
// and year lists and pressing the day. Pikaday draws .pika-single with select.pika-select-month /
// pika-select-year and day buttons carrying data-pika-year / -month (0-based) / -day, and picks
// on mousedown.
(() => {
"use strict";
const { parseIso } = relayContent["drivers/date_format"];
const { isVisible, norm, outcome, press, settle, waitFor } = relayContent["drivers/util"];

const CALENDAR = ".pika-single";
// How far up from the box its calendar may sit (HubSpot: input, .hs-dateinput, .hs-datepicker).
const NEAR = 3;

/** The calendar drawn beside this box (Pikaday's `container` option puts it there). @param {Element} el */
function calendarOf(el) {
  let box = el.parentElement;
  for (let depth = 0; box && depth < NEAR; depth += 1, box = box.parentElement) {
    const found = box.querySelector(CALENDAR);
    if (found) return /** @type {HTMLElement} */ (found);
    if (box.matches("form, fieldset, body")) break;
  }
  return null;
}

/** @param {HTMLElement} cal */
const isOpen = (cal) => isVisible(cal) && !cal.classList.contains("is-hidden");

/**
 * Sets one of the calendar's lists as a person picks from it; false when it offers no such value.
 * @param {HTMLElement} cal @param {string} which @param {number} value
 */
async function pickList(cal, which, value) {
  const list = /** @type {HTMLSelectElement|null} */ (cal.querySelector(`select.pika-select-${which}`));
  if (!list) return false;
  if (list.value === String(value)) return true;
  if (![...list.options].some((o) => o.value === String(value) && !o.disabled)) return false;
  list.value = String(value);
  list.dispatchEvent(new Event("change", { bubbles: true }));
  await settle();
  return true;
}

/**
 * Closes the calendar as a person does, by leaving the box and clicking beside it.
 * @param {HTMLInputElement} input @param {HTMLElement} cal
 */
async function close(input, cal) {
  if (!isOpen(cal)) return;
  input.blur();
  press(input.ownerDocument.body, ["mousedown", "mouseup", "click"]);
  await waitFor(() => !isOpen(cal), 500);
}

/** @param {HTMLElement} cal @param {{year: number, month: number, day: number}} p */
function dayButton(cal, p) {
  const sel = `button.pika-day[data-pika-year="${p.year}"][data-pika-month="${p.month - 1}"][data-pika-day="${p.day}"]`;
  const button = cal.querySelector(sel);
  return button && !button.closest(".is-disabled, .is-outside-current-month") ? button : null;
}

/**
 * Opens the calendar, sets its year and month lists and presses the day: null when pressed,
 * "closed" when the calendar was shut by then, else the outcome that stops the choice.
 * @param {HTMLInputElement} input @param {HTMLElement} cal
 * @param {{year: number, month: number, day: number}} parts @param {string} wanted
 * @returns {Promise<null|"closed"|import("./util.js").ApplyOutcome>}
 */
async function chooseDay(input, cal, parts, wanted) {
  input.focus();
  press(input);
  if (!(await waitFor(() => isOpen(cal), 1000))) {
    input.blur();
    return outcome("refused", "the calendar did not open", input.value);
  }
  if (!(await pickList(cal, "year", parts.year)) || !(await pickList(cal, "month", parts.month - 1))) {
    await close(input, cal);
    return outcome("refused", `the calendar offers no ${parts.year}-${parts.month}`, input.value);
  }
  const button = await waitFor(() => dayButton(cal, parts), 500);
  if (!button) {
    await close(input, cal);
    return outcome("refused", `the calendar does not let ${wanted} be chosen`, input.value);
  }
  if (!isOpen(cal)) return "closed";
  const before = input.value;
  press(button);
  await waitFor(() => input.value !== before || !isOpen(cal), 500);
  return null;
}

/** @type {import("./util.js").Driver} */
const pikaday = {
  name: "pikaday",
  read: (el) => norm(/** @type {HTMLInputElement} */ (el).value),
  matches(el) {
    if (!(el instanceof HTMLInputElement) || !["text", ""].includes(el.getAttribute("type") ?? "")) return false;
    return calendarOf(el) !== null;
  },
  async describe(el) {
    return { widget: "date_text", options: [], value: norm(/** @type {HTMLInputElement} */ (el).value) };
  },
  async apply(el, decision) {
    const input = /** @type {HTMLInputElement} */ (el);
    if (!input.isConnected) return outcome("not_found", "date field is gone");
    if (input.disabled) return outcome("refused", "date field is disabled", input.value);
    const iso = parseIso(decision.value ?? "");
    const parts = iso && iso.m && iso.d ? { year: iso.y, month: iso.m, day: iso.d } : null;
    if (!parts || decision.action === "set_text") {
      // The calendar takes whole days; a text in the page's own format is the typing driver's.
      return outcome("refused", `"${decision.value}" is no ISO day for the calendar`, input.value);
    }
    const cal = calendarOf(input);
    if (!cal) return outcome("not_found", "the calendar is gone", input.value);
    // A page's own timers (another calendar closing, a blur it reacts to late) may shut the
    // calendar while the lists are set: then it is opened again, once, as a person would.
    let failed = await chooseDay(input, cal, parts, decision.value ?? "");
    if (failed === "closed") failed = await chooseDay(input, cal, parts, decision.value ?? "");
    if (failed === "closed") {
      return outcome("refused", "the calendar closed before the day could be chosen", input.value);
    }
    if (failed) return failed;
    await close(input, cal);
    const after = norm(input.value);
    // The box shows the day in the page's own format; the calendar says which day it holds.
    const held = /** @type {HTMLElement|null} */ (cal.querySelector("td.is-selected button.pika-day"));
    const same = held && Number(held.dataset.pikaYear) === parts.year
      && Number(held.dataset.pikaMonth) === parts.month - 1 && Number(held.dataset.pikaDay) === parts.day;
    if (!after || !same) return outcome("refused", "the calendar does not hold the day after choosing it", after);
    return outcome("applied", `chose ${decision.value} in the calendar`, after);
  },
};

relayContent["drivers/pikaday"] = { pikaday };
})();
