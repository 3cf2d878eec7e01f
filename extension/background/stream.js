// Model answers that stream in (docs/protocol.md, "Model answers that stream in"). A streamed
// `fill.plan` answers with the rules' decisions at once; fields left for the model come marked
// `asking`, and each model outcome (an answer, or a refusal with its reason) arrives later as a
// `fill.answer` event carrying a sequenced delivery of the run. The Fill that planned the run
// waits for them after its own apply (`collect`) and reports them in its one `fill.applied`; an
// answer nobody waits for (this worker restarted, the Fill gave up) is applied on its own and
// acknowledged with `fill.ack`. Every answer is claimed by (run, seq) first (deliveries.js), so a
// second copy — a replay after a bridge restart — is never applied twice, and the page applies it
// only if the person has not touched the field meanwhile (content/apply.js).

import { withoutFragment } from "./deliveries.js";
import { listFrames, sendToFrame } from "./frames.js";
import { asRelayError } from "./native-port.js";

const ANSWER_WAIT_MS = 180_000; // as long as a plan may wait for the model
const SETTLE_MS = 150;
const APPLY_TIMEOUT_MS = 60_000;
const ACK_TIMEOUT_MS = 15_000;
const PANEL_TIMEOUT_MS = 5_000;

/**
 * @typedef {object} AnswerEvent
 * @property {string} run_id
 * @property {number} seq
 * @property {Record<string, any>} decision
 * @property {{calls?: number, cost_usd?: number, status?: string, job?: string}|null} llm
 *   the totals so far of the model job that sent it (a run can have one job per plan round)
 */

/**
 * @typedef {object} Collected
 * @property {Record<string, any>[]} decisions  the model's outcomes, in arrival order
 * @property {Record<string, any>[]} results    what the page did with each
 * @property {Record<string, any>[]} rows       panel rows
 * @property {import("./submit-guard.js").BlockedAttempt[]} blocked
 * @property {{calls: number, cost_usd: number, status: string}|null} llm
 */

/**
 * @param {{request: (type: string, payload?: Record<string, unknown>, options?: {timeoutMs?: number}) => Promise<any>,
 *   subscribe: (fn: (notice: any) => void) => unknown}} port
 * @param {import("./deliveries.js").Deliveries} deliveries
 * @param {ReturnType<typeof import("./submit-guard.js").createSubmitGuard>} guard
 * @param {{waitMs?: number, settleMs?: number}} [options]
 */
