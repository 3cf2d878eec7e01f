// Native date inputs (type=date, month, week, datetime-local): the value is ISO already.
(() => {
"use strict";
const { parseIso } = relayContent["drivers/date_format"];
const { leave } = relayContent.typing;
const { fire, isLocked, outcome, setNativeValue, settle } = relayContent["drivers/util"];

/** The input's value form of an ISO date, for its type. */
function valueFor(/** @type {HTMLInputElement} */ input, /** @type {string} */ iso) {
  const p = parseIso(iso);
  if (!p) return null;
  const mm = String(p.m ?? 1).padStart(2, "0");
  const dd = String(p.d ?? 1).padStart(2, "0");
  if (input.type === "month") return `${p.y}-${mm}`;
  if (input.type === "datetime-local") return `${p.y}-${mm}-${dd}T00:00`;
  if (input.type === "week") return null; // no ATS asks for a week
  return p.m && p.d ? `${p.y}-${mm}-${dd}` : null;
}

/** @type {import("./util.js").Driver} */
const dateNative = {
  name: "date-native",
  read: (el) => /** @type {HTMLInputElement} */ (el).value,
  matches: (el) => el instanceof HTMLInputElement
    && ["date", "month", "week", "datetime-local"].includes(el.type),
  async describe(el) {
    const input = /** @type {HTMLInputElement} */ (el);
    return { widget: "date", options: [], value: input.value, min: input.min, max: input.max };
  },
  async apply(el, decision) {
    const input = /** @type {HTMLInputElement} */ (el);
    if (!input.isConnected) return outcome("not_found", "date input is gone");
    const locked = isLocked(input);
    if (locked) return outcome("refused", `date input is ${locked}`, input.value);
    const value = valueFor(input, decision.value ?? "");
    if (!value) {
      return outcome("refused", `cannot write "${decision.value}" into a ${input.type} input`, input.value);
    }
    input.focus({ preventScroll: true });
    setNativeValue(input, value);
    fire(input, ["input", "change"]);
    leave(input);
    await settle();
    if (input.value !== value) return outcome("refused", "the input rejected the date (min/max?)", input.value);
    return outcome("applied", `set ${value}`, input.value);
  },
};

relayContent["drivers/date_native"] = { dateNative };
})();
