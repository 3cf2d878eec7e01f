// The submit guard, in the content script's isolated world: while Relay applies a plan, nothing
// the page does in answer to Relay's writes may submit a form or leave the page. Relay's typing and
// clicks fire the page's own input/change/blur/click handlers, and a page can make those submit.
//
// Armed by the service worker (submit-guard.js) in every frame of the tab for the whole apply,
// then for a short watch after it (handlers that submit from a timer). While armed it cancels:
// submit events (capture listeners on the window and on the shadow roots of the fields Relay
// fills: submit does not cross a shadow boundary), and navigations to another document (the
// Navigation API's cancelable `navigate` event: form.submit(), location changes). Page scripts
// cannot remove these listeners: they live in this isolated world. The page-world half
// (main-world-guard.js) turns form.submit() and requestSubmit() into reports on `channel`.
//
// The person's own input ends the watch at once: a trusted pointerdown, keydown or click after the
// apply disarms both halves before the page sees it, so the person's Submit is never blocked.
// During the apply itself the guard stays armed: a submission then is never the person's choice
// to make on a half-filled form, and it is shown to them.

(() => {
"use strict";
const { cap, norm, textOf } = relayContent.dom;

const GRACE_MS = 1_000;
const HOLD_MAX_MS = 150_000; // armed at most this long without a release (the worker died)
const MAX_ROWS = 20; // distinct attempts kept per watch; repeats only count up
const LABEL_MAX = 60;
const PERSON_INPUT = ["pointerdown", "keydown", "click"];
const PERSON_NEAR_MS = 1_000;

/** @typedef {"submit_event"|"form_submit"|"request_submit"|"navigation"} AttemptKind */
/**
 * @typedef {object} Attempt
 * @property {AttemptKind} kind
 * @property {string} field_id  the field being filled when it happened ("" after the apply)
 * @property {"apply"|"after"} phase
 * @property {string} detail  plain language, for the person
 * @property {number} times
 * @property {string} run_id
 */

/** The event name both halves share in this document; random, so the page cannot guess it. */
const channel = `relay-guard-${crypto.randomUUID()}`;

let holds = 0; // arms not yet released
/** @type {Set<string>} runs armed since the guard was last idle */
const armedRuns = new Set();
let currentRun = "";
let current = { field_id: "", label: "" };
/** @type {Attempt[]} */
let attempts = [];
/** @type {ReturnType<typeof setTimeout>|undefined} */
let grace;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let holdTimer;
let listening = false;
/** @type {Set<ShadowRoot>} */
const roots = new Set();
let personAt = -Infinity; // the person's latest trusted input while the guard held

/**
 * Arm (or keep armed) for a run. The worker injects the page-world half right after.
 * @param {string} runId
 * @returns {{channel: string}}
 */
function armGuard(runId) {
  holds += 1;
  currentRun = runId;
  armedRuns.add(runId);
  clearTimeout(grace);
  grace = undefined;
  listen();
  clearTimeout(holdTimer);
  holdTimer = setTimeout(() => {
    holds = 0;
    settle();
  }, HOLD_MAX_MS);
  return { channel };
}

/**
 * The run's apply is over: return what was stopped during it and, once no run holds the guard,
 * keep watching for GRACE_MS (attempts then are reported when the watch ends).
 * @param {string} runId
 * @returns {Attempt[]}
 */
function releaseGuard(runId) {
  if (holds > 0) holds -= 1;
  const mine = attempts.filter((a) => a.run_id === runId);
  attempts = attempts.filter((a) => a.run_id !== runId);
  if (holds === 0 && listening) {
    clearTimeout(holdTimer);
    clearTimeout(grace);
    grace = setTimeout(settle, GRACE_MS);
  }
  return mine;
}

/**
 * Cover the shadow roots holding these elements (a submit inside a shadow root never reaches
 * the window). Only while armed.
 * @param {Element[]} els
 */
function guardRootsOf(els) {
  if (!listening) return;
  for (const el of els) {
    const root = el?.getRootNode?.();
    if (!(root instanceof ShadowRoot) || roots.has(root)) continue;
    roots.add(root);
    root.addEventListener("submit", onSubmit, true);
  }
}

/**
 * The decision being applied now, to say during which field an attempt happened.
 * @param {{field_id?: unknown, label?: unknown}|null} decision
 */
function guardField(decision) {
  current = decision
    ? { field_id: String(decision.field_id ?? ""), label: cap(norm(decision.label), LABEL_MAX) }
    : { field_id: "", label: "" };
}

function listen() {
  if (listening) return;
  listening = true;
  window.addEventListener("submit", onSubmit, true);
  document.addEventListener(`${channel}:report`, onReport);
  for (const type of PERSON_INPUT) window.addEventListener(type, onPersonInput, true);
  navigationApi()?.addEventListener("navigate", onNavigate);
}

function unlisten() {
  if (!listening) return;
  listening = false;
  window.removeEventListener("submit", onSubmit, true);
  document.removeEventListener(`${channel}:report`, onReport);
  for (const type of PERSON_INPUT) window.removeEventListener(type, onPersonInput, true);
  navigationApi()?.removeEventListener("navigate", onNavigate);
  for (const root of roots) {
    root.removeEventListener("submit", onSubmit, true);
  }
  roots.clear();
}

/** Disarm both halves and tell the worker what the watch after the apply saw. */
function settle() {
  clearTimeout(grace);
  clearTimeout(holdTimer);
  grace = undefined;
  const runs = [...armedRuns];
  const late = attempts;
  attempts = [];
  armedRuns.clear();
  holds = 0;
  personAt = -Infinity;
  document.dispatchEvent(new CustomEvent(`${channel}:release`));
  unlisten();
  guardField(null);
  chrome.runtime.sendMessage({ relay_bg: "guard-settled", runs, blocked: late }).catch(() => {
    // The worker restarted: the attempts were stopped all the same; only the report is lost.
  });
}

/** @returns {EventTarget|null} the Navigation API, where the browser has it */
function navigationApi() {
  return /** @type {any} */ (window).navigation ?? null;
}

/** @param {Event} event */
function onSubmit(event) {
  event.preventDefault();
  event.stopImmediatePropagation();
  const submitter = /** @type {SubmitEvent} */ (event).submitter;
  const button = submitter ? cap(textOf(submitter) || norm(submitter.getAttribute("value")), LABEL_MAX) : "";
  record("submit_event", button ? `the form started to send from its "${button}" button` : "the form started to send");
}

/** @param {Event} event */
function onNavigate(event) {
  const nav = /** @type {any} */ (event);
  // Same-document navigations (fragments, history.pushState) load nothing and send nothing.
  if (!nav.cancelable || nav.destination?.sameDocument) return;
  event.preventDefault();
  let where = "";
  try {
    const url = new URL(String(nav.destination?.url ?? ""));
    where = cap(`${url.host}${url.pathname}`, 80); // never the query: a GET form puts values there
  } catch {
    where = "";
  }
  record("navigation", nav.formData
    ? `a script sent the form${where ? ` to ${where}` : ""}`
    : `the page tried to open ${where || "another page"}`);
}

/** A report from the page-world half. @param {Event} event */
function onReport(event) {
  let kind = "";
  let form = "";
  try {
    const detail = JSON.parse(String(/** @type {CustomEvent} */ (event).detail ?? ""));
    kind = String(detail.kind ?? "");
    form = cap(norm(detail.form), LABEL_MAX);
  } catch {
    return;
  }
  const what = form ? `the form "${form}"` : "the form";
  if (kind === "form_submit") record("form_submit", `a script on the page tried to send ${what} directly`);
  else if (kind === "request_submit") record("request_submit", `a script on the page asked to send ${what}`);
}

/** @param {Event} event */
function onPersonInput(event) {
  if (!event.isTrusted) return;
  // During the apply the guard holds; after it, the person's own input takes over at once.
  if (holds === 0) settle();
  else personAt = performance.now();
}

/** @param {AttemptKind} kind @param {string} what */
function record(kind, what) {
  const phase = holds > 0 ? "apply" : "after";
  const field_id = phase === "apply" ? current.field_id : "";
  const when = phase === "after" ? "Just after the fill"
    : current.label ? `While filling "${current.label}"` : "While Relay was filling the form";
  // The person may have pressed Submit themselves while Relay was still filling.
  const yours = phase === "apply" && performance.now() - personAt < PERSON_NEAR_MS
    ? " (just after your own click or key press: submit again once Relay has filled the form)" : "";
  const detail = cap(`${when}: ${what}${yours}`, 280);
  const same = attempts.find((a) => a.kind === kind && a.detail === detail && a.run_id === currentRun);
  if (same) {
    same.times += 1;
    return;
  }
  if (attempts.length >= MAX_ROWS) return;
  attempts.push({ kind, field_id, phase, detail, times: 1, run_id: currentRun });
}

relayContent.submit_guard = { armGuard, releaseGuard, guardRootsOf, guardField };
})();