export function createStream(port, deliveries, guard, options = {}) {
  const waitMs = options.waitMs ?? ANSWER_WAIT_MS;
  const settleMs = options.settleMs ?? SETTLE_MS;
  /** @type {Map<string, AnswerEvent[]>} answers received and not taken yet, per run */
  const inbox = new Map();
  /** @type {Map<string, () => void>} the Fill waiting for a run's answers */
  const waiters = new Map();
  /** @type {Map<string, ReturnType<typeof setTimeout>>} */
  const loneTimers = new Map();
  /** @type {Promise<void>} answers applied on their own, one run after another */
  let working = Promise.resolve();

  port.subscribe((/** @type {any} */ notice) => {
    if (notice?.kind !== "event") return;
    const event = notice.event ?? {};
    // A replay of a run a Fill is still waiting on is one of its answers (replay.js defers it).
    if (event.kind === "fill.answer" || (event.kind === "fill.replay" && waiters.has(event.run_id))) receive(event);
  });

  /** @param {Record<string, any>} event */
  function receive(event) {
    const seq = Number(event.seq);
    const runId = event.run_id;
    if (typeof runId !== "string" || !runId || !Number.isInteger(seq) || seq < 1 || typeof event.decision !== "object") {
      console.warn("Relay: ignoring a malformed fill.answer event", event);
      return;
    }
    const list = inbox.get(runId) ?? [];
    list.push({ run_id: runId, seq, decision: event.decision ?? {}, llm: event.llm ?? null });
    inbox.set(runId, list);
    const wake = waiters.get(runId);
    if (wake) wake();
    else if (!deliveries.isOwned(runId)) alone(runId);
  }

  /** @param {string} runId */
  function take(runId) {
    const list = inbox.get(runId) ?? [];
    inbox.delete(runId);
    return list;
  }

  /**
   * The Fill of `runId` has applied the rules' decisions: apply the model's answers to `asked`
   * as they come, until each has one or the wait runs out. Never throws.
   * @param {string} runId @param {number} tabId @param {Record<string, any>[]} asked
   * @returns {Promise<Collected>}
   */
  async function collect(runId, tabId, asked) {
    /** @type {Collected} */
    const got = { decisions: [], results: [], rows: [], blocked: [], llm: null };
    /** @type {Map<string, {calls: number, cost_usd: number, status: string}>} each job's totals */
    const jobs = new Map();
    const open = new Set(asked.map(fieldKey));
    const deadline = performance.now() + waitMs;
    while (open.size) {
      const batch = take(runId);
      if (!batch.length) {
        const left = deadline - performance.now();
        if (left <= 0) break;
        await new Promise((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.set(runId, () => { clearTimeout(timer); resolve(undefined); });
        });
        waiters.delete(runId);
        continue;
      }
      const part = await applyAnswers(runId, tabId, batch);
      for (const ev of part.applied) open.delete(fieldKey(ev.decision));
      got.decisions.push(...part.applied.map((ev) => ev.decision));
      got.results.push(...part.results);
      got.rows.push(...part.rows);
      got.blocked.push(...part.blocked);
      got.llm = sumLlm(jobs, batch);
    }
    for (const d of asked.filter((a) => open.has(fieldKey(a)))) {
      const why = "the model did not answer in time; left for you";
      got.decisions.push({ ...d, asking: false, reason: why, why });
      got.results.push({ field_id: String(d.field_id), frame: String(d.frame ?? "0"), status: "skipped", detail: why, value_after: "" });
    }
    return got;
  }

  /**
   * Claim each answer by (run, seq) and let its frame apply it under the submit guard.
   * @param {string} runId @param {number} tabId @param {AnswerEvent[]} batch
   */
  async function applyAnswers(runId, tabId, batch) {
    await deliveries.planned({ run_id: runId, tab_id: tabId, url: "", seqs: batch.map((ev) => ev.seq) });
    const fresh = await deliveries.claim(runId, batch.map((ev) => ev.seq));
    const applied = batch.filter((ev) => fresh.has(ev.seq));
    /** @type {Map<string, AnswerEvent[]>} */
    const perFrame = new Map();
    for (const ev of applied) {
      const frame = String(ev.decision.frame ?? "0");
      perFrame.set(frame, [...(perFrame.get(frame) ?? []), ev]);
    }
    /** @type {Record<string, any>[]} */
    const results = [];
    /** @type {Record<string, any>[]} */
    const rows = [];
    /** @type {import("./submit-guard.js").BlockedAttempt[]} */
    const blocked = [];
    if (perFrame.size) {
      const held = await guard.arm(tabId, [...perFrame.keys()].map(Number), runId);
      try {
        await Promise.all([...perFrame].map(async ([frame, events]) => {
          events.sort((a, b) => a.seq - b.seq);
          const decisions = events.map((ev) => ({ ...ev.decision, asking: false }));
          try {
            const reply = await sendToFrame(tabId, Number(frame), { relay: "apply", decisions, more: true }, APPLY_TIMEOUT_MS);
            results.push(...(reply.results ?? []).map((/** @type {any} */ r) => ({ ...r, frame })));
            rows.push(...(reply.rows ?? []).map((/** @type {any} */ r) => ({ ...r, frame })));
          } catch (err) {
            const detail = `frame ${frame} could not apply: ${asRelayError(err).message}`;
            for (const d of decisions) results.push({ field_id: String(d.field_id), frame, status: "not_found", detail, value_after: "" });
          }
        }));
      } finally {
        blocked.push(...await held.release());
      }
    }
    return { applied, results, rows, blocked };
  }

  /** Answers for a run no Fill waits on: applied together once a burst settles. @param {string} runId */
  function alone(runId) {
    clearTimeout(loneTimers.get(runId));
    loneTimers.set(runId, setTimeout(() => {
      loneTimers.delete(runId);
      working = working.then(() => applyAlone(runId)).catch((err) => console.error("Relay: model answers failed", err));
    }, settleMs));
  }

  /** @param {string} runId */
  async function applyAlone(runId) {
    if (waiters.has(runId) || deliveries.isOwned(runId)) return; // its Fill takes them after all
    let record = await deliveries.get(runId);
    if (!record) {
      await deliveries.plansSettled();
      record = await deliveries.get(runId);
    }
    const batch = take(runId);
    if (!batch.length) return;
    const where = record ? await reachable(record) : "this browser session has no record of the run";
    if (record && !where) {
      const part = await applyAnswers(runId, record.tab_id, batch);
      await guard.report(record.tab_id, runId, part.blocked);
      if (part.rows.length) {
        await sendToFrame(record.tab_id, 0, { relay: "panel", model: { run_id: runId, rows: part.rows } }, PANEL_TIMEOUT_MS)
          .catch(() => {});
      }
    } else if (record) {
      console.warn(`Relay: model answers for ${runId} not applicable: ${where}`);
      await deliveries.planned({ run_id: runId, tab_id: record.tab_id, url: record.url, seqs: batch.map((ev) => ev.seq) });
      await deliveries.claim(runId, batch.map((ev) => ev.seq)); // done: nowhere to put them
    }
    const upTo = record
      ? await deliveries.upToSeq(runId)
      : Math.max(...batch.map((ev) => ev.seq));
    if (upTo <= 0) return;
    try {
      await port.request("fill.ack", { run_id: runId, up_to_seq: upTo }, { timeoutMs: ACK_TIMEOUT_MS });
      await deliveries.acked(runId, upTo);
    } catch (err) {
      // Still pending at the bridge: the next connection replays it, and it is found done then.
      console.warn(`Relay: fill.ack for ${runId} up to ${upTo} failed: ${asRelayError(err).message}`);
    }
  }

  /**
   * Why the run's page can no longer take its answers ("" when it can).
   * @param {import("./deliveries.js").RunRecord} record
   */
  async function reachable(record) {
    const tab = await chrome.tabs.get(record.tab_id).catch(() => null);
    if (!tab) return `tab ${record.tab_id} is closed`;
    if (withoutFragment(tab.url ?? "") !== record.url) return "the tab moved on to another page";
    const top = (await listFrames(record.tab_id)).find((f) => f.frameId === 0);
    if (top?.documentId && record.docs["0"] && top.documentId !== record.docs["0"]) return "the page was reloaded";
    return "";
  }

  return {
    collect,
    /** Resolves once answers received so far for runs no Fill waits on are applied. */
    async settled() {
      for (;;) {
        const pending = working;
        await pending;
        if (!loneTimers.size && pending === working) return;
        await new Promise((r) => setTimeout(r, settleMs));
      }
    },
  };
}

/** @param {Record<string, any>} d */
function fieldKey(d) {
  return `${String(d.frame ?? "0")}/${String(d.field_id)}`;
}

/**
 * The model's calls and cost over the answers so far: each event carries its job's running
 * totals, so a job counts its largest, and the run is the sum over its jobs.
 * @param {Map<string, {calls: number, cost_usd: number, status: string}>} jobs
 * @param {AnswerEvent[]} batch
 * @returns {Collected["llm"]}
 */
function sumLlm(jobs, batch) {
  for (const { llm } of batch) {
    if (!llm) continue;
    const job = String(llm.job ?? "");
    const had = jobs.get(job);
    jobs.set(job, {
      calls: Math.max(had?.calls ?? 0, Number(llm.calls ?? 0)),
      cost_usd: Math.max(had?.cost_usd ?? 0, Number(llm.cost_usd ?? 0)),
      status: String(llm.status ?? had?.status ?? ""),
    });
  }
  if (!jobs.size) return null;
  const all = [...jobs.values()];
  return {
    calls: all.reduce((n, j) => n + j.calls, 0),
    cost_usd: all.reduce((n, j) => n + j.cost_usd, 0),
    status: all[all.length - 1].status,
  };
}
