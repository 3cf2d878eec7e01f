// The content side's entry: answers the service worker's messages, which listen.js hands it.
// Messages carry `relay: <kind>`; every answer is JSON with `ok`.

(() => {
"use strict";
const { applyDecisions, lastApplyTimings, noteAsking } = relayContent.apply;
const { arrivalState } = relayContent.arrival;
const { formChanged, rememberSnapshot } = relayContent.changes;
const { startEditTracking } = relayContent.edits;
const { fieldFacts, fieldOp, keepSecret, noteFields, shownValue, startLiveEdits } = relayContent.field_ops;
const { badgeSpots, classify, clearMarks, markCounts, onMarkAction, onMarksSeen, showMarks } = relayContent.marks;
const { wellFormed } = relayContent.dom;
const { postingText } = relayContent.posting;
const { makeRoom } = relayContent.room;
const { lastTimings, registry, snapshot, visualTarget } = relayContent.snapshot;
const { armGuard, guardField, guardRootsOf, releaseGuard } = relayContent.submit_guard;
const { rememberDecisions, rememberFields, rememberRun, startSubmitWatch } = relayContent.submitted;
const { watchForNewFields } = relayContent.watch;

function start() {
  startEditTracking();
  startLiveEdits();
  onMarkAction(markAction);
  // Marks the page keeps out of sight: the side panel says so (background/review.js).
  onMarksSeen((seen) => void toReview({ op: "marks-seen", seen }));
  startSubmitWatch();
}

/**
 * @param {Record<string, any>} message
 * @returns {Promise<Record<string, any>>}
 */
async function handleMessage(message) {
  switch (message.relay) {
    case "ping":
      return { ok: true, url: location.href };
    case "arrival":
      return { ok: true, ...arrivalState() };
    case "snapshot": {
      const started = performance.now();
      const budget = Number(message.budget_ms);
      const snap = await snapshot(Number.isFinite(budget) && budget >= 0 ? budget : undefined);
      noteFields(snap.fields ?? []);
      rememberSnapshot();
      rememberFields(snap.fields);
      const reading = performance.now();
      // The posting only, never the form: its text may go to a model (posting.js).
      const jobText = message.want_text ? postingText(message.max_text ?? 20_000) : "";
      lastTimings.text = Math.round(performance.now() - reading);
      // A page's text can hold lone surrogates; the bridge would refuse the whole snapshot.
      return wellFormed({
        ok: true,
        ...snap,
        job_text: jobText,
        timings_ms: {
          snapshot: performance.now() - started, walk: lastTimings.walk, fields: lastTimings.fields, sight: lastTimings.sight,
        },
      });
    }
    case "guard": {
      // The submit guard around an apply (submit_guard.js); the worker arms every frame first.
      const runId = String(message.run_id ?? "");
      if (message.op === "arm") {
        rememberRun(runId);
        return { ok: true, ...armGuard(runId) };
      }
      if (message.op === "release") {
        const blocked = releaseGuard(runId);
        showPendingMarks();
        return { ok: true, blocked };
      }
      return { ok: false, error: { code: "E_UNKNOWN_MESSAGE", message: `unknown guard op ${message.op}` } };
    }
    case "apply":
      return apply(/** @type {any[]} */ (message.decisions ?? []), message.more === true);
    case "make_room":
      // Press a repeated section's own "Add another" for the profile's entries (room.js).
      return { ok: true, ...(await makeRoom(message.rooms ?? [], message.empty ?? {})) };
    case "changes":
      // After an apply: whether a later round of the Fill has something to look at (changes.js).
      return { ok: true, ...(await formChanged()) };
    case "panel":
    case "blocked":
      // The review lives in the browser's side panel (background/review.js): a fill's rows, and
      // attempts reported apart from them (the watch after the apply, replays), go there.
      if (window !== window.top) return { ok: false, error: { code: "E_NOT_TOP", message: "the review belongs to the top frame" } };
      return toReview(message.relay === "panel"
        ? { op: "publish", model: message.model }
        : { op: "blocked", run_id: String(message.run_id ?? ""), blocked: message.blocked ?? [] });
    case "focus":
      return { ok: focusField(String(message.field_id)) };
    case "field": {
      // An action on one field (or all: op "undo-all") from the side panel or a mark. The message
      // itself succeeds; `done` says whether the action did (a refusal is an answer, not an error).
      const reply = await fieldOp(message);
      return { ...reply, ok: true, done: reply.ok !== false };
    }
    case "clear":
      clearMarks();
      return { ok: true };
    case "state":
      return {
        ok: true, marks: markCounts(), badges: badgeSpots(), fields: registry.size,
        // Where the latest snapshot and apply spent their time (slowest fields first).
        timings: { snapshot: lastTimings, apply: lastApplyTimings },
      };
    default:
      return { ok: false, error: { code: "E_UNKNOWN_MESSAGE", message: `unknown message ${message.relay}` } };
  }
}

/** The marks of this Fill so far, by field id: a later round adds to them. */
const marked = new Map();

/**
 * Apply this frame's decisions, mark the fields, and return results plus rows for the panel.
 * @param {any[]} decisions @param {boolean} more  a later round of the same Fill: earlier marks stay
 */
async function apply(decisions, more) {
  const started = performance.now();
  // Submits inside shadow roots never reach the window: the guard listens on the fields' roots.
  for (const decision of decisions) {
    const entry = registry.get(String(decision.field_id));
    if (entry) guardRootsOf([entry.el, ...(entry.members ?? [])]);
  }
  noteAsking(decisions);
  const results = await applyDecisions(decisions, { onDecision: guardField });
  rememberDecisions(decisions, results);
  void watchForNewFields();
  const byId = new Map(results.map((r) => [r.field_id, r]));
  /** @type {{id: string, item: import("./marks.js").MarkItem}[]} */
  const items = [];
  const rows = [];
  for (const decision of decisions) {
    const result = byId.get(String(decision.field_id));
    if (decision.status === "never" && !NOT_SECRET.has(String(decision.key))) keepSecret(String(decision.field_id));
    const { kind, tip } = classify(decision, result);
    const entry = registry.get(String(decision.field_id));
    rows.push({
      frame: String(decision.frame ?? "0"),
      field_id: String(decision.field_id),
      label: String(decision.label ?? ""),
      kind,
      value: result?.status === "applied" || result?.status === "user_edited" ? String(result.value_after ?? "") : "",
      shown: entry ? shownValue(entry) : "", // what the field shows now, whoever put it there
      tip,
      ...reviewFacts(decision, result),
    });
    // No mark on a field the person cannot see: a ring around nothing invites typing into it.
    if (!entry || entry.hidden) continue;
    // Outline what the person sees: a group's choices with their labels, a widget's visible box.
    const targets = entry.kind === "group"
      ? entry.members.flatMap((m) => [m, ...(/** @type {any} */ (m).labels ?? [])])
      : [entry.driver?.outline?.(entry.el) ?? visualTarget(entry.el)];
    const id = String(decision.field_id);
    items.push({ id, item: { targets, tracked: entry.el, kind, tip, field_id: id, keep: decision.status === "keep" } });
  }
  if (!more) marked.clear();
  for (const { id, item } of items) marked.set(id, item);
  // Drawn once the guard lets go (every frame has applied, every round): the marks come with the
  // review.
  pendingMarks = [...marked.values()];
  clearTimeout(pendingTimer);
  pendingTimer = setTimeout(showPendingMarks, MARKS_LATEST_MS);
  lastApplyTimings.total = Math.round(performance.now() - started);
  return { ok: true, results, rows, timings_ms: { apply: performance.now() - started } };
}

// Fields Relay never fills whose values are no secret: the review may show them.
const NOT_SECRET = new Set(["never.consent", "never.honeypot"]);

/** @type {import("./marks.js").MarkItem[]|null} marks of the latest apply, not drawn yet */
let pendingMarks = null;
/** @type {ReturnType<typeof setTimeout>|undefined} */
let pendingTimer;
// A frame the guard never held gets no release: its marks are drawn after this long anyway.
const MARKS_LATEST_MS = 10_000;

function showPendingMarks() {
  clearTimeout(pendingTimer);
  if (!pendingMarks) return;
  const marking = performance.now();
  showMarks(pendingMarks);
  pendingMarks = null;
  lastApplyTimings.marks = Math.round(performance.now() - marking);
}

/**
 * What the side panel shows of a decision beside its row (see background/review.js).
 * @param {Record<string, any>} decision @param {Record<string, any>|undefined} result
 */
function reviewFacts(decision, result) {
  return {
    source: String(decision.source ?? "none"),
    confidence: Number(decision.confidence ?? 0),
    status: String(decision.status ?? "leave"),
    applied: String(result?.status ?? ""),
    detail: String(result?.detail ?? ""),
    key: String(decision.key ?? ""),
    why: String(decision.why || ""),
    reason: String(decision.reason ?? ""),
    ...fieldFacts(String(decision.field_id)),
  };
}

/** @param {Record<string, any>} request */
async function toReview(request) {
  try {
    return await chrome.runtime.sendMessage({ relay_bg: "review", ...request });
  } catch (err) {
    return { ok: false, error: { code: "E_CONTENT", message: String(/** @type {any} */ (err)?.message ?? err) } };
  }
}

/** A mark's menu: the worker runs the action (as from the side panel). @param {string} fieldId @param {string} action */
function markAction(fieldId, action) {
  if (action === "edit") {
    focusField(fieldId);
    return;
  }
  void toReview({ op: action === "hide" ? "hide-marks" : action, field_id: fieldId });
}

/** @param {string} id */
function focusField(id) {
  const entry = registry.get(id);
  const el = entry?.kind === "group" ? entry.members[0] : entry?.el;
  if (!el || !el.isConnected || entry?.hidden) return false;
  el.scrollIntoView({ block: "center", behavior: "smooth" });
  /** @type {HTMLElement} */ (el).focus?.({ preventScroll: true });
  return true;
}

relayContent.main = { start, handleMessage };
})();
