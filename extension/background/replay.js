// Replayed deliveries (`fill.replay` events): after the bridge or this worker restarted, the bridge
// sends again every decision it never saw acknowledged. Each one is applied at most once: skipped
// when this (run, seq) was handed to the page before, applied in its frame when the run's tab still
// shows the same document, and otherwise acknowledged as not applicable so it is not sent forever.
// Events come in bursts right after `hello`; when a burst settles, each run is acknowledged with one
// `fill.ack` up to its highest contiguous done seq. Replays apply under the submit guard like a
// Fill; what it stopped goes to the bridge as `fill.blocked`.

import { withoutFragment } from "./deliveries.js";
import { listFrames, sendToFrame } from "./frames.js";
import { asRelayError } from "./native-port.js";

const SETTLE_MS = 150;
const APPLY_TIMEOUT_MS = 60_000;
const ACK_TIMEOUT_MS = 15_000;
const PANEL_TIMEOUT_MS = 5_000;
const KEEP_OUTCOMES = 50;

/**
 * @typedef {object} ReplayEvent
 * @property {string} run_id
 * @property {number} seq
 * @property {string} delivery
 * @property {Record<string, any>} decision
 * @property {number} connection  which connection of the port delivered it (diagnostics)
 */

/**
 * @typedef {object} ReplayOutcome
 * @property {string} run_id
 * @property {number} seq
 * @property {"applied"|"already"|"not_applicable"|"deferred"} outcome
 * @property {string} [status]   the page's apply status, when it was applied
 * @property {string} detail
 * @property {number} connection
 */

/**
 * @param {{request: (type: string, payload?: Record<string, unknown>, options?: {timeoutMs?: number}) => Promise<any>,
 *   subscribe: (fn: (notice: any) => void) => unknown, connects?: number}} port
 * @param {import("./deliveries.js").Deliveries} deliveries
 * @param {ReturnType<typeof import("./submit-guard.js").createSubmitGuard>} guard
 * @param {{settleMs?: number}} [options]
 */
