// Settings: fill new fields as they appear (in options.js with the first run), which sites Relay
// may run on (chrome.storage.local `sites`, see shared/settings.js), the sites where new fields
// may be filled without a click (FILLED_SITES_KEY), encryption at rest (bridge).

import { FILLED_SITES_KEY, readSettings } from "../../shared/settings.js";
import { ask } from "../bridge.js";
import { el, reason, tell, when } from "../dom.js";

const body = /** @type {HTMLElement} */ (document.getElementById("settings-body"));
const siteInput = /** @type {HTMLInputElement} */ (el("input", { id: "site-new", autocomplete: "off", placeholder: "boards.greenhouse.io or *.myworkdayjobs.com", "aria-describedby": "site-new-why" }));
const siteWhy = el("p", { class: "why", id: "site-new-why", "aria-live": "polite" });
const siteList = el("ul", { class: "sites", id: "site-list" });
const siteStatus = el("span", { class: "saved", role: "status", id: "sites-saved" });
const filledList = el("ul", { class: "sites", id: "filled-list" });
const filledStatus = el("span", { class: "saved", role: "status", id: "filled-saved" });
const encryption = /** @type {HTMLInputElement} */ (el("input", { type: "checkbox", id: "encryption", "aria-describedby": "encryption-note" }));
const encryptionNote = el("span", { class: "note", id: "encryption-note" });
const encryptionStatus = el("span", { class: "saved", role: "status", id: "encryption-saved" });

body.append(
  el("fieldset", { class: "setting" }, el("legend", { text: "Sites Relay may run on" }),
    el("p", { class: "note", text: "With no site listed, Relay runs on any page where you press Fill. List sites to keep it to those; “*.” in front means every subdomain too." }),
    siteList,
    el("form", { id: "site-form", class: "actions", novalidate: true, onsubmit: (/** @type {SubmitEvent} */ e) => void addSite(e) },
      el("label", { for: "site-new", text: "Add a site" }), siteInput,
      el("button", { type: "submit", text: "Add" }), siteStatus),
    siteWhy),
  el("fieldset", { class: "setting" }, el("legend", { text: "Sites where you have pressed Fill" }),
    el("p", { class: "note", text: "With “Fill new fields as they appear” on, Relay fills a new step without a click only on these sites. Remove a site to stop that there." }),
    filledList, filledStatus),
  el("fieldset", { class: "setting" }, el("legend", { text: "Encryption at rest" }),
    el("label", { class: "toggle" }, encryption,
      el("span", {}, el("strong", { text: "Encrypt what Relay keeps on this computer" }), encryptionNote)),
    encryptionStatus),
);

/** A site as the setting keeps it, or "" with the reason in siteWhy. @param {string} raw */
function normalise(raw) {
  let text = raw.trim().toLowerCase();
  if (/^[a-z]+:\/\//.test(text)) {
    try {
      text = new URL(text).hostname;
    } catch {
      text = "";
    }
  }
  const wild = text.startsWith("*.");
  const host = wild ? text.slice(2) : text;
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(host) && host !== "localhost") return "";
  return wild ? `*.${host}` : host;
}

async function renderSites() {
  const { sites } = await readSettings();
  siteList.replaceChildren(...sites.map((site) => el("li", {}, el("span", { text: site }),
    el("button", { type: "button", text: "Remove", "aria-label": `Remove ${site}`, onclick: () => void setSites(sites.filter((s) => s !== site), `Removed ${site}.`) }))));
  if (!sites.length) siteList.append(el("li", { class: "empty", text: "Any site where you press Fill." }));
}

/** @param {string[]} sites @param {string} words */
async function setSites(sites, words) {
  await chrome.storage.local.set({ sites });
  await renderSites();
  tell(siteStatus, "ok", words);
}

/** @param {SubmitEvent} event */
async function addSite(event) {
  event.preventDefault();
  const site = normalise(siteInput.value);
  siteInput.setAttribute("aria-invalid", site ? "false" : "true");
  siteWhy.textContent = site ? "" : "Type a site’s address, such as boards.greenhouse.io.";
  if (!site) return siteInput.focus();
  const { sites } = await readSettings();
  siteInput.value = "";
  await setSites([...new Set([...sites, site])], `Added ${site}.`);
}

async function renderFilled() {
  const stored = await chrome.storage.local.get(FILLED_SITES_KEY);
  /** @type {string[]} */
  const filled = Array.isArray(stored[FILLED_SITES_KEY]) ? stored[FILLED_SITES_KEY] : [];
  filledList.replaceChildren(...filled.map((origin) => el("li", {}, el("span", { text: origin }),
    el("button", { type: "button", text: "Remove", "aria-label": `Remove ${origin}`, onclick: async () => {
      await chrome.storage.local.set({ [FILLED_SITES_KEY]: filled.filter((o) => o !== origin) });
      await renderFilled();
      tell(filledStatus, "ok", `Removed ${origin}.`);
    } }))));
  if (!filled.length) filledList.append(el("li", { class: "empty", text: "None yet." }));
}

async function renderEncryption() {
  try {
    const s = await ask("encryption.status");
    encryption.checked = s.enabled;
    encryption.disabled = !s.enabled && !s.keyring_usable;
    encryptionNote.textContent = s.enabled
      ? `On since ${when(s.since)}. Your answers, drafts and page texts are sealed with a key kept in the OS keyring (${s.keyring}).`
      : s.keyring_usable
        ? "Off. When on, your answers, drafts and page texts are sealed with a key kept in the OS keyring."
        : "Off, and it cannot be turned on here: this computer has no secure keyring to keep the key in.";
  } catch (err) {
    tell(encryptionStatus, "bad", `Could not read: ${reason(err)}`);
  }
}

encryption.addEventListener("change", async () => {
  try {
    await ask("encryption.set", { enabled: encryption.checked });
    tell(encryptionStatus, "ok", encryption.checked ? "Encryption is on." : "Encryption is off.");
  } catch (err) {
    tell(encryptionStatus, "bad", `Not changed: ${reason(err)}`);
  }
  await renderEncryption();
});

export async function show() {
  await Promise.all([renderSites(), renderFilled(), renderEncryption()]);
}
