// The content side's entry (loaded by loader.js in every frame): answers the service worker's
// messages. Messages carry `relay: <kind>`; every answer is JSON with `ok`.

import { applyDecisions, lastApplyTimings } from "./apply.js";
import { startEditTracking } from "./edits.js";
import { classify, clearMarks, markCounts, showMarks } from "./marks.js";
import { wellFormed } from "./dom.js";
import { addBlocked, closePanel, panelState, showPanel } from "./panel.js";
import { postingText } from "./posting.js";
import { lastTimings, registry, snapshot, visualTarget } from "./snapshot.js";
import { armGuard, guardField, guardRootsOf, releaseGuard } from "./submit_guard.js";
import { rememberDecisions, rememberFields, rememberRun, startSubmitWatch } from "./submitted.js";
import { watchForNewFields } from "./watch.js";

export function start() {
  startEditTracking();
  startSubmitWatch();
}

/**
 * @param {Record<string, any>} message
 * @returns {Promise<Record<string, any>>}
 */
export async function handleMessage(message) {
  switch (message.relay) {
    case "ping":
      return { ok: true, url: location.href };
    case "snapshot": {
      const started = performance.now();
      const snap = await snapshot();
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
      if (message.op === "release") return { ok: true, blocked: releaseGuard(runId) };
      return { ok: false, error: { code: "E_UNKNOWN_MESSAGE", message: `unknown guard op ${message.op}` } };
    }
    case "apply":
      return apply(/** @type {any[]} */ (message.decisions ?? []));
    case "panel":
      if (window !== window.top) return { ok: false, error: { code: "E_NOT_TOP", message: "the panel lives in the top frame" } };
      showPanel(message.model, pickRow);
      return { ok: true };
    case "blocked":
      // Attempts reported apart from a fill's own panel (the watch after the apply, replays).
      if (window !== window.top) return { ok: false, error: { code: "E_NOT_TOP", message: "the panel lives in the top frame" } };
      addBlocked(String(message.run_id ?? ""), message.blocked ?? [], pickRow);
      return { ok: true };
    case "focus":
      return { ok: focusField(String(message.field_id)) };
    case "clear":
      clearMarks();
      closePanel();
      return { ok: true };
    case "state":
      return {
        ok: true, marks: markCounts(), panel: panelState(), fields: registry.size,
        // Where the latest snapshot and apply spent their time (slowest fields first).
        timings: { snapshot: lastTimings, apply: lastApplyTimings },
      };
    default:
      return { ok: false, error: { code: "E_UNKNOWN_MESSAGE", message: `unknown message ${message.relay}` } };
  }
}

/**
 * Apply this frame's decisions, mark the fields, and return results plus rows for the panel.
 * @param {any[]} decisions
 */
async function apply(decisions) {
  const started = performance.now();
  // Submits inside shadow roots never reach the window: the guard listens on the fields' roots.
  for (const decision of decisions) {
    const entry = registry.get(String(decision.field_id));
    if (entry) guardRootsOf([entry.el, ...(entry.members ?? [])]);
  }
  const results = await applyDecisions(decisions, { onDecision: guardField });
  rememberDecisions(decisions, results);
  void watchForNewFields();
  const byId = new Map(results.map((r) => [r.field_id, r]));
  /** @type {import("./marks.js").MarkItem[]} */
  const items = [];
  const rows = [];
  for (const decision of decisions) {
    const result = byId.get(String(decision.field_id));
    const { kind, tip } = classify(decision, result);
    const entry = registry.get(String(decision.field_id));
    rows.push({
      frame: String(decision.frame ?? "0"),
      field_id: String(decision.field_id),
      label: String(decision.label ?? ""),
      kind,
      value: result?.status === "applied" || result?.status === "user_edited" ? String(result.value_after ?? "") : "",
      tip,
    });
    // No mark on a field the person cannot see: a ring around nothing invites typing into it.
    if (!entry || entry.hidden) continue;
    // Outline what the person sees: a group's choices with their labels, a widget's visible box.
    const targets = entry.kind === "group"
      ? entry.members.flatMap((m) => [m, ...(/** @type {any} */ (m).labels ?? [])])
      : [visualTarget(entry.el)];
    items.push({ targets, tracked: entry.el, kind, tip });
  }
  const marking = performance.now();
  showMarks(items);
  lastApplyTimings.marks = Math.round(performance.now() - marking);
  lastApplyTimings.total = Math.round(performance.now() - started);
  return { ok: true, results, rows, timings_ms: { apply: performance.now() - started } };
}

/** The person clicked a panel row: show that field, in whichever frame. @param {{frame: string, field_id: string}} row */
function pickRow(row) {
  chrome.runtime.sendMessage({ relay_bg: "focus", frame: row.frame, field_id: row.field_id }).catch(() => {});
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
