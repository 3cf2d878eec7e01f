// Dates split into sections: Workday's `dateInputWrapper` with month / day / year spinbutton
// inputs (also month/year and year-only variants), and a group of spinbutton sections named
// month / day / year (MUI X's accessible date field, React Aria's DateField: contenteditable spans
// beside a hidden input). Each section gets its digits typed in.
(() => {
"use strict";
const { leave, setTextLikeAPerson } = relayContent.typing;
const { parseIso } = relayContent["drivers/date_format"];
const { fire, isLocked, nextTask, norm, outcome, settle } = relayContent["drivers/util"];

const WRAPPER = "[data-automation-id=dateInputWrapper], [data-automation-id=dateInputContainer]";
const GROUP = "[role=group]";

/** Which part a section holds. @param {Element} input @returns {"m"|"d"|"y"|null} */
function kindOf(input) {
  const key = [input.getAttribute("data-automation-id"), input.getAttribute("aria-label"), input.id]
    .join(" ").toLowerCase();
  if (/month/.test(key)) return "m";
  if (/day/.test(key)) return "d";
  if (/year/.test(key)) return "y";
  return null;
}

// Controls other than a date's sections: a group holding any is a form's section, not a date.
const OTHER_CONTROL = "select, textarea, [role=combobox], [role=listbox], [role=radiogroup], "
  + "[role=textbox], input:not([type=hidden]):not([aria-hidden=true]):not([role=spinbutton])";

/**
 * A group's spinbutton sections, when it is one date: one to three sections, each naming a
 * different part of a date, and no other control beside them (a stepper group with a "Quantity"
 * spinbutton is no date, nor is a form section holding a date among other fields).
 * @param {Element} group
 */
function groupSections(group) {
  if (group.matches(WRAPPER) || group.querySelector(WRAPPER) || group.querySelector(OTHER_CONTROL)) return [];
  const spins = [...group.querySelectorAll("[role=spinbutton]")];
  if (!spins.length || spins.length > 3) return [];
  const kinds = spins.map(kindOf);
  return kinds.every((k) => k !== null) && new Set(kinds).size === kinds.length ? spins : [];
}

/** @param {Element} el */
function wrapperOf(el) {
  const workday = el.closest(WRAPPER) ?? (el.matches(WRAPPER) ? el : null);
  if (workday) return workday;
  const group = el.closest(GROUP);
  return group && groupSections(group).length ? group : null;
}

/**
 * @typedef {{ input: HTMLElement, kind: "m"|"d"|"y"|null }} Section
 * @param {Element} wrapper @returns {Section[]}
 */
function sections(wrapper) {
  const found = wrapper.matches(GROUP) && !wrapper.matches(WRAPPER)
    ? groupSections(wrapper) : [...wrapper.querySelectorAll("input")];
  return found
    .map((input) => ({ input: /** @type {HTMLElement} */ (input), kind: kindOf(input) }))
    .filter((s) => s.kind !== null);
}

/** What a section shows (aria-valuenow when it has no text). @param {HTMLElement} input */
function sectionValue(input) {
  if (input.isContentEditable) {
    // An empty section shows its placeholder ("MM") and says so in aria-valuetext.
    return input.getAttribute("aria-valuetext") === "Empty" ? "" : norm(input.textContent);
  }
  const v = norm(/** @type {HTMLInputElement} */ (input).value);
  return v || norm(input.getAttribute("aria-valuetext") ?? input.getAttribute("aria-valuenow") ?? "");
}

/** @param {Element} wrapper */
function shown(wrapper) {
  const parts = sections(wrapper).map((s) => sectionValue(s.input));
  return parts.every((p) => !p || /^[a-z]+$/i.test(p)) ? "" : parts.join("/");
}

/**
 * Types one section's digits. A contenteditable section is typed only once the field has seen
 * it focused (the field picks the active section on focus, a task later).
 * @param {HTMLElement} input @param {string} digits
 */
async function typeSection(input, digits) {
  if (input.isContentEditable) {
    input.focus({ preventScroll: true });
    await nextTask();
    setTextLikeAPerson(input, digits, { blur: false });
    await nextTask();
    return;
  }
  setTextLikeAPerson(input, digits, { blur: false });
  fire(input, ["change"]);
}

/** An element inside a date's sections box other than the box itself (the field is the box). */
function isDatePart(/** @type {Element} */ el) {
  const wrapper = wrapperOf(el);
  return Boolean(wrapper && wrapper !== el);
}

/** @type {import("./util.js").Driver} */
const dateParts = {
  name: "date-parts",
  read(el) {
    const wrapper = wrapperOf(el);
    return wrapper ? shown(wrapper) : "";
  },
  matches(el) {
    const wrapper = wrapperOf(el);
    return Boolean(wrapper && sections(wrapper).length);
  },
  async describe(el) {
    const wrapper = /** @type {Element} */ (wrapperOf(el));
    return { widget: "date_parts", options: [], value: shown(wrapper) };
  },
  async apply(el, decision) {
    const wrapper = wrapperOf(el);
    if (!wrapper || !wrapper.isConnected) return outcome("not_found", "date field is gone");
    const parts = parseIso(decision.value ?? "");
    if (!parts) return outcome("refused", `"${decision.value}" is not an ISO date`, shown(wrapper));
    const list = sections(wrapper);
    /** @type {Record<string, string|null>} */
    const want = {
      m: parts.m === null ? null : String(parts.m).padStart(2, "0"),
      d: parts.d === null ? null : String(parts.d).padStart(2, "0"),
      y: String(parts.y),
    };
    for (const { input, kind } of list) {
      if (want[kind ?? "y"] === null) {
        return outcome("refused", `the field needs a ${kind === "m" ? "month" : "day"}`, shown(wrapper));
      }
      const locked = isLocked(input);
      if (locked && locked !== "read-only") return outcome("refused", `date section is ${locked}`, shown(wrapper));
    }
    for (const { input, kind } of list) await typeSection(input, /** @type {string} */ (want[kind ?? "y"]));
    const last = list.at(-1)?.input;
    if (last) leave(last);
    await settle();
    const wrong = list.filter(({ input, kind }) => {
      const got = sectionValue(input).replace(/^0+/, "");
      return got !== String(want[kind ?? "y"]).replace(/^0+/, "");
    });
    if (wrong.length) {
      const which = wrong.map((w) => w.kind).join(", ");
      return outcome("refused", `sections did not keep the date: ${which}`, shown(wrapper));
    }
    return outcome("applied", `typed ${list.map((s) => want[s.kind ?? "y"]).join("/")}`, shown(wrapper));
  },
};

relayContent["drivers/date_parts"] = { dateParts, isDatePart };
})();
