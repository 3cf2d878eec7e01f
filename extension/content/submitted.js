// Sees the person's own Submit and reports the application: every field's final value and who put
// it there (Relay's rules, a saved answer, the model, a default, the page, or the person).
// Only listens: it never submits, never clicks, never cancels an event. Only trusted events count,
// so nothing a script does (Relay's or the page's) is taken for the person's Submit.

(() => {
"use strict";
const { wasEditedByPerson } = relayContent.edits;
const { registry, trackedValue } = relayContent.snapshot;

/** @typedef {{label: string, section: string, options: string[], widget: string, value: string}} Seen */
/** @typedef {{source: string, status: string, value: string, reason: string}} Done */

/** @type {Map<string, Seen>} what the latest snapshot saw of each field */
const seen = new Map();
/** @type {Map<string, Done>} what Relay did to each field in the latest fill */
const done = new Map();
let runId = "";
let reported = false;
let started = false;

// What a page says once an application went through (the confirmation the person sees).
const CONFIRMED = /thank you for (applying|your application)|application (has been |was )?(received|submitted|sent)|vielen dank für ihre bewerbung|bewerbung (ist )?eingegangen|merci pour votre candidature|candidature (a été )?envoyée|gracias por (tu|su) (solicitud|postulación)|obrigado pela (sua )?candidatura|bedankt voor je sollicitatie/i;
const CONFIRM_WAIT_MS = 10_000;
// A control that submits without being a form's submit button (single-page apps): its words.
const SUBMIT_WORDS = /\b(submit|send|apply|finish|complete)\b|bewerb|absenden|senden|envoyer|soumettre|postuler|enviar|candidat|verzenden|solliciteren|verstuur/i;

/** @param {any[]} fields the snapshot's fields */
function rememberFields(fields) {
  seen.clear();
  for (const f of fields) {
    seen.set(String(f.id), {
      label: String(f.label || f.aria_label || f.placeholder || ""),
      section: String(f.section ?? ""),
      options: (f.options ?? []).map((/** @type {any} */ o) => String(o.text ?? "")).filter(Boolean),
      widget: String(f.widget ?? ""),
      value: String(f.value ?? ""),
    });
  }
}

/** @param {string} id the fill's run */
function rememberRun(id) {
  if (id && id !== runId) reported = false;
  runId = id || runId;
}

/** @param {any[]} decisions @param {any[]} results what the apply did with them */
function rememberDecisions(decisions, results) {
  const byId = new Map(results.map((r) => [String(r.field_id), r]));
  for (const d of decisions) {
    const result = byId.get(String(d.field_id));
    const applied = result?.status === "applied" || result?.status === "user_edited";
    done.set(String(d.field_id), {
      source: String(d.source ?? ""),
      status: applied ? "applied" : String(d.status ?? ""),
      value: applied ? String(result.value_after ?? d.value ?? "") : "",
      reason: String(d.reason ?? ""),
    });
  }
}

function startSubmitWatch() {
  if (started) return;
  started = true;
  window.addEventListener("submit", (event) => {
    if (event.isTrusted) report("submit_event");
  }, true);
  window.addEventListener("click", (event) => {
    if (!event.isTrusted) return;
    const control = submitControl(event.composedPath());
    if (!control) return;
    // A form's own submit button fires `submit` next, unless the form's validation stops it (then
    // nothing was sent) or the page sends the form itself: then its confirmation tells.
    if (/** @type {any} */ (control).form) awaitConfirmation();
    else report("submit_click");
  }, true);
}

/** After a click on a form's submit button: the values now, sent if a confirmation follows. */
function awaitConfirmation() {
  if (reported || !done.size || !document.body) return;
  const before = CONFIRMED.test(document.body.innerText);
  if (before) return; // a page that says it from the start proves nothing
  const payload = collect("confirmation");
  const observer = new MutationObserver(() => {
    if (reported) return stop();
    if (CONFIRMED.test(document.body.innerText)) {
      stop();
      send(payload);
    }
  });
  const timer = setTimeout(() => stop(), CONFIRM_WAIT_MS);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
  };
  observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
}

/** @param {EventTarget[]} path @returns {HTMLButtonElement|HTMLInputElement|HTMLElement|null} */
function submitControl(path) {
  for (const node of path) {
    if (!(node instanceof HTMLElement)) continue;
    if (node instanceof HTMLButtonElement || node instanceof HTMLInputElement) {
      if (node instanceof HTMLInputElement && !["submit", "button", "image"].includes(node.type)) return null;
      if (node.type === "submit" && node.form) return node;
      return SUBMIT_WORDS.test(node instanceof HTMLInputElement ? node.value : node.innerText) ? node : null;
    }
    if (node.getAttribute("role") === "button") return SUBMIT_WORDS.test(node.innerText) ? node : null;
  }
  return null;
}

/** Who set a field's final value. @param {string} id @param {Element} el @param {string} value */
function whoSet(id, el, value) {
  const relay = done.get(id);
  const before = seen.get(id)?.value ?? "";
  if (relay?.status === "applied") {
    if (wasEditedByPerson(el, value)) return { set_by: "person", relay_value: relay.value };
    if (relay.reason.includes("default:")) return { set_by: "default", relay_value: relay.value };
    const by = { profile: "rules", saved_answer: "saved_answer", llm: "model" }[relay.source] ?? "rules";
    return { set_by: by, relay_value: relay.value };
  }
  // Relay left it: the person filled it, or it is what the page had.
  return { set_by: value && value !== before ? "person" : "page", relay_value: "" };
}

/** @param {"submit_event"|"submit_click"|"confirmation"} how */
function report(how) {
  if (reported || !done.size) return; // only a page Relay filled; once per fill
  send(collect(how));
}

/** @param {Record<string, any>} payload */
function send(payload) {
  if (reported) return;
  reported = true;
  chrome.runtime.sendMessage({ relay_bg: "submitted", payload }).catch(() => {});
}

/** Every field's final value and who set it. @param {string} how */
function collect(how) {
  const fields = [];
  const files = [];
  for (const [id, info] of seen) {
    const entry = registry.get(id);
    if (!entry || entry.kind === "option") continue;
    const value = trackedValue(entry);
    if (info.widget === "file") {
      if (value) files.push(...value.split(", "));
      continue;
    }
    if (info.widget === "password") continue; // never leaves the page
    fields.push({ field_id: id, label: info.label, section: info.section, options: info.options,
      widget: info.widget, value, ...whoSet(id, entry.el, value) });
  }
  return {
    run_id: runId, url: location.href, page_title: document.title, how, fields, files,
    company: metaContent("og:site_name"),
    job_title: (document.querySelector("h1")?.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 200),
  };
}

/** @param {string} property */
function metaContent(property) {
  return document.querySelector(`meta[property="${property}"]`)?.getAttribute("content")?.trim() ?? "";
}

relayContent.submitted = { rememberFields, rememberRun, rememberDecisions, startSubmitWatch };
})();
