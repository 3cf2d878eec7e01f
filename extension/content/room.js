// Make room for the profile's entries in repeated work-history and education sections: when the
// form shows fewer blocks than the profile has entries, press the section's own "Add another" /
// "+ Add experience" control (at most MAX_PRESSES times), as a person would; the Fill's later
// round then fills the new blocks. The control must be the section's: found from the section's
// own fields, in no ancestor that also holds the other family's fields, or else in the stretch
// of the page under the section's own heading ("Experience", "Formación") up to the next heading
// of the same rank. It must read as "add" (a bare "+ Add" only under a heading of its family),
// and can never be a submit control or a link to another page. A section that shows no block
// yet is found by its heading alone, and pressed only while each press adds fields. The submit
// guard is armed around this, like around every apply (background/fill.js).

(() => {
"use strict";
const { isVisible, norm, RELAY_UI_ATTR } = relayContent.dom;
const { registry } = relayContent.snapshot;
const { noteActed } = relayContent.changes;
const { settle, waitFor } = relayContent["drivers/util"];

const MAX_PRESSES = 3;
const MAX_DEPTH = 10;
const PRESS_GAP_MS = 60; // at most, for the page to add the block
const ADD = /(?:^|[\s+])(?:add|hinzufügen|ajouter|añadir|agregar|adicionar|toevoegen|aggiungi)\b/i;
// …and says it adds one more block of this family ("+ Add another", "Add experience"), not a
// link, a file or a question of another kind.
const MORE = /\b(?:another|more|weitere[nrs]?|autre|otr[oa]|outr[oa]|nog)\b/i;
const FAMILY = {
  work: /\b(?:experiences?|employments?|jobs?|positions?|work|employers?|berufserfahrung|erfahrung|expérience|emploi|experiencia|empleo|experiência|emprego|ervaring|werkervaring)\b/i,
  edu: /\b(?:education|schools?|degrees?|studies|ausbildung|studium|formation|études|diplôme|educación|formación|estudios|educação|formação|opleiding)\b/i,
};
// Words of controls that move on, save or send: never pressed here, whatever else they say.
const STOP = /\b(?:submit|apply|send|save|next|continue|finish|absenden|senden|bewerben|weiter|speichern|envoyer|postuler|enregistrer|suivant|enviar|postular|guardar|siguiente|verzenden|opslaan|volgende)\b/i;
const CONTROLS = "button, a, [role=button], input[type=button]";
// A control that says only "add" ("+ Add", "Añadir", "Ajouter") takes its family from the heading.
const BARE_ADD = /^[+\s]*(?:add|hinzufügen|ajouter|añadir|agregar|adicionar|toevoegen|aggiungi)(?:\s+(?:new|neu|nouveau|nueva?|nov[oa]|nieuw))?[+\s]*$/i;
const HEADINGS = "h1, h2, h3, h4, h5, h6, [role=heading], legend";
const FIELDS = "input:not([type=hidden]):not([type=button]):not([type=submit]):not([type=reset]), select, textarea";

/**
 * @typedef {{family: string, field_ids: string[], others: string[], add: number}} Room
 *   field_ids: the section's fields; others: the other family's (the control is not shared);
 *   add: how many more blocks the profile's entries need
 */

/**
 * @param {Room[]} rooms sections that show blocks, found from their fields
 * @param {Record<string, number>} [empty] families the form shows no field of: the profile's count
 * @returns {Promise<{pressed: {family: string, times: number}[]}>}
 */
async function makeRoom(rooms, empty = {}) {
  const pressed = [];
  for (const room of rooms) {
    const own = elementsOf(room.field_ids);
    const others = elementsOf(room.others);
    let times = 0;
    while (times < Math.min(room.add, MAX_PRESSES)) {
      // Found again each time: pages re-render the section and its control after a press.
      const control = addControlFor(own, others, room.family);
      if (!control) break;
      await press(control);
      times += 1;
    }
    if (times) pressed.push({ family: room.family, times });
  }
  for (const [family, count] of Object.entries(empty)) {
    if (!(family in FAMILY) || !(count > 0)) continue;
    const times = await openEmptySection(family, Math.min(count, MAX_PRESSES));
    if (times) pressed.push({ family, times });
  }
  return { pressed };
}

/**
 * Press an add control and let the page add its block: more fields in the document (or
 * PRESS_GAP_MS without), then a task turn for the rest of that render.
 * @param {Element} control
 */
async function press(control) {
  const before = document.querySelectorAll(FIELDS).length;
  /** @type {HTMLElement} */ (control).click();
  noteActed();
  await waitFor(() => document.querySelectorAll(FIELDS).length > before, PRESS_GAP_MS);
  await settle();
}

/**
 * The one section headed as FAMILY that shows no field yet and has its own add control: pressed
 * up to WANTED times, each press only while the last one added fields (a control that opens and
 * closes one sub-form is pressed once). Two such sections: unsure which, none is pressed.
 * @param {string} family @param {number} wanted
 */
async function openEmptySection(family, wanted) {
  const found = [];
  for (const heading of document.querySelectorAll(HEADINGS)) {
    if (!readsAs(heading, family) || !isVisible(heading)) continue;
    const stretch = stretchUnder(heading);
    if (visibleFields(stretch) > 0) continue;
    if (controlIn(stretch, family, true)) found.push(heading);
  }
  if (found.length !== 1) return 0;
  let times = 0;
  let fields = 0;
  while (times < wanted) {
    const stretch = stretchUnder(found[0]);
    const control = controlIn(stretch, family, true);
    if (!control) break;
    await press(control);
    times += 1;
    const now = visibleFields(stretchUnder(found[0]));
    if (now <= fields) break;
    fields = now;
  }
  return times;
}

/** A heading of FAMILY's section: short, naming the family and not the other. @param {Element} el @param {string} family */
function readsAs(el, family) {
  const text = norm(el.textContent || "");
  const other = family === "work" ? FAMILY.edu : FAMILY.work;
  return Boolean(text) && text.length <= 60 && FAMILY[/** @type {"work"|"edu"} */ (family)].test(text) && !other.test(text);
}

/** @param {Element} el 1–6 for h1–h6, aria-level for role=heading, 6 for a legend */
function rank(el) {
  const h = /^H([1-6])$/.exec(el.tagName);
  if (h) return Number(h[1]);
  if (el.getAttribute("role") === "heading") return Number(el.getAttribute("aria-level")) || 2;
  return 6;
}

/**
 * The page under HEADING: its following siblings up to the next heading of the same or a higher
 * rank (a heading alone in its wrapper speaks for the wrapper).
 * @param {Element} heading @returns {Element[]}
 */
function stretchUnder(heading) {
  const own = rank(heading);
  let anchor = heading;
  for (let depth = 0; depth < 3 && !anchor.nextElementSibling && anchor.parentElement && anchor.parentElement !== document.body; depth += 1) {
    anchor = anchor.parentElement;
  }
  const out = [];
  for (let el = anchor.nextElementSibling; el; el = el.nextElementSibling) {
    const next = el.matches(HEADINGS) ? el : el.querySelector(HEADINGS);
    if (next && rank(next) <= own) break;
    out.push(el);
  }
  return out;
}

/** Visible fields in STRETCH, open shadow roots included (web-component forms). @param {Element[]} stretch */
function visibleFields(stretch) {
  let n = 0;
  /** @param {Element | ShadowRoot} root */
  const count = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.matches(FIELDS) && isVisible(el)) n += 1;
      if (el.shadowRoot) count(el.shadowRoot);
    }
  };
  for (const el of stretch) {
    if (el.matches(FIELDS) && isVisible(el)) n += 1;
    if (el.shadowRoot) count(el.shadowRoot);
    count(el);
  }
  return n;
}

