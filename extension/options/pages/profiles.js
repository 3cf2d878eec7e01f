// On the Profile page: every profile (make active, export, delete) and the active one's resumes
// and cover letters (add, choose the default). `onChange` lets the first-run flow refresh.

import { ask, fileBase64 } from "../bridge.js";
import { el, reason, tell, when } from "../dom.js";

const KINDS = /** @type {const} */ ([["resume", "Resumes", "resume"], ["coverLetter", "Cover letters", "cover letter"]]);

const docsSection = /** @type {HTMLElement} */ (document.getElementById("documents"));
const docsBody = /** @type {HTMLElement} */ (document.getElementById("documents-body"));
const profilesSection = /** @type {HTMLElement} */ (document.getElementById("profiles"));
const profilesBody = /** @type {HTMLElement} */ (document.getElementById("profiles-body"));
const docsStatus = el("p", { class: "saved", role: "status", id: "documents-saved" });
const profilesStatus = el("p", { class: "saved", role: "status", id: "profiles-saved" });

/** @type {() => Promise<void>} */
let onChange = async () => {};

/** @param {() => Promise<void>} callback called after a change to the active profile */
export function whenChanged(callback) {
  onChange = callback;
}

/** @param {any} listing @param {typeof KINDS[number]} kind */
function kindBlock(listing, [kind, title, word]) {
  const files = listing[kind];
  const inputId = `add-${kind}`;
  const file = /** @type {HTMLInputElement} */ (el("input", { id: inputId, type: "file", class: "visually-hidden", accept: ".pdf,.doc,.docx,.odt,.txt,.rtf" }));
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    try {
      await ask("document.add", { name: listing.name, kind, file_name: chosen.name, data_b64: await fileBase64(chosen) });
      tell(docsStatus, "ok", `Added the ${word} “${chosen.name}”.`);
      await show();
    } catch (err) {
      tell(docsStatus, "bad", `Could not add ${chosen.name}: ${reason(err)}`);
    }
  });
  const list = files.length
    ? el("ul", { class: "files" }, ...files.map((/** @type {any} */ f, /** @type {number} */ i) => {
      const id = `${kind}-default-${i}`;
      const radio = /** @type {HTMLInputElement} */ (el("input", { type: "radio", name: `${kind}-default`, id, checked: f.default }));
      radio.addEventListener("change", async () => {
        try {
          await ask("document.choose", { name: listing.name, kind, ref: f.ref });
          tell(docsStatus, "ok", `“${f.name}” is now the default ${word}.`);
          await show();
        } catch (err) {
          tell(docsStatus, "bad", `Not changed: ${reason(err)}`);
        }
      });
      return el("li", {}, radio, el("label", { for: id, text: f.name }),
        f.default ? el("span", { class: "tag", text: "default" }) : null);
    }))
    : el("p", { class: "note", text: `No ${word} yet.` });
  return el("fieldset", { class: "kind", "aria-describedby": `${kind}-hint` },
    el("legend", { text: title }),
    el("p", { class: "note", id: `${kind}-hint`, text: `The default ${word} is attached to forms that ask for one.` }),
    list, file, el("label", { class: "button", for: inputId, text: `Add a ${word}…` }));
}

/** @param {any} profile */
function profileRow(profile) {
  const exportButton = el("button", { type: "button", text: "Export", onclick: () => void exportProfile(profile.name) });
  const remove = el("button", { type: "button", class: "danger", text: "Delete", "aria-label": `Delete ${profile.name}` });
  remove.addEventListener("click", async () => {
    // Asked twice, in the page: deleting cannot be undone.
    if (remove.dataset.confirm !== "yes") {
      remove.dataset.confirm = "yes";
      remove.textContent = `Delete “${profile.name}” for good`;
      return;
    }
    try {
      await ask("profile.delete", { name: profile.name });
      tell(profilesStatus, "ok", `Deleted the profile “${profile.name}”.`);
      await onChange();
    } catch (err) {
      tell(profilesStatus, "bad", `Not deleted: ${reason(err)}`);
    }
  });
  const activate = profile.active
    ? el("span", { class: "tag", text: "active" })
    : el("button", { type: "button", text: "Use for Fill", onclick: async () => {
      await ask("profile.activate", { name: profile.name });
      tell(profilesStatus, "ok", `Fill now uses “${profile.name}”.`);
      await onChange();
    } });
  return el("tr", { dataset: { profile: profile.name } },
    el("td", { class: "strong", text: profile.name }),
    el("td", { text: `${when(profile.updated_at)}${profile.has_edits ? " (with your edits)" : ""}` }),
    el("td", {}, el("div", { class: "row-actions" }, activate, exportButton, remove)));
}

/** A JSON Resume file the person saves (the original with their edits laid over, and the files
 * chosen for particular jobs). @param {string} name */
async function exportProfile(name) {
  try {
    const result = await ask("profile.export", { name });
    // The files chosen for particular jobs travel in `meta`, which JSON Resume leaves open.
    const choices = result.document_choices ?? [];
    const document_ = choices.length
      ? { ...result.profile, meta: { ...(result.profile.meta ?? {}), relayDocumentChoices: choices } }
      : result.profile;
    const url = URL.createObjectURL(new Blob([JSON.stringify(document_, null, 2)], { type: "application/json" }));
    const link = el("a", { href: url, download: `${name}.json`, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    tell(profilesStatus, "ok", `Exported “${name}” as ${name}.json.`);
  } catch (err) {
    tell(profilesStatus, "bad", `Not exported: ${reason(err)}`);
  }
}

export async function show() {
  let profiles = [];
  try {
    profiles = (await ask("profiles.list")).profiles;
  } catch {
    return; // no bridge: the status line says so
  }
  profilesSection.hidden = docsSection.hidden = profiles.length === 0;
  if (!profiles.length) return;
  profilesBody.replaceChildren(profilesStatus, el("table", { class: "list", id: "profiles-table" },
    el("caption", { class: "visually-hidden", text: "Your profiles" }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "Profile" }), el("th", { scope: "col", text: "Last changed" }),
      el("th", { scope: "col", text: "Actions" }))),
    el("tbody", {}, ...profiles.map(profileRow))));
  try {
    const listing = await ask("documents.list");
    docsBody.replaceChildren(el("div", { class: "kinds" }, ...KINDS.map((k) => kindBlock(listing, k))), docsStatus);
  } catch (err) {
    tell(docsStatus, "bad", `Could not read your documents: ${reason(err)}`);
  }
}
