// Shared reading of choice controls (radios, checkboxes, yes/no buttons): which controls answer
// one question, what each one says, and whether it is on. Not a driver itself.
(() => {
"use strict";
const { choiceLabel, clickCancelled, isUntypedFormButton, norm, press, rootOf, textOf } = relayContent["drivers/util"];

/**
 * @typedef {{value: string, text: string, selected: boolean, el: Element}} Choice
 */

const TOGGLE_BUTTON = "button[data-option], button[aria-pressed], [role=button][aria-pressed], "
  + "button.cx-select-pill-section, [data-ui=option]";

/** Whether a choice control is on. @param {Element} el */
function isOn(el) {
  if (el instanceof HTMLInputElement) return el.checked;
  for (const attr of ["aria-pressed", "aria-checked", "aria-selected"]) {
    const v = el.getAttribute(attr);
    if (v !== null) return v === "true";
  }
  return /\b(is-)?(selected|active|checked|pressed)\b/i.test(el.className);
}

/** @param {HTMLInputElement} input */
function inputChoice(input) {
  const text = choiceLabel(input);
  // Ashby radios are all value="on": the label is the only meaningful value.
  const value = !input.value || input.value === "on" ? text : input.value;
  return { value, text: text || value, selected: input.checked, el: input };
}

/** @param {Element} el */
function buttonChoice(el) {
  const text = textOf(el) || norm(el.getAttribute("aria-label"));
  const value = el.getAttribute("data-option") ?? el.getAttribute("data-value") ?? text;
  return { value, text, selected: isOn(el), el };
}

/** Same-named inputs of one type that answer one question, in document order. */
function sameName(/** @type {HTMLInputElement} */ input) {
  if (!input.name) return null;
  const scope = input.form ?? rootOf(input);
  return [...scope.querySelectorAll(`input[type=${input.type}]`)]
    .filter((i) => /** @type {HTMLInputElement} */ (i).name === input.name);
}

/**
 * The choices a radio group offers, for a radio, a yes/no button, or their container.
 * @param {Element} el
 * @returns {Choice[]}
 */
function radioChoices(el) {
  if (el instanceof HTMLInputElement && el.type === "radio") {
    const group = sameName(el)
      ?? [...(el.closest("fieldset, [role=radiogroup]") ?? el.parentElement ?? el)
        .querySelectorAll("input[type=radio]")];
    return group.map((i) => inputChoice(/** @type {HTMLInputElement} */ (i)));
  }
  if (el.matches(TOGGLE_BUTTON)) {
    const box = el.parentElement;
    const buttons = box ? [...box.querySelectorAll(TOGGLE_BUTTON)] : [el];
    return buttons.map(buttonChoice);
  }
  const radios = [...el.querySelectorAll("input[type=radio]")];
  if (radios.length) return radios.map((i) => inputChoice(/** @type {HTMLInputElement} */ (i)));
  const roles = [...el.querySelectorAll("[role=radio]")];
  if (roles.length) return roles.map(buttonChoice);
  return [...el.querySelectorAll(TOGGLE_BUTTON)].map(buttonChoice);
}

/**
 * The checkboxes of a checkbox group, for the container or one of its boxes.
 * @param {Element} el
 * @returns {Choice[]}
 */
function checkboxChoices(el) {
  if (el instanceof HTMLInputElement && el.type === "checkbox") {
    const group = sameName(el) ?? [el];
    return group.map((i) => inputChoice(/** @type {HTMLInputElement} */ (i)));
  }
  const boxes = [...el.querySelectorAll("input[type=checkbox]")];
  if (boxes.length) return boxes.map((i) => inputChoice(/** @type {HTMLInputElement} */ (i)));
  return [...el.querySelectorAll("[role=checkbox]")].map(buttonChoice);
}

/**
 * Toggles a choice like a person: a click on the control (a click on a visually hidden radio
 * still activates it; its label would too). press() stops short of clicking a submit control; a
 * yes/no drawn as untyped form buttons still gets its click, cancelled so it cannot submit.
 * @param {Element} el
 */
function clickChoice(el) {
  press(el);
  if (isUntypedFormButton(el)) clickCancelled(el);
}

relayContent["drivers/choices"] = {
  isOn, radioChoices, checkboxChoices, clickChoice, TOGGLE_BUTTON,
};
})();
