// File uploads: builds a File from the plan's base64 bytes and hands it to the page's
// <input type=file> through a DataTransfer, then `input` + `change`, as a file chooser would.
// Finds the input behind an "Attach" / "Select files" button or a drop zone, and inside open
// shadow roots (SmartRecruiters' spl-dropzone). Verifies the page took it: the input keeps the
// file, or the page shows its name (Greenhouse swaps the input for a chip, Workday resets it).
(() => {
"use strict";
const { isVisible, norm, outcome, press, rootOf, settle, textOf, waitFor } = relayContent["drivers/util"];

const GROUP = "[role=group], .file-upload, [data-automation-id=attachments-FileUpload], "
  + "[data-automation-id=file-upload-drop-zone], .ashby-application-form-input-file, fieldset, "
  + "[data-role=dropzone], .drop-zone";
const MAX_DEPTH = 5;
const DROP_ZONE = ".file-upload, [data-automation-id=file-upload-drop-zone], .ashby-application-form-input-file, "
  + "[data-role=dropzone], .drop-zone, [class*=dropzone i]";
const MENU = "[role=dialog], [role=menu], [aria-modal=true], [aria-hidden=true]";
const MENU_OPENER = "[aria-haspopup]:not([aria-haspopup=listbox]):not([aria-haspopup=false])";
const UPLOAD_WORDS = /attach|upload|select.?files?|browse|choose|add file|drop|resume|cv\b|cover.?letter/i;

/** File inputs under a node, looking into open shadow roots. @param {Element|ShadowRoot} node */
function fileInputsIn(node) {
  /** @type {HTMLInputElement[]} */
  const found = [...node.querySelectorAll("input[type=file]")].map((i) => /** @type {HTMLInputElement} */ (i));
  for (const el of node.querySelectorAll("*")) {
    if (el.shadowRoot) found.push(...fileInputsIn(el.shadowRoot));
  }
  if (node instanceof Element && node.shadowRoot) found.push(...fileInputsIn(node.shadowRoot));
  return found;
}

// Dropzone marks each element that opens its file chooser with this class, and keeps the
// chooser's input at the end of <body>, away from the zone.
const DETACHED_ZONE = ".dz-clickable";

/** An upload zone whose file input lives elsewhere in the page. @param {Element} el */
function isDetachedZone(el) {
  return el.matches(DETACHED_ZONE) && fileInputsIn(el).length === 0;
}

/**
 * The file input a detached zone opens, found as a person's click would find it: the zone is
 * clicked while a listener catches the file input's own click and cancels it, so no chooser
 * opens. The listener is always removed. The page opens the input from within its own click
 * handler, so the catch is synchronous.
 * @param {HTMLElement} zone @returns {HTMLInputElement|null}
 */
function inputOpenedBy(zone) {
  /** @type {HTMLInputElement|null} */
  let found = null;
  /** @param {Event} event */
  const intercept = (event) => {
    const target = event.target;
    if (!(target instanceof HTMLInputElement) || target.type !== "file") return;
    found = target;
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  const win = zone.ownerDocument.defaultView ?? window;
  win.addEventListener("click", intercept, true);
  try {
    press(zone, ["click"]); // never a click on a control that would submit its form
  } finally {
    win.removeEventListener("click", intercept, true);
  }
  return found;
}

/** The file names a zone lists (Dropzone's previews). @param {Element} zone */
function listedIn(zone) {
  const names = [...zone.querySelectorAll(LISTED)].map(textOf).filter((t) => /\S\.[a-z0-9]{2,5}$/i.test(t));
  return [...new Set(names)].join(", ");
}

/** The file input a person reaches through `el`. @param {Element} el */
function inputOf(el) {
  if (el instanceof HTMLInputElement) return el.type === "file" ? el : null;
  const inside = fileInputsIn(el);
  if (inside.length === 1) return inside[0];
  // An Attach button: the one file input of its upload group, a few levels up.
  if (!el.matches("button, [role=button], label, a")) return null;
  const says = [textOf(el), el.getAttribute("aria-label"), el.getAttribute("data-automation-id")].join(" ");
  if (!/attach|upload|select.?files?|browse|choose|add file|drop|resume|cv\b/i.test(says)) return null;
  let node = el.parentElement;
  for (let depth = 0; node && depth < MAX_DEPTH; depth += 1, node = node.parentElement) {
    const inputs = fileInputsIn(node);
    if (inputs.length === 1) return inputs[0];
    if (inputs.length > 1 || node.matches("form, body")) return null;
  }
  return null;
}

/**
 * The buttons that open the closed attachment menu a file input sits in (Jobvite: "Select" opens
 * a menu whose "File" item is the input's label): the ones naming the menu in aria-controls, else
 * menu buttons that speak of uploads.
 * @param {HTMLInputElement} input
 */
function menuOpeners(input) {
  const menu = input.closest(MENU);
  if (!menu) return [];
  const openers = [...rootOf(input).querySelectorAll(MENU_OPENER)]
    .filter((b) => !menu.contains(b) && b.getAttribute("aria-expanded") !== "true");
  const controlling = menu.id
    ? openers.filter((b) => (b.getAttribute("aria-controls") ?? "").split(/\s+/).includes(menu.id)) : [];
  if (controlling.length) return controlling;
  return openers.filter((b) => !b.hasAttribute("aria-controls") && UPLOAD_WORDS.test(nameOf(b)));
}

/** A button's accessible name, roughly. @param {Element} el */
function nameOf(el) {
  const ids = (el.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean);
  const byIds = ids.map((id) => rootOf(el).getElementById?.(id) ?? el.ownerDocument.getElementById(id))
    .map((n) => (n ? textOf(n) : "")).join(" ");
  return norm(`${el.getAttribute("aria-label") ?? ""} ${byIds} ${textOf(el)}`);
}

/** Where the page shows what was attached (it may replace the input). @param {Element} input */
function groupOf(input) {
  const host = input.getRootNode() instanceof ShadowRoot
    ? /** @type {ShadowRoot} */ (input.getRootNode()).host : input;
  return host.closest(GROUP) ?? host.parentElement?.parentElement ?? host.parentElement;
}

// A control whose whole text says "upload" (a resume section's "Upload / Paste" choice), in the
// languages Relay reads.
const REVEAL_WORDS = new RegExp("^(upload|attach|subir|adjuntar|cargar|hochladen|anh(ä|ae)ngen|"
  + "t(é|e)l(é|e)verser|t(é|e)l(é|e)charger|joindre|carregar|anexar|uploaden|bijvoegen)"
  + "( (a |an |your |un |tu |su |seu |votre |je |ihren? )?(file|files|archivo|fichier|datei|arquivo|bestand|resume|r(é|e)sum(é|e)|cv|curr(í|i)culum|lebenslauf))?$", "i");

/**
 * The control that shows a hidden file input, as a person would press it: in the input's field
 * (a few levels up, where something shows), a visible link or button that only says "Upload"
 * and leads nowhere (a page-script link or a plain button), outside the hidden part.
 * @param {HTMLInputElement} input
 * @returns {HTMLElement|null}
 */
function revealerOf(input) {
  if (isVisible(input) || isVisible(input.parentElement ?? input)) return null;
  let hidden = /** @type {Element} */ (input);
  let node = input.parentElement;
  for (let depth = 0; node && depth < 4 && !node.matches("form, body"); depth += 1, node = node.parentElement) {
    if (!isVisible(node)) {
      hidden = node;
      continue;
    }
    const found = [...node.querySelectorAll("a, button, [role=button]")].find((c) => !hidden.contains(c)
      && isVisible(c) && REVEAL_WORDS.test(norm(textOf(c))) && leadsNowhere(c));
    return /** @type {HTMLElement|null} */ (found ?? null);
  }
  return null;
}

/** A link to no page (`#`, a script) or a button that is not a form's submit. @param {Element} el */
function leadsNowhere(el) {
  if (el instanceof HTMLAnchorElement) {
    const href = el.getAttribute("href") ?? "";
    return href === "" || href.startsWith("#") || href.toLowerCase().startsWith("javascript:");
  }
  return !(el instanceof HTMLButtonElement) || el.type === "button";
}

/** @param {string} b64 */
function bytesOf(b64) {
  const bin = atob(b64.replace(/\s+/g, ""));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i += 1) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/** Whether the input's accept list takes this file (a file chooser would filter it). */
function accepted(/** @type {HTMLInputElement} */ input, /** @type {File} */ file) {
  const accept = (input.accept ?? "").split(",").map((a) => a.trim().toLowerCase()).filter(Boolean);
  if (!accept.length) return true;
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return accept.some((a) => (a.startsWith(".") ? name.endsWith(a)
    : a.endsWith("/*") ? type.startsWith(a.slice(0, -1)) : type === a));
}

// Where a page lists a file it took once it has reset its input (Workday's upload list).
const LISTED = "[data-automation-id=file-upload-file-name], [data-automation-id=file-upload-item-name], "
  + "[class*=filename i], [class*=file-name i]";

/**
 * The names the input holds, else the names its upload group lists (a page that resets the
 * input after taking the file): a file already attached is a value, not a field to attach again.
 * @param {HTMLInputElement} input
 */
function shown(input) {
  const names = input.isConnected && input.files ? [...input.files].map((f) => f.name) : [];
  if (names.length) return names.join(", ");
  const group = input.isConnected ? input.closest(GROUP) : null;
  return group ? listedIn(group) : "";
}

/** How long a page may take to show that it took a file before the input's word is taken. */
const REACTION_MS = 100;

/**
 * Resolves at the first change under `node` (the page re-rendering the upload group) or after
 * `cap` ms, whichever comes first.
 * @param {Element|null} node @param {number} cap @returns {Promise<void>}
 */
function pageReaction(node, cap) {
  if (!node) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new MutationObserver(() => done());
    const timer = setTimeout(() => done(), cap);
    function done() {
      observer.disconnect();
      clearTimeout(timer);
      resolve();
    }
    observer.observe(node, { childList: true, subtree: true, characterData: true });
  });
}

/** @type {import("./util.js").Driver} */
const fileUpload = {
  name: "file",
  read(el) {
    if (isDetachedZone(el)) return listedIn(el);
    const input = inputOf(el);
    return input ? shown(input) : "";
  },
  visibleParts(el) {
    if (isDetachedZone(el)) return [el];
    // Pages hide the file input and show what opens it: a label, a styled button, the drop zone
    // around it, or the button of an attachment menu it sits in.
    const input = inputOf(el);
    if (!input) return [];
    const scope = input.closest(GROUP) ?? input.parentElement?.parentElement ?? rootOf(input);
    const openers = [...scope.querySelectorAll("button, [role=button], label, a")]
      .filter((b) => b !== el && inputOf(b) === input);
    const zone = input.closest(DROP_ZONE);
    const revealer = revealerOf(input);
    return [...(input.labels ?? []), ...openers, ...(zone ? [zone] : []), ...menuOpeners(input),
      ...(revealer ? [revealer] : [])];
  },
  matches(el) {
    if (el instanceof HTMLInputElement) return el.type === "file";
    if (isDetachedZone(el)) return true;
    if (el.shadowRoot) return fileInputsIn(el.shadowRoot).length === 1;
    return el.matches(GROUP) ? fileInputsIn(el).length === 1
      : el.matches("button, [role=button]") && inputOf(el) !== null;
  },
  async describe(el) {
    const input = inputOf(el);
    return { widget: "file", options: [], value: fileUpload.read(el), multiple: Boolean(input?.multiple) };
  },
  async apply(el, decision, hooks = {}) {
    const zone = isDetachedZone(el) ? /** @type {HTMLElement} */ (el) : null;
    const input = zone ? inputOpenedBy(zone) : inputOf(el);
    if (!input || !input.isConnected) {
      return outcome("not_found", zone ? "the upload area opened no file chooser" : "no file input here");
    }
    if (input.disabled) return outcome("refused", "file input is disabled", shown(input));
    const ref = decision.file;
    if (!ref || !ref.name) return outcome("skipped", "no file to attach", shown(input));
    let file;
    try {
      file = new File([bytesOf(ref.data_b64 ?? "")], ref.name,
        { type: ref.mime || "application/octet-stream", lastModified: Date.now() });
    } catch {
      return outcome("refused", "the file's bytes are not valid base64", shown(input));
    }
    if (!accepted(input, file)) {
      return outcome("refused", `the field accepts ${input.accept}, not ${file.name}`, shown(input));
    }
    // A section that shows its file input only once "Upload" is chosen: chosen as a person does.
    const revealer = revealerOf(input);
    if (revealer) {
      press(revealer);
      await waitFor(() => isVisible(input) || isVisible(input.parentElement ?? input), 600);
    }
    // A detached zone shows what it took itself (its input is replaced once it has read it).
    const group = zone ?? groupOf(input);
    const textBefore = group ? textOf(group) : "";
    // Pages react a moment later (Greenhouse swaps the input for a chip once uploaded, Workday
    // resets it and lists the file): judge after the page's first reaction, or a short while
    // when it shows none. Kept by the input, or named by the page (chip, upload list).
    const reacted = pageReaction(group ?? input.parentElement, REACTION_MS);
    const transfer = new DataTransfer();
    transfer.items.add(file);
    input.files = transfer.files;
    input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    input.dispatchEvent(new Event("change", { bubbles: true, composed: true }));
    // An upload answers nothing else, and the page may take a moment to show it took the file.
    hooks.moveOn?.();
    await reacted;
    await settle();
    const took = await waitFor(() => {
      if (input.isConnected && input.files?.[0]?.name === file.name) return "the input holds it";
      const now = group?.isConnected ? textOf(group) : textOf(input.ownerDocument.body);
      if (now.includes(file.name) && !textBefore.includes(file.name)) return "the page lists it";
      return null;
    }, 2000, 50);
    const after = (zone ? listedIn(zone) : shown(input)) || (took === "the page lists it" ? file.name : "");
    if (!took) return outcome("refused", "the page dropped the file", after);
    return outcome("applied", `attached ${norm(file.name)} (${file.size} bytes); ${took}`, after || file.name);
  },
};

relayContent["drivers/file"] = { fileUpload };
})();