export function createReplay(port, deliveries, guard, options = {}) {
  const settleMs = options.settleMs ?? SETTLE_MS;
  /** @type {ReplayEvent[]} */
  let waiting = [];
  /** @type {ReturnType<typeof setTimeout>|null} */
  let timer = null;
  /** @type {Promise<void>} bursts are handled one after another, never interleaved */
  let working = Promise.resolve();
  /** @type {ReplayOutcome[]} recent outcomes, newest last (diagnostics and tests) */
  const outcomes = [];

  port.subscribe((/** @type {any} */ notice) => {
    if (notice?.kind === "event" && notice.event?.kind === "fill.replay") receive(notice.event);
  });

  /** @param {Record<string, any>} event */
  function receive(event) {
    const seq = Number(event.seq);
    if (typeof event.run_id !== "string" || !event.run_id || !Number.isInteger(seq) || seq < 1) {
      console.warn("Relay: ignoring a malformed fill.replay event", event);
      return;
    }
    waiting.push({
      run_id: event.run_id, seq, delivery: String(event.delivery ?? ""),
      decision: event.decision && typeof event.decision === "object" ? event.decision : {},
      connection: port.connects ?? 0,
    });
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      const burst = waiting;
      waiting = [];
      working = working.then(() => handle(burst)).catch((err) => {
        console.error("Relay: replay failed", err);
      });
    }, settleMs);
  }

  /** @param {ReplayEvent[]} burst */
  async function handle(burst) {
    /** @type {Map<string, import("./deliveries.js").RunRecord|null>} */
    const records = new Map();
    /** @type {Map<number, Promise<{frameId: number, documentId?: string}[]>>} */
    const framesOf = new Map();
    /** @type {Map<string, {tabId: number, frameId: number, items: ReplayEvent[]}>} */
    const toApply = new Map();
    /** @type {Map<string, ReplayEvent[]>} per run, for the acknowledgements */
    const perRun = new Map();

    for (const ev of burst) {
      if (!records.has(ev.run_id)) records.set(ev.run_id, await recordOf(ev.run_id));
      const record = records.get(ev.run_id) ?? null;
      if (record && deliveries.isOwned(ev.run_id)) {
        // The Fill that planned this run is applying it now and acknowledges it itself; should it
        // die first, the next connection replays these again.
        settle(ev, "deferred", "the Fill of this run applies it");
        continue;
      }
      if (!perRun.has(ev.run_id)) perRun.set(ev.run_id, []);
      perRun.get(ev.run_id)?.push(ev);
      if (!record) {
        // Not planned by this browser session (or the plan's reply never arrived): never applied here.
        settle(ev, "not_applicable", "this browser session has no record of the run");
        continue;
      }
      if (await deliveries.isDone(ev.run_id, ev.seq)) {
        settle(ev, "already", "applied before");
        continue;
      }
      const frame = String(ev.decision.frame ?? "0");
      const where = ev.delivery === "fill.decision"
        ? await locate(record, frame, framesOf)
        : { ok: false, why: `unknown delivery kind ${JSON.stringify(ev.delivery)}` };
      // Claimed either way: a not-applicable seq is done too, and a second copy of this event
      // (in this burst or a later one) finds it claimed.
      const fresh = await deliveries.claim(ev.run_id, [ev.seq]);
      if (!fresh.has(ev.seq)) {
        settle(ev, "already", "applied before");
      } else if (!where.ok) {
        console.warn(`Relay: replay of ${ev.run_id}#${ev.seq} not applicable: ${where.why}`);
        settle(ev, "not_applicable", where.why);
      } else {
        const key = `${record.tab_id}/${frame}`;
        if (!toApply.has(key)) toApply.set(key, { tabId: record.tab_id, frameId: Number(frame), items: [] });
        toApply.get(key)?.items.push(ev);
      }
    }

    await Promise.all([...toApply.values()].map(applyInFrame));
    await Promise.all([...perRun].map(([runId, events]) => acknowledge(runId, events, records.get(runId) ?? null)));
  }

  /**
   * The run's record. A replay can overtake the reply of the plan it belongs to (the bridge replays
   * from its warm-up while it answers the first plan), so an unknown run waits for plans in flight.
   * @param {string} runId
   */
  async function recordOf(runId) {
    const record = await deliveries.get(runId);
    if (record) return record;
    await deliveries.plansSettled();
    return deliveries.get(runId);
  }

  /**
   * Where a replayed decision can still go: the run's tab, same URL (fragment aside), same document.
   * @param {import("./deliveries.js").RunRecord} record @param {string} frame
   * @param {Map<number, Promise<{frameId: number, documentId?: string}[]>>} framesOf
   * @returns {Promise<{ok: boolean, why: string}>}
   */
  async function locate(record, frame, framesOf) {
    let tab;
    try {
      tab = await chrome.tabs.get(record.tab_id);
    } catch {
      return { ok: false, why: `tab ${record.tab_id} is closed` };
    }
    const url = withoutFragment(tab.url ?? "");
    if (url !== record.url) return { ok: false, why: `the tab moved on to ${url || "another page"}` };
    if (!framesOf.has(record.tab_id)) framesOf.set(record.tab_id, listFrames(record.tab_id));
    const frames = await (framesOf.get(record.tab_id) ?? Promise.resolve([]));
    const found = frames.find((f) => String(f.frameId) === frame);
    if (!found) return { ok: false, why: `frame ${frame} is gone` };
    const planned = record.docs[frame];
    if (planned && found.documentId && found.documentId !== planned) {
      return { ok: false, why: `frame ${frame} was reloaded since the plan` };
    }
    return { ok: true, why: "" };
  }

  /** @param {{tabId: number, frameId: number, items: ReplayEvent[]}} group */
  async function applyInFrame({ tabId, frameId, items }) {
    items.sort((a, b) => a.seq - b.seq); // plan order: answers can depend on earlier ones
    const decisions = items.map((ev) => ev.decision);
    const runId = items[0]?.run_id ?? "";
    const held = await guard.arm(tabId, [frameId], runId);
    /** @type {any} */
    let reply = null;
    /** @type {import("./submit-guard.js").BlockedAttempt[]} */
    let blocked = [];
    try {
      reply = await sendToFrame(tabId, frameId, { relay: "apply", decisions }, APPLY_TIMEOUT_MS);
    } catch (err) {
      // Final like any other outcome: nothing is retried automatically.
      const why = `frame ${frameId} could not apply: ${asRelayError(err).message}`;
      for (const ev of items) settle(ev, "applied", why, "not_found");
    } finally {
      blocked = await held.release();
    }
    if (reply) {
      /** @type {Map<string, Record<string, any>>} */
      const byField = new Map((reply.results ?? []).map((/** @type {any} */ r) => [String(r.field_id), r]));
      for (const ev of items) {
        const r = byField.get(String(ev.decision.field_id));
        settle(ev, "applied", String(r?.detail ?? ""), String(r?.status ?? "not_found"));
      }
      if (frameId === 0 && Array.isArray(reply.rows) && reply.rows.length) {
        const rows = reply.rows.map((/** @type {any} */ r) => ({ ...r, frame: "0" }));
        await sendToFrame(tabId, 0, { relay: "panel", model: { run_id: runId, rows } }, PANEL_TIMEOUT_MS)
          .catch(() => {});
      }
    }
    await guard.report(tabId, runId, blocked); // to the bridge, and onto the panel
  }

  /**
   * One `fill.ack` per run. The bridge replays everything after its acknowledged mark, so the
   * burst's lowest seq minus one is acknowledged already.
   * @param {string} runId @param {ReplayEvent[]} events @param {import("./deliveries.js").RunRecord|null} record
   */
  async function acknowledge(runId, events, record) {
    const floor = Math.min(...events.map((e) => e.seq)) - 1;
    const upTo = record
      ? await deliveries.upToSeq(runId, floor)
      : contiguousFrom(floor, new Set(events.map((e) => e.seq)));
    if (upTo <= 0) return;
    try {
      await port.request("fill.ack", { run_id: runId, up_to_seq: upTo }, { timeoutMs: ACK_TIMEOUT_MS });
      await deliveries.acked(runId, upTo);
    } catch (err) {
      const error = asRelayError(err);
      if (error.code === "E_NOT_FOUND") {
        await deliveries.acked(runId, upTo, true); // the bridge has no such run: nothing to wait for
        return;
      }
      // Still pending at the bridge: the next connection replays it, and it is found done then.
      console.warn(`Relay: fill.ack for ${runId} up to ${upTo} failed: ${error.message}`);
    }
  }

  /**
   * @param {ReplayEvent} ev @param {ReplayOutcome["outcome"]} outcome @param {string} detail
   * @param {string} [status]
   */
  function settle(ev, outcome, detail, status) {
    outcomes.push({
      run_id: ev.run_id, seq: ev.seq, outcome, detail, connection: ev.connection, ...(status ? { status } : {}),
    });
    if (outcomes.length > KEEP_OUTCOMES) outcomes.shift();
  }

  return {
    outcomes,
    /** Resolves once every replay received so far has been handled and acknowledged. */
    async settled() {
      for (;;) {
        const pending = working;
        await pending;
        if (!timer && !waiting.length && pending === working) return;
        await new Promise((r) => setTimeout(r, settleMs));
      }
    },
  };
}

/** @param {number} floor @param {Set<number>} seqs */
function contiguousFrom(floor, seqs) {
  let up = floor;
  while (seqs.has(up + 1)) up += 1;
  return up;
}
