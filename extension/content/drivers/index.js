// Picks the widget driver for a form control. Order matters: library widgets wrap native controls
// (select2 hides a <select>, react-datepicker and typeaheads are text inputs, Workday dates are
// spinbutton inputs), so the specific drivers come before the generic ones.
//
// Bare native radios and checkboxes are not claimed here: the snapshot models them as groups whose
// options carry their own ids. The radio and checkbox drivers serve button-style groups and
// containers, and callers may use them directly (see DRIVERS_BY_NAME).
(() => {
"use strict";
const { ariaListbox } = relayContent["drivers/aria_listbox"];
const { checkbox } = relayContent["drivers/checkbox"];
const { checkboxGroup } = relayContent["drivers/checkbox_group"];
const { TOGGLE_BUTTON } = relayContent["drivers/choices"];
const { combobox } = relayContent["drivers/combobox"];
const { contentEditable } = relayContent["drivers/contenteditable"];
const { dateNative } = relayContent["drivers/date_native"];
const { dateParts, isDatePart } = relayContent["drivers/date_parts"];
const { dateText } = relayContent["drivers/date_text"];
const { fileUpload } = relayContent["drivers/file"];
const { pikaday } = relayContent["drivers/pikaday"];
const { nativeSelect } = relayContent["drivers/native_select"];
const { popupSelect, proxyTriggerOf } = relayContent["drivers/popup_select"];
const { radioGroup } = relayContent["drivers/radio_group"];
const { reactSelect } = relayContent["drivers/react_select"];
const { searchSelect } = relayContent["drivers/search_select"];
const { select2 } = relayContent["drivers/select2"];
const { workdayListbox } = relayContent["drivers/workday_listbox"];
const { isKeptFromPerson, isMirrorInput } = relayContent["drivers/util"];

/** @type {import("./util.js").Driver[]} */
const DRIVERS = [
  fileUpload, // before anything that looks inside containers: an upload group is one field
  select2, // before native-select: the <select> it hides is its model
  dateParts, // before anything matching inputs: the sections are plain inputs
  pikaday, // before date-text: its box may be read-only, and its calendar always takes a day
  dateText, // before combobox: react-datepicker inputs can carry combobox roles
  dateNative,
  reactSelect, // before combobox: its input is role=combobox
  searchSelect, // before combobox: its input is role=combobox, its value shows beside it
  workdayListbox, // before popup-select: both are aria-haspopup buttons
  popupSelect,
  nativeSelect,
  ariaListbox, // after the library widgets, whose popups and pills are listboxes too
  combobox,
  radioGroup,
  checkboxGroup,
  checkbox,
  contentEditable,
];

/** @type {Record<string, import("./util.js").Driver>} */
const DRIVERS_BY_NAME = Object.fromEntries(DRIVERS.map((d) => [d.name, d]));

/**
 * Widgets the snapshot's base selector misses: containers that are one field (yes/no button
 * pairs, Workday date sections, upload groups) and select buttons without a listbox role.
 */
const CANDIDATE_SELECTOR = [
  // Not editor toolbars, whose bold/italic buttons are aria-pressed pairs too.
  `:is(div, span, fieldset):not([role=toolbar]):has(> :is(${TOGGLE_BUTTON}) ~ :is(${TOGGLE_BUTTON}))`,
  "[data-automation-id=dateInputWrapper]",
  // A date's sections as spinbuttons in a group (MUI X, React Aria): the group is the field.
  "[role=group]:has([role=spinbutton])",
  // Checkbox groups the snapshot cannot group by name (Workday's checkboxPanel, Ashby's
  // MultiValueSelect with one name per box): a fieldset of checkbox options, at least two.
  "[data-automation-id=checkboxPanel]",
  "fieldset:has(> :is(div, label, li) ~ :is(div, label, li) input[type=checkbox])"
    + ":not(:has(input[type=checkbox][name$='[]'], input:not([type=checkbox]):not([type=hidden]), select, textarea))",
  // Fabric's toggle says aria-haspopup=true; a site's header menu buttons stay out.
  ".fab-SelectToggle",
  // Dropzone's upload area, whose file input sits at the end of <body>.
  ".dz-clickable",
].join(", ");

/**
 * Whether `el` is an inner part of a widget that is operated through another element, so a
 * snapshot should not list it as a field of its own (select2's focusser and search box, Workday's
 * mirror input, Fabric's proxy select, MUI's native input, the buttons and hidden checkbox of a
 * yes/no pair, Workday date sections, react-select's required shim, Radix's bubble inputs).
 * @param {Element} el
 */
function isPartOfWidget(el) {
  try {
    if (el.closest(".select2-container, .select2-drop, .select2-dropdown")) return true;
    // Pikaday's month and year lists belong to its calendar; the date box is the field.
    if (el.closest(".pika-single")) return true;
    // A date's sections and the hidden input beside them: the sections' box is the field.
    if (isDatePart(el)) return true;
    // Workday's chosen-item pills (role=listbox) show a prompt's value; the prompt is the field.
    if (el.matches("[data-automation-id=selectedItemList]")) return true;
    if (el instanceof HTMLSelectElement) {
      // Fabric's proxy select, or a hidden select whose stand-in button follows it (iCIMS).
      return (el.matches("[aria-hidden=true]") && Boolean(popupSelect.matches(el)))
        || proxyTriggerOf(el) !== null;
    }
    if (el instanceof HTMLInputElement) {
      if (isMirrorInput(el)) return true;
      if (el.previousElementSibling?.matches("button[aria-haspopup=listbox]")) return true;
      if (el.matches("input.MuiSelect-nativeInput")) return true;
      // Dropzone's own file input (operated through its zone), and the read-only box beside a
      // zone where the page records what the zone took (WPForms).
      if (el.matches("input.dz-hidden-input")) return true;
      if (el.readOnly && el.parentElement?.querySelector(":scope > .dz-clickable")) return true;
      if (el.type === "checkbox" && radioGroup.matches(el)) return true;
      if (isKeptFromPerson(el)
        && el.parentElement?.querySelector(".select__control, [class*='-control'] input[role=combobox]")) {
        return true;
      }
      return false;
    }
    return el.matches(TOGGLE_BUTTON) && radioGroup.matches(el);
  } catch {
    return false;
  }
}

/**
 * The first driver that knows how to operate `el`, or null.
 * @param {Element} el
 * @returns {import("./util.js").Driver|null}
 */
function findDriver(el) {
  for (const driver of DRIVERS) {
    try {
      if (driver.matches(el)) return driver;
    } catch {
      // A driver's probe must never break the walk; try the next one.
    }
  }
  return null;
}

relayContent["drivers/index"] = {
  DRIVERS, DRIVERS_BY_NAME, CANDIDATE_SELECTOR, isPartOfWidget, findDriver,
};
})();