/** @param {Element[]} stretch @param {string} family @param {boolean} headed */
function controlIn(stretch, family, headed) {
  for (const el of stretch) {
    const all = el.matches(CONTROLS) ? [el] : [...el.querySelectorAll(CONTROLS)];
    const found = all.find((c) => isAddControl(c, family, headed));
    if (found) return found;
  }
  return null;
}

/** @param {string[]} ids */
function elementsOf(ids) {
  return ids.map((id) => registry.get(String(id))?.el).filter((el) => el?.isConnected);
}

/** @param {Element[]} own @param {Element[]} others @param {string} family */
function addControlFor(own, others, family) {
  const last = own[own.length - 1];
  let anc = last?.parentElement ?? null;
  for (let depth = 0; anc && depth < MAX_DEPTH && anc !== document.body; depth += 1, anc = anc.parentElement) {
    const here = anc;
    if (others.some((o) => here.contains(o))) return underHeading(here, last, others, family);
    const found = [...here.querySelectorAll(CONTROLS)].find((el) => isAddControl(el, family, false));
    if (found) return found;
  }
  return null;
}

/**
 * Sections side by side under their headings in one container: the control in the stretch under
 * the last heading of FAMILY before the section's fields, when that stretch holds them and none
 * of the other family's.
 * @param {Element} here @param {Element} last @param {Element[]} others @param {string} family
 */
function underHeading(here, last, others, family) {
  const before = [...here.querySelectorAll(HEADINGS)].filter((h) =>
    h.compareDocumentPosition(last) & Node.DOCUMENT_POSITION_FOLLOWING);
  const heading = before[before.length - 1];
  if (!heading || !readsAs(heading, family)) return null;
  const stretch = stretchUnder(heading);
  if (!stretch.some((el) => el.contains(last)) || others.some((o) => stretch.some((el) => el.contains(o)))) return null;
  return controlIn(stretch, family, true);
}

/** @param {Element} el @param {string} family @param {boolean} headed under a heading of FAMILY */
function isAddControl(el, family, headed) {
  const text = norm(el.textContent || /** @type {HTMLInputElement} */ (el).value || el.getAttribute("aria-label") || "");
  if (!text || text.length > 60 || !ADD.test(text) || STOP.test(text)) return false;
  const other = family === "work" ? FAMILY.edu : FAMILY.work;
  const own = family === "work" ? FAMILY.work : FAMILY.edu;
  if (other.test(text) || !(MORE.test(text) || own.test(text) || (headed && BARE_ADD.test(text)))) return false;
  // A button inside a form submits unless it says otherwise; an input must be a plain button.
  if (el instanceof HTMLButtonElement && el.type !== "button" && el.form) return false;
  if (el instanceof HTMLInputElement && el.type !== "button") return false;
  if (el instanceof HTMLAnchorElement) {
    const href = el.getAttribute("href") ?? "";
    if (href && !href.startsWith("#") && !/^javascript:/i.test(href)) return false;
  }
  return isVisible(el) && !el.closest(`[${RELAY_UI_ATTR}]`) && !el.matches(":disabled");
}

relayContent.room = { makeRoom };
})();
