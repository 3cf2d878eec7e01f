// Applies this frame's part of a fill plan: each decision finds its control by snapshot id and is
// handed to the control's widget driver (or Relay's fallback). Decisions are applied in plan order,
// one at a time, since answers can depend on each other (country before state).
//
// Never: overwrite what the person typed after Relay's fill, submit a form, click a submit
// control, or press Enter (drivers that need a key press use Tab).

(() => {
"use strict";
const { applyFallback } = relayContent.fallback;
const { noteActed } = relayContent.changes;
const { asRelay, markFilled, wasEditedByPerson } = relayContent.edits;
const { canSee } = relayContent.sight;
const { registry, relocate, trackedValue } = relayContent.snapshot;
const { rememberBefore } = relayContent.undo;

/** @typedef {import("./fallback.js").Decision} Decision */
/**
 * @typedef {{field_id: string, frame: string, status: string, detail: string, value_after: string}} ApplyResult
 */

const STATUSES = new Set(["applied", "not_found", "refused", "skipped", "user_edited"]);
const MOVED_ON = Symbol("moved on");
const ACTIVE = new Set(["fill", "flag"]);
const APPLY_TIMEOUT_MS = 15_000;

/**
 * @param {Decision[]} decisions
 * @param {{onDecision?: (decision: Decision|null) => void}} [hooks]  told which decision is being
 *   applied (null once all are), so the submit guard can say during which field the page acted
 * @returns {Promise<ApplyResult[]>}
 */
async function applyDecisions(decisions, hooks = {}) {
  /** @type {ApplyResult[]} */
  const results = [];
  /** @type {{id: string, widget: string, ms: number}[]} */
  const slow = [];
  /** @type {Promise<void>[]} fields whose driver moved on and still watches the page */
  const watching = [];
  for (const decision of decisions) {
    const base = { field_id: String(decision.field_id), frame: String(decision.frame ?? "0") };
    const entry = registry.get(base.field_id);
    const started = performance.now();
    hooks.onDecision?.(decision);
    /** @type {() => void} */
    let moveOn = () => {};
    const movedOn = new Promise((resolve) => { moveOn = () => resolve(MOVED_ON); });
    const run = applyOne(decision, moveOn).then(
      (outcome) => ({ ...base, ...outcome }),
      // A broken driver or page script must not stop the rest of the plan.
      (err) => ({ ...base, status: "refused", detail: `error: ${err instanceof Error ? err.message : String(err)}`, value_after: "" }),
    ).then((result) => {
      const took = performance.now() - started;
      if (took >= 5) {
        slow.push({ id: base.field_id, widget: `${entry?.driver?.name ?? entry?.widget ?? "-"}:${decision.label ?? ""}`.slice(0, 60), ms: Math.round(took) });
      }
      return result;
    });
    const slot = results.length;
    results.push(/** @type {any} */ (null));
    // A driver that has done all a person does and only waits to see the page keep it (an
    // upload shown, a chosen place not dropped on blur) lets the next field start meanwhile.
    const first = await Promise.race([run, movedOn]);
    if (first === MOVED_ON) watching.push(run.then((result) => { results[slot] = result; }));
    else results[slot] = /** @type {ApplyResult} */ (first);
  }
  await Promise.all(watching);
  hooks.onDecision?.(null);
  lastApplyTimings.slow = slow.sort((a, b) => b.ms - a.ms).slice(0, 15);
  return results;
}

/** @type {Map<string, string>} fields waiting for the model: what each showed when it was marked */
const asking = new Map();

/**
 * The model's answer to a field comes later (background/stream.js): remember what the field shows
 * now, so the answer is applied only if the person has not touched the field meanwhile.
 * @param {Decision[]} decisions
 */
function noteAsking(decisions) {
  for (const decision of decisions) {
    const entry = /** @type {any} */ (decision).asking ? registry.get(String(decision.field_id)) : null;
    if (entry) asking.set(String(decision.field_id), trackedValue(entry));
  }
}

/** The slowest decisions of the latest apply in this frame (ms), for profiling. */
const lastApplyTimings = { slow: /** @type {{id: string, widget: string, ms: number}[]} */ ([]), marks: 0, total: 0 };

/**
 * @param {Decision} decision
 * @param {() => void} moveOn  handed to the driver (util.js Driver)
 * @returns {Promise<Omit<ApplyResult, "field_id"|"frame">>}
 */
async function applyOne(decision, moveOn) {
  if (!ACTIVE.has(decision.status) || !decision.action || decision.action === "none") {
    return { status: "skipped", detail: `decision: ${decision.status || "leave"}`, value_after: "" };
  }
  const entry = registry.get(String(decision.field_id));
  if (!entry) return { status: "not_found", detail: "no such field in this frame's snapshot", value_after: "" };
  const targets = entry.kind === "group" ? entry.members : [entry.el];
  if (!targets.some((t) => t.isConnected) && !relocate(entry)) {
    return { status: "not_found", detail: "the field is no longer in the page", value_after: "" };
  }
  const tracked = entry.el; // a group is tracked on its container
  const before = trackedValue(entry);
  const waitedFrom = asking.get(String(decision.field_id));
  asking.delete(String(decision.field_id));
  if (waitedFrom !== undefined && before !== waitedFrom) {
    return { status: "user_edited", detail: "you filled this in while Relay asked the model; kept", value_after: before };
  }
  if (wasEditedByPerson(tracked, before)) {
    return { status: "user_edited", detail: "changed by you after Relay filled it; kept", value_after: before };
  }
  // The page may have hidden the field since the snapshot: what the person cannot see stays empty.
  const sight = canSee(entry);
  if (!sight.visible) {
    entry.hidden = sight.reason;
    return { status: "refused", detail: `you cannot see this field (${sight.reason})`, value_after: before };
  }
  rememberBefore(entry); // for undo: what was there before Relay
  let movedOn = false;
  const hooks = {
    moveOn: () => {
      movedOn = true;
      noteActed();
      moveOn();
    },
  };
  const outcome = await asRelay([entry.el, ...entry.members], async () => {
    if (entry.driver) return withTimeout(entry.driver.apply(entry.el, decision, hooks), APPLY_TIMEOUT_MS);
    return applyFallback(entry, decision);
  }).finally(() => {
    // What the page does in answer is waited for before the form is compared (changes.js); a
    // driver that moved on noted its act then.
    if (!movedOn) noteActed();
  });
  const status = STATUSES.has(String(outcome?.status)) ? String(outcome.status) : "refused";
  const result = {
    status,
    detail: String(outcome?.detail ?? ""),
    value_after: String(outcome?.value_after ?? trackedValue(entry)),
  };
  if (status === "applied") markFilled(tracked, trackedValue(entry));
  return result;
}

/** @template T @param {Promise<T>} promise @param {number} ms @returns {Promise<T>} */
function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the driver took over ${ms} ms`)), ms);
    promise.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
  });
}

relayContent.apply = { applyDecisions, noteAsking, lastApplyTimings };
})();
