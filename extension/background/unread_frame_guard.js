// The submit guard for the frames Relay does not read (another site's chat, ad or survey frame
// beside the application). Relay never writes there, but its writes elsewhere still reach them:
// the first field Relay focuses in the application takes the focus from a chat box the person
// left it in, and a chat that sends on blur would send. So while Relay applies, these frames get
// a guard too, without Relay's content script: `unreadFrameGuard` is run with chrome.scripting
// in Relay's isolated world (the page cannot remove its listeners) and cancels submit events and
// navigations to another document; submit-guard.js adds the page-world half (form.submit(),
// requestSubmit()) on the channel it returns. Released, it watches a second longer, as the
// content script's guard does, then reports what it stopped late (`guard-settled`) and is gone.
// The person's own input after the release ends it at once. Serialised into the frame: it uses
// nothing from outside its body.

/**
 * Arm (or keep armed) the guard in this frame for a run.
 * @param {string} runId @param {number} holdMs  disarm after this long, whatever happens
 * @returns {{channel: string}}
 */
export function unreadFrameGuard(runId, holdMs) {
  const KEY = "__relayUnreadFrameGuard"; // a global of Relay's isolated world, not the page's
  const GRACE_MS = 1_000;
  const MAX_ROWS = 20;
  const g = /** @type {any} */ (globalThis);
  if (g[KEY]) return g[KEY].arm(runId, holdMs);

  const channel = `relay-guard-${crypto.randomUUID()}`;
  const where = `In a frame from ${location.origin} that Relay does not fill`;
  const nav = /** @type {EventTarget|undefined} */ (/** @type {any} */ (window).navigation);
  /** @type {{kind: string, detail: string, phase: string, times: number, run_id: string}[]} */
  let attempts = [];
  const runs = new Set([runId]);
  let released = false;
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let timer;

  /** @param {string} kind @param {string} what */
  const record = (kind, what) => {
    const phase = released ? "after" : "apply";
    const detail = `${where}: ${what}`.slice(0, 280);
    const run = [...runs].at(-1) ?? "";
    const same = attempts.find((a) => a.kind === kind && a.detail === detail && a.phase === phase);
    if (same) same.times += 1;
    else if (attempts.length < MAX_ROWS) attempts.push({ kind, detail, phase, times: 1, run_id: run });
  };
  /** @param {Event} event */
  const onSubmit = (event) => {
    event.preventDefault();
    event.stopImmediatePropagation();
    record("submit_event", "its form started to send");
  };
  /** @param {Event} event */
  const onNavigate = (event) => {
    const e = /** @type {any} */ (event);
    if (!e.cancelable || e.destination?.sameDocument) return;
    event.preventDefault();
    record("navigation", e.formData ? "a script sent its form" : "it tried to open another page");
  };
  /** @param {Event} event */
  const onReport = (event) => {
    try {
      const kind = String(JSON.parse(String(/** @type {CustomEvent} */ (event).detail)).kind);
      if (kind === "form_submit" || kind === "request_submit") record(kind, "a script tried to send its form");
    } catch {
      // not the page-world half's report
    }
  };
  /** @param {Event} event */
  const onPerson = (event) => {
    if (event.isTrusted && released) stop();
  };
  const stop = () => {
    clearTimeout(timer);
    window.removeEventListener("submit", onSubmit, true);
    nav?.removeEventListener("navigate", onNavigate);
    document.removeEventListener(`${channel}:report`, onReport);
    for (const type of ["pointerdown", "keydown", "click"]) window.removeEventListener(type, onPerson, true);
    document.dispatchEvent(new CustomEvent(`${channel}:release`));
    const late = attempts;
    attempts = [];
    delete g[KEY];
    if (late.length) {
      chrome.runtime.sendMessage({ relay_bg: "guard-settled", runs: [...runs], blocked: late }).catch(() => {});
    }
  };

  window.addEventListener("submit", onSubmit, true);
  nav?.addEventListener("navigate", onNavigate);
  document.addEventListener(`${channel}:report`, onReport);
  for (const type of ["pointerdown", "keydown", "click"]) window.addEventListener(type, onPerson, true);
  g[KEY] = {
    /** @param {string} run @param {number} ms */
    arm(run, ms) {
      runs.add(run);
      released = false;
      clearTimeout(timer);
      timer = setTimeout(stop, ms);
      return { channel };
    },
    /** @param {string} run */
    release(run) {
      const mine = attempts.filter((a) => a.run_id === run);
      attempts = attempts.filter((a) => a.run_id !== run);
      released = true;
      clearTimeout(timer);
      timer = setTimeout(stop, GRACE_MS);
      return mine;
    },
  };
  return g[KEY].arm(runId, holdMs);
}

/**
 * Release the guard of this frame for a run: what it stopped during the apply.
 * @param {string} runId
 * @returns {{kind: string, detail: string, phase: string, times: number, run_id: string}[]}
 */
export function releaseUnreadFrameGuard(runId) {
  const guard = /** @type {any} */ (globalThis).__relayUnreadFrameGuard;
  return guard ? guard.release(runId) : [];
}
