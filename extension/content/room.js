// Make room for the profile's entries in repeated work-history and education sections: when the
// form shows fewer blocks than the profile has entries, press the section's own "Add another" /
// "+ Add experience" control (at most MAX_PRESSES times), as a person would; the Fill's later
// round then fills the new blocks. The control must be the section's (found from the section's
// own fields, in no ancestor that also holds the other family's fields), must read as "add",
// and can never be a submit control or a link to another page. The submit guard is armed around
// this, like around every apply (background/fill.js).

(() => {
"use strict";
const { isVisible, norm, RELAY_UI_ATTR } = relayContent.dom;
const { registry } = relayContent.snapshot;

const MAX_PRESSES = 3;
const MAX_DEPTH = 10;
const PRESS_GAP_MS = 60; // the page adds the block
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

/**
 * @typedef {{family: string, field_ids: string[], others: string[], add: number}} Room
 *   field_ids: the section's fields; others: the other family's (the control is not shared);
 *   add: how many more blocks the profile's entries need
 */

/** @param {Room[]} rooms @returns {Promise<{pressed: {family: string, times: number}[]}>} */
async function makeRoom(rooms) {
  const pressed = [];
  for (const room of rooms) {
    const own = elementsOf(room.field_ids);
    const others = elementsOf(room.others);
    let times = 0;
    while (times < Math.min(room.add, MAX_PRESSES)) {
      // Found again each time: pages re-render the section and its control after a press.
      const control = addControlFor(own, others, room.family);
      if (!control) break;
      /** @type {HTMLElement} */ (control).click();
      times += 1;
      await new Promise((resolve) => setTimeout(resolve, PRESS_GAP_MS));
    }
    if (times) pressed.push({ family: room.family, times });
  }
  return { pressed };
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
    if (others.some((o) => here.contains(o))) return null;
    const found = [...here.querySelectorAll(CONTROLS)].find((el) => isAddControl(el, family));
    if (found) return found;
  }
  return null;
}

/** @param {Element} el @param {string} family */
function isAddControl(el, family) {
  const text = norm(el.textContent || /** @type {HTMLInputElement} */ (el).value || el.getAttribute("aria-label") || "");
  if (!text || text.length > 60 || !ADD.test(text) || STOP.test(text)) return false;
  const other = family === "work" ? FAMILY.edu : FAMILY.work;
  const own = family === "work" ? FAMILY.work : FAMILY.edu;
  if (other.test(text) || !(MORE.test(text) || own.test(text))) return false;
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
