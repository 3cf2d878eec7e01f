// One Fill of one tab, end to end: snapshot every frame, one `fill.plan` to the bridge, apply each
// frame's part, report with `fill.applied` (which acknowledges the run's deliveries up to
// `up_to_seq`), show the review panel. While frames apply, the submit guard (submit-guard.js) is
// armed in every frame of the tab, and what it stopped travels with `fill.applied`. The run's tab
// is recorded as soon as the plan arrives, so a replay after a restart knows where it belongs
// (deliveries.js, replay.js). The toolbar button, the keyboard shortcut and `relay fill` (through
// Playwright's service-worker evaluate) all call relayFill. It never throws: failures come back as {ok: false, error: {code, message}}.

import { awaitApplication } from "./arrival.js";
import { listFrames, resolveTab, sendToFrame } from "./frames.js";
import { hideFieldsOfHiddenFrames } from "./hidden_frames.js";
import { applicationFrames } from "./inject.js";
import { RelayError, asRelayError } from "./native-port.js";
import { readSettings, siteAllowed } from "../shared/settings.js";
import { fillSummary } from "../shared/counts.js";

const SNAPSHOT_TIMEOUT_MS = 15_000;
// What a frame may spend reading its fields; the rest of the wait is for the posting's text and
// the answer's way back (content/snapshot.js stops there and leaves the rest unread).
const SNAPSHOT_BUDGET_MS = 9_000;
// Fields in one plan, all frames together: the bridge refuses more (bridge/protocol/bounds.py).
const MAX_PLAN_FIELDS = 5_000;
const PLAN_TIMEOUT_MS = 180_000; // the model may answer open questions
const APPLY_TIMEOUT_MS = 120_000;
const REPORT_TIMEOUT_MS = 15_000;
const JOB_TEXT_MAX = 20_000;
// Later rounds for fields the answers revealed or changed (issue 9.1): at most this many rounds
// in all, and none started once the apply has taken ROUNDS_MS.
const MAX_ROUNDS = 3;
const ROUNDS_MS = 5_000;

/**
 * @typedef {object} FillOutcome
 * @property {boolean} ok
 * @property {string} run_id
 * @property {Record<string, any>|null} plan
 * @property {Record<string, any>[]} applied
 * @property {{snapshot: number, plan: number, apply: number, total: number, guard?: number, wait?: number, model?: number,
 *   first_apply?: number, room?: number, rounds?: number, changes?: number, report?: number, panel?: number}} timings_ms
 *   (guard: arming and releasing the submit guard, part of apply; wait: waiting for a late
 *   application to arrive, part of snapshot: arrival.js; model: waiting for and applying the
 *   model's answers after the apply: stream.js; the parts of apply: first_apply, room (pressing
 *   "Add another"), rounds (the later rounds, with changes: asking the frames whether the form
 *   changed); report: fill.applied; panel: showing the review, at the same time)
 * @property {{frame: string, url: string, fields: number, error?: string}[]} frames
 * @property {string[]} warnings
 * @property {import("./submit-guard.js").BlockedAttempt[]} blocked  submissions the page attempted
 *   during the apply, stopped (the watch after it reports later: relayGuardSettled)
 * @property {number} [tab_id]
 * @property {number} [rounds]  how many rounds the Fill planned and applied (when more than one)
 * @property {{code: string, message: string}} [error]
 */

/**
 * @param {{request: (type: string, payload?: Record<string, unknown>, options?: {timeoutMs?: number}) => Promise<any>, connect: () => Promise<unknown>}} port
 * @param {import("./deliveries.js").Deliveries} deliveries  run bookkeeping for replays
 * @param {ReturnType<typeof import("./submit-guard.js").createSubmitGuard>} guard
 * @param {ReturnType<typeof import("./stream.js").createStream>} [stream]  the model's answers,
 *   which come after the plan (stream.js); without it the plan waits for them
 */
export function createFill(port, deliveries, guard, stream) {
  /** @type {Map<number, Promise<FillOutcome>>} one fill per tab at a time */
  const running = new Map();

  /**
   * @param {number} [tabId]
   * @param {{client_run_tag?: string}} [options]
   * @returns {Promise<FillOutcome>}
   */
  async function relayFill(tabId, options = {}) {
    // A bridge that is not running yet starts now and warms up (rules, profile) while the tab,
    // the settings and the page are read, instead of after; a failure shows on the plan's request.
    port.connect().catch(() => undefined);
    let tab;
    try {
      tab = await resolveTab(tabId);
    } catch (err) {
      return remember(failure(err, performance.now()));
    }
    const id = /** @type {number} */ (tab.id);
    const already = running.get(id);
    if (already) return already;
    const run = fillTab(tab, options).then(remember);
    running.set(id, run);
    try {
      return await run;
    } finally {
      running.delete(id);
    }
  }

  /**
   * @param {chrome.tabs.Tab} tab @param {{client_run_tag?: string}} options
   * @returns {Promise<FillOutcome>}
   */
  async function fillTab(tab, options) {
    const tabId = /** @type {number} */ (tab.id);
    const t0 = performance.now();
    const outcome = emptyOutcome(tabId);
    try {
      // The console's "Sites Relay may run on" (shared/settings.js): none listed is any site.
      if (!siteAllowed(tab.url ?? "", (await readSettings()).sites)) {
        throw new RelayError("E_SITE_NOT_ALLOWED", "Relay is not allowed on this site. Add it in the console: Settings, Sites Relay may run on.");
      }
      // 1–2. Snapshot every frame; one plan for the whole tab, recorded before anything is applied.
      const { plan, snap } = await planFor(tab, options, outcome, t0, true);

      // 3. Each frame applies its part (frames in parallel; decisions in order within a frame).
      // The submit guard holds every readable frame from the first apply to the last round's.
      const t2 = performance.now();
      const tally = createTally();
      const readable = snap.summary.filter((f) => !f.error).map((f) => Number(f.frame));
      const held = await guard.arm(tabId, readable, outcome.run_id);
      tally.guardMs = performance.now() - t2;
      try {
        const applying = performance.now();
        const first = await applyClaimed(tabId, outcome, plan, snap, false);
        tally.add(first);
        outcome.timings_ms.first_apply = round(performance.now() - applying);
        // Repeated work / education sections showing fewer blocks than the profile has entries:
        // their own "Add another" is pressed, and the later rounds fill the new blocks.
        const rooming = performance.now();
        const pressed = await makeRoomFor(tabId, outcome, plan);
        outcome.timings_ms.room = round(performance.now() - rooming);

        // 3b. Later rounds (issue 9.1): what the answers revealed or changed — a question shown
        // by another answer, a state list following the country — is snapshotted, planned in
        // the same run, and applied, within MAX_ROUNDS and ROUNDS_MS. A round that did nothing
        // to the page (every field kept or left) gave it nothing to answer: no round follows.
        const later = performance.now();
        let last = snap;
        let acted = actedOn(first.results) || pressed > 0;
        for (let n = 2; acted && n <= MAX_ROUNDS && performance.now() - t2 < ROUNDS_MS; n += 1) {
          const next = await laterRound(tab, outcome, last);
          if (!next) break;
          tally.add(next.applied);
          last = next.snap;
          outcome.rounds = n;
          acted = actedOn(next.applied.results);
        }
        outcome.timings_ms.rounds = round(performance.now() - later);
      } finally {
        const releasing = performance.now();
        tally.blocked.push(...await held.release());
        tally.guardMs += performance.now() - releasing;
        outcome.warnings.push(...held.warnings);
      }
      const { results, rows, blocked } = tally;
      outcome.timings_ms.guard = round(tally.guardMs);
      outcome.timings_ms.apply = round(performance.now() - t2);

      // 3c. The model's answers to the fields marked "asking the model" (stream.js), as they come.
      const asked = (outcome.plan?.decisions ?? []).filter((/** @type {any} */ d) => d.asking);
      if (stream && asked.length) {
        await showPanel(tabId, { run_id: outcome.run_id, rows: rows(), note: noteFor(plan), blocked, summary: fillSummary(plan) });
        const t3 = performance.now();
        const got = await stream.collect(outcome.run_id, tabId, asked);
        tally.add(got);
        tally.blocked.push(...got.blocked);
        mergeAnswers(outcome, got);
        outcome.timings_ms.model = round(performance.now() - t3);
      }
      outcome.applied = results();
      outcome.blocked = blocked;

      // 4. Tell the bridge what happened and acknowledge the deliveries (every outcome is final),
      // while the review shows: neither waits for the other. A failed report does not undo the
      // fill; the bridge replays, and the replay is found done.
      const t4 = performance.now();
      const reported = (async () => {
        const upToSeq = await deliveries.upToSeq(outcome.run_id);
        try {
          await port.request("fill.applied", {
            run_id: outcome.run_id, results: outcome.applied, blocked, timings_ms: { ...outcome.timings_ms },
            ...(upToSeq ? { up_to_seq: upToSeq } : {}),
          }, { timeoutMs: REPORT_TIMEOUT_MS });
          await deliveries.acked(outcome.run_id, upToSeq);
        } catch (err) {
          outcome.warnings.push(`fill.applied was not recorded: ${asRelayError(err).message}`);
        }
        outcome.timings_ms.report = round(performance.now() - t4);
      })();
      const shown = (async () => {
        await showPanel(tabId, { run_id: outcome.run_id, rows: rows(), note: noteFor(plan), blocked, summary: fillSummary(plan) });
        await setBadge(tabId, rows());
        outcome.timings_ms.panel = round(performance.now() - t4);
      })();
      await Promise.all([reported, shown]);
      deliveries.release(outcome.run_id);
      outcome.ok = true;
      outcome.timings_ms.total = round(performance.now() - t0);
      return outcome;
    } catch (err) {
      if (outcome.run_id) deliveries.release(outcome.run_id);
      const failed = failure(err, t0, outcome);
      await showPanel(tabId, { run_id: failed.run_id, rows: [], error: failed.error ?? null });
      await setBadge(tabId, null);
      return failed;
    }
  }

  /**
   * Snapshot and plan, and record the run's tab and document (before any apply). Fills in
   * `outcome` as it goes.
   * @param {chrome.tabs.Tab} tab @param {{client_run_tag?: string}} options
   * @param {FillOutcome} outcome @param {number} t0
   * @param {boolean} [applying]  this Fill applies the plan itself: replays that overtake the
   *   reply are left to it (they are the same deliveries)
   */
  async function planFor(tab, options, outcome, t0, applying = false) {
    const tabId = /** @type {number} */ (tab.id);
    port.connect().catch(() => undefined); // at once for a plan without a Fill (relayPlanTab)
    const arrival = await awaitApplication(tabId);
    outcome.timings_ms.wait = arrival.waited_ms;
    if (arrival.reason === "bound") {
      outcome.warnings.push(`the page was still loading after ${arrival.waited_ms} ms; Relay filled what was there`);
    }
    const snap = await snapshotTab(tabId);
    outcome.frames = snap.summary;
    if (snap.unread) {
      outcome.warnings.push(`this page has more fields than Relay reads in one Fill: ${snap.unread} were left unread and are not filled`);
    }
    outcome.timings_ms.snapshot = round(performance.now() - t0);
    const fieldCount = snap.frames.reduce((n, f) => n + f.fields.length, 0);
    if (!fieldCount) {
      throw new RelayError("E_NO_FIELDS", "Relay found no form fields on this page.");
    }
    const t1 = performance.now();
    const request = planRequest(tab, snap, { ...options, stream: Boolean(stream) });
    // Replays that overtake this reply wait until the run is recorded (replay.js).
    const plan = await deliveries.planning((async () => {
      const reply = await port.request("fill.plan", request, { timeoutMs: PLAN_TIMEOUT_MS }).catch(planLost);
      await deliveries.planned({
        run_id: String(reply?.run_id ?? ""),
        tab_id: tabId,
        url: snap.frames[0]?.frame === "0" && snap.frames[0].url ? snap.frames[0].url : request.url,
        docs: snap.docs,
        seqs: (reply?.decisions ?? []).map((/** @type {any} */ d) => d.seq).filter(isSeq),
      });
      if (applying) deliveries.own(String(reply?.run_id ?? ""));
      return reply;
    })());
    outcome.plan = plan;
    outcome.run_id = String(plan?.run_id ?? "");
    outcome.timings_ms.plan = round(performance.now() - t1);
    return { plan, snap };
  }

  /**
   * Plan a tab and record the run, without applying: what a Fill does up to the moment the plan
   * arrives (diagnostics, and tests of replays after a restart). Never throws.
   * @param {number} [tabId]
   * @returns {Promise<FillOutcome>}
   */
  async function relayPlanTab(tabId) {
    const t0 = performance.now();
    try {
      const tab = await resolveTab(tabId);
      const outcome = emptyOutcome(/** @type {number} */ (tab.id));
      try {
        await planFor(tab, {}, outcome, t0);
        outcome.ok = true;
        return outcome;
      } catch (err) {
        return failure(err, t0, outcome);
      }
    } catch (err) {
      return failure(err, t0);
    }
  }

  /**
   * Snapshot every frame of a tab. Frames that fail are listed with their error and skipped.
   * @param {number} tabId
   */
  async function snapshotTab(tabId) {
    // Only frames that can be the application are read (inject.js).
    const frames = await applicationFrames(tabId, await listFrames(tabId), sendToFrame);
    const answers = await Promise.all(frames.map(async (f) => {
      try {
        const reply = await sendToFrame(tabId, f.frameId, {
          relay: "snapshot", want_text: f.frameId === 0, max_text: JOB_TEXT_MAX, budget_ms: SNAPSHOT_BUDGET_MS,
        }, SNAPSHOT_TIMEOUT_MS);
        return { frameId: f.frameId, reply, error: "", code: "" };
      } catch (err) {
        const { code, message } = asRelayError(err);
        return { frameId: f.frameId, reply: null, error: message, code };
      }
    }));
    /** @type {{frame: string, url: string, title: string, fields: Record<string, any>[], focused?: boolean}[]} */
    const snapshots = [];
    /** @type {FillOutcome["frames"]} */
    const summary = [];
    let jobText = "";
    let unread = 0;
    let room = MAX_PLAN_FIELDS;
    for (const { frameId, reply, error } of answers) {
      const frame = String(frameId);
      if (!reply) {
        summary.push({ frame, url: frames.find((f) => f.frameId === frameId)?.url ?? "", fields: 0, error });
        continue;
      }
      if (frameId === 0) jobText = String(reply.job_text ?? "");
      const all = /** @type {Record<string, any>[]} */ (reply.fields ?? []);
      const fields = all.slice(0, room).map((field) => ({ ...field, frame }));
      room -= fields.length;
      unread += Number(reply.unread ?? 0) + all.length - fields.length;
      summary.push({ frame, url: String(reply.url ?? ""), fields: fields.length });
      // Frames without fields add nothing to the plan (ads, trackers, empty about:blank).
      if (fields.length || frameId === 0) {
        // Another site's frame read because the person's focus is in it (inject.js): a reason
        // for the bridge to take it for the application.
        const focused = frames.find((f) => f.frameId === frameId)?.focused === true;
        snapshots.push({ frame, url: String(reply.url ?? ""), title: String(reply.title ?? ""), fields, ...(focused ? { focused } : {}) });
      }
    }
    hideFieldsOfHiddenFrames(frames, answers, snapshots);
    if (!snapshots.length && summary.every((s) => s.error)) {
      // The top frame's failure says it best (a timeout stays E_FRAME_TIMEOUT).
      const failed = answers.find((a) => a.frameId === 0) ?? answers[0];
      throw new RelayError(failed?.code || "E_PAGE_UNAVAILABLE", failed?.error || "Relay cannot read this page.");
    }
    /** @type {Record<string, string>} frame → documentId, to tell a reloaded frame apart later */
    const docs = {};
    for (const f of frames) if (f.documentId) docs[String(f.frameId)] = f.documentId;
    return { frames: snapshots, summary, jobText, docs, unread };
  }

  /**
   * Claim a plan's deliveries (a replay may have handled some already) and let every frame apply
   * its part. `more`: a later round, whose marks join the earlier ones.
   * @param {number} tabId @param {FillOutcome} outcome @param {Record<string, any>} plan
   * @param {Awaited<ReturnType<typeof snapshotTab>>} snap @param {boolean} more
   */
  async function applyClaimed(tabId, outcome, plan, snap, more) {
    const decisions = /** @type {Record<string, any>[]} */ (plan?.decisions ?? []);
    const fresh = await deliveries.claim(outcome.run_id, decisions.map((d) => d.seq).filter(isSeq));
    const mine = decisions.filter((d) => !isSeq(d.seq) || fresh.has(d.seq));
    if (mine.length < decisions.length) {
      outcome.warnings.push(`${decisions.length - mine.length} decisions were applied by a replay already`);
    }
    return applyPlan(tabId, mine, snap.frames.map((f) => f.frame), more);
  }

  /**
   * One later round: if a frame's form changed since `last`, snapshot again, plan the fields that
   * are new or changed in the same run (`continues`, docs/protocol.md), apply them. Null when
   * there is nothing more to do.
   * @param {chrome.tabs.Tab} tab @param {FillOutcome} outcome
   * @param {Awaited<ReturnType<typeof snapshotTab>>} last
   */
  async function laterRound(tab, outcome, last) {
    const tabId = /** @type {number} */ (tab.id);
    const asking = performance.now();
    const asked = await Promise.all(last.frames.map((f) => sendToFrame(tabId, Number(f.frame), { relay: "changes" }, 5_000)
      .then((reply) => reply.changed === true, () => false)));
    outcome.timings_ms.changes = round((outcome.timings_ms.changes ?? 0) + performance.now() - asking);
    if (!asked.some(Boolean)) return null;
    const snap = await snapshotTab(tabId);
    const decide = changedFields(last, snap);
    if (!decide.length) return null;
    const request = { ...planRequest(tab, snap, { stream: Boolean(stream) }), continues: outcome.run_id, decide };
    const plan = await deliveries.planning((async () => {
      const reply = await port.request("fill.plan", request, { timeoutMs: PLAN_TIMEOUT_MS }).catch(planLost);
      await deliveries.planned({
        run_id: outcome.run_id, tab_id: tabId, url: request.url, docs: snap.docs,
        seqs: (reply?.decisions ?? []).map((/** @type {any} */ d) => d.seq).filter(isSeq),
      });
      return reply;
    })());
    const more = /** @type {Record<string, any>[]} */ (plan?.decisions ?? []);
    if (outcome.plan) {
      outcome.plan.decisions = [...(outcome.plan.decisions ?? []), ...more];
      outcome.plan.llm_calls = Number(outcome.plan.llm_calls ?? 0) + Number(plan?.llm_calls ?? 0);
    }
    return { snap, applied: await applyClaimed(tabId, outcome, plan, snap, true) };
  }

  /**
   * Where a frame shows fewer work / education blocks than the profile has entries, ask it to
   * press the section's own "Add another" (content/room.js). The caller holds the submit guard.
   * @param {number} tabId @param {FillOutcome} outcome @param {Record<string, any>} plan
   * @returns {Promise<number>} how many presses, all frames together
   */
  async function makeRoomFor(tabId, outcome, plan) {
    const decisions = /** @type {Record<string, any>[]} */ (plan?.decisions ?? []);
    const rooms = roomsNeeded(decisions, plan?.entries ?? {});
    // Families the form shows no field of: a frame may hold their empty section under its heading.
    const empty = emptyFamilies(decisions, plan?.entries ?? {});
    const frames = new Set([...rooms.keys(), ...(Object.keys(empty).length ? decisions.map((d) => String(d.frame ?? "0")) : [])]);
    const replies = await Promise.all([...frames].map((frame) => sendToFrame(
      tabId, Number(frame), { relay: "make_room", rooms: rooms.get(frame) ?? [], empty }, 10_000).catch((err) => {
      outcome.warnings.push(`frame ${frame} could not add blocks: ${asRelayError(err).message}`);
      return null;
    })));
    return replies.flatMap((r) => r?.pressed ?? []).reduce((n, p) => n + Number(p.times ?? 0), 0);
  }

  /**
   * Split the decisions per frame, let each frame apply its part, gather results in plan order.
   * The caller holds the submit guard over every readable frame of the tab meanwhile.
   * @param {number} tabId @param {Record<string, any>[]} decisions
   * @param {string[]} knownFrames @param {boolean} [more]
   */
  async function applyPlan(tabId, decisions, knownFrames, more = false) {
    /** @type {Map<string, Record<string, any>[]>} */
    const perFrame = new Map();
    for (const d of decisions) {
      const frame = String(d.frame ?? "0");
      if (!perFrame.has(frame)) perFrame.set(frame, []);
      perFrame.get(frame)?.push(d);
    }
    /** @type {Map<string, Record<string, any>>} */
    const byKey = new Map();
    /** @type {Record<string, any>[]} */
    const rows = [];
    if (perFrame.size) await applyParts(tabId, perFrame, knownFrames, byKey, rows, more);
    const results = decisions.map((d) => byKey.get(key(d)) ?? missing(d, "the frame gave no result"));
    return { results, rows };
  }

  /**
   * @param {number} tabId @param {Map<string, Record<string, any>[]>} perFrame
   * @param {string[]} knownFrames @param {Map<string, Record<string, any>>} byKey
   * @param {Record<string, any>[]} rows @param {boolean} more
   */
  async function applyParts(tabId, perFrame, knownFrames, byKey, rows, more) {
    await Promise.all([...perFrame].map(async ([frame, part]) => {
      const frameId = Number(frame);
      if (!knownFrames.includes(frame) || !Number.isInteger(frameId)) {
        for (const d of part) byKey.set(key(d), missing(d, `no frame ${frame} in this tab's snapshot`));
        return;
      }
      try {
        const reply = await sendToFrame(tabId, frameId, { relay: "apply", decisions: part, more }, APPLY_TIMEOUT_MS);
        for (const r of reply.results ?? []) byKey.set(`${frame}/${r.field_id}`, { ...r, frame });
        rows.push(...(reply.rows ?? []).map((/** @type {Record<string, any>} */ r) => ({ ...r, frame })));
      } catch (err) {
        const why = `frame ${frame} could not apply: ${asRelayError(err).message}`;
        for (const d of part) byKey.set(key(d), missing(d, why));
      }
    }));
  }

  /** @param {Record<string, any>} d */
  const key = (d) => `${String(d.frame ?? "0")}/${String(d.field_id)}`;

  /** @param {Record<string, any>} d @param {string} detail */
  const missing = (d, detail) => ({
    field_id: String(d.field_id), frame: String(d.frame ?? "0"), status: "not_found", detail, value_after: "",
  });

  /** @param {number} tabId @param {Record<string, any>} model */
  async function showPanel(tabId, model) {
    try {
      await sendToFrame(tabId, 0, { relay: "panel", model }, 5_000);
    } catch {
      // Pages Relay cannot script (browser pages, the web store) get no panel; the outcome says why.
    }
  }

  /** @param {FillOutcome} outcome */
  function remember(outcome) {
    globalThis.relayLastOutcome = outcome;
    return outcome;
  }

  return { relayFill, relayPlanTab, snapshotTab };
}

/**
 * What a `fill.plan` request carries for a snapshot.
 * @param {chrome.tabs.Tab} tab @param {{frames: Record<string, any>[], jobText: string}} snap
 * @param {{client_run_tag?: string, stream?: boolean}} options
 */
function planRequest(tab, snap, options) {
  return {
    url: tab.url ?? snap.frames[0]?.url ?? "",
    title: tab.title ?? snap.frames[0]?.title ?? "",
    job_text: snap.jobText,
    frames: snap.frames,
    ...(options.client_run_tag ? { client_run_tag: options.client_run_tag } : {}),
    // Model answers come later as `fill.answer` events (stream.js), not in the reply.
    ...(options.stream ? { stream: true } : {}),
  };
}

/**
 * The model's outcomes take the place of the plan's "asking the model" decisions.
 * @param {FillOutcome} outcome @param {import("./stream.js").Collected} got
 */
function mergeAnswers(outcome, got) {
  if (!outcome.plan) return;
  const answers = new Map(got.decisions.map((d) => [`${d.frame ?? "0"}/${d.field_id}`, d]));
  outcome.plan.decisions = (outcome.plan.decisions ?? []).map(
    (/** @type {any} */ d) => (d.asking && answers.get(`${d.frame ?? "0"}/${d.field_id}`)) || d);
  if (got.llm) {
    outcome.plan.llm_calls = Number(outcome.plan.llm_calls ?? 0) + got.llm.calls;
    outcome.plan.llm_cost_usd = Number(outcome.plan.llm_cost_usd ?? 0) + got.llm.cost_usd;
    outcome.plan.llm_status = got.llm.status;
  }
}

/**
 * The fields of `next` a later round decides: new ones, and those that became visible or whose
 * label or options changed since `last`, and those that were disabled or read-only then and are not
 * now. Fields nobody can see wait for a round that shows them.
 * @param {{frames: {frame: string, fields: Record<string, any>[]}[]}} last
 * @param {{frames: {frame: string, fields: Record<string, any>[]}[]}} next
 * @returns {{frame: string, field_id: string}[]}
 */
export function changedFields(last, next) {
  /** @type {Map<string, Record<string, any>>} */
  const before = new Map();
  for (const frame of last.frames) for (const f of frame.fields) before.set(`${frame.frame}/${f.id}`, f);
  const optionsOf = (/** @type {Record<string, any>} */ f) => JSON.stringify((f.options ?? []).map((o) => [o.text, o.value]));
  /** @type {{frame: string, field_id: string}[]} */
  const out = [];
  for (const frame of next.frames) {
    for (const f of frame.fields) {
      if (f.visible === false) continue;
      const was = before.get(`${frame.frame}/${f.id}`);
      if (!was || was.visible === false || was.label !== f.label || optionsOf(was) !== optionsOf(f)
        || (isLocked(was) && !isLocked(f))) {
        out.push({ frame: frame.frame, field_id: String(f.id) });
      }
    }
  }
  return out;
}

/**
 * Whether an apply did anything to the page: a field written, or a driver that tried and was
 * refused (it may have typed, opened a list). Kept, left and vanished fields touched nothing.
 * @param {Record<string, any>[]} results
 */
export function actedOn(results) {
  return results.some((r) => r.status === "applied" || r.status === "refused");
}

/** Disabled or read-only at its snapshot. @param {Record<string, any>} f */
const isLocked = (f) => f.disabled === true || f.readonly === true;

// The keys one block of each repeated family holds once: how many blocks a frame shows.
const BLOCK_ANCHORS = { work: ["work.company", "work.title"], edu: ["edu.school", "edu.degree"] };

/**
 * Per frame, the repeated sections that need more blocks: the family, its fields, the other
 * family's fields, and how many blocks to add.
 * @param {Record<string, any>[]} decisions @param {Record<string, number>} entries
 * @returns {Map<string, {family: string, field_ids: string[], others: string[], add: number}[]>}
 */
export function roomsNeeded(decisions, entries) {
  /** @type {Map<string, Record<string, {ids: string[], counts: Map<string, number>}>>} */
  const frames = new Map();
  for (const d of decisions) {
    // Only what one entry's block holds: a question of the family asked elsewhere on the page
    // ("years of experience", on a later step) is no field of the section.
    if (!BLOCK_KEYS.has(String(d.key ?? ""))) continue;
    const family = Object.keys(BLOCK_ANCHORS).find((f) => String(d.key ?? "").startsWith(`${f}.`));
    if (!family) continue;
    const frame = String(d.frame ?? "0");
    const fams = frames.get(frame) ?? {};
    frames.set(frame, fams);
    const fam = (fams[family] ??= { ids: [], counts: new Map() });
    fam.ids.push(String(d.field_id));
    if (BLOCK_ANCHORS[/** @type {"work"|"edu"} */ (family)].includes(d.key)) fam.counts.set(d.key, (fam.counts.get(d.key) ?? 0) + 1);
  }
  /** @type {Map<string, {family: string, field_ids: string[], others: string[], add: number}[]>} */
  const out = new Map();
  for (const [frame, fams] of frames) {
    for (const [family, fam] of Object.entries(fams)) {
      const shown = Math.max(0, ...fam.counts.values());
      const add = Number(entries[family] ?? 0) - shown;
      if (!shown || add <= 0) continue;
      const others = Object.entries(fams).filter(([f]) => f !== family).flatMap(([, o]) => o.ids);
      out.set(frame, [...(out.get(frame) ?? []), { family, field_ids: fam.ids, others, add }]);
    }
  }
  return out;
}

// What one entry's block holds (bridge/rules/engine.py BLOCK_KEYS): "years of experience" or a
// highest degree asked once are not a section's block.
const BLOCK_KEYS = new Set(["work.company", "work.title", "work.start", "work.end", "work.current",
  "edu.school", "edu.degree", "edu.field", "edu.gpa", "edu.start", "edu.end"]);

/**
 * The repeated families the profile has entries for and no block field of: how many entries each.
 * @param {Record<string, any>[]} decisions @param {Record<string, number>} entries
 * @returns {Record<string, number>}
 */
export function emptyFamilies(decisions, entries) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const family of Object.keys(BLOCK_ANCHORS)) {
    const count = Number(entries[family] ?? 0);
    if (count > 0 && !decisions.some((d) => BLOCK_KEYS.has(String(d.key ?? "")) && String(d.key).startsWith(`${family}.`))) out[family] = count;
  }
  return out;
}

/**
 * Results, panel rows and stopped submissions over a Fill's rounds: a field planned again in a
 * later round keeps its latest result and row.
 */
function createTally() {
  /** @type {Map<string, Record<string, any>>} */
  const results = new Map();
  /** @type {Map<string, Record<string, any>>} */
  const rows = new Map();
  /** @type {import("./submit-guard.js").BlockedAttempt[]} */
  const blocked = [];
  const tally = {
    guardMs: 0,
    blocked,
    results: () => [...results.values()],
    rows: () => [...rows.values()],
    /** @param {{results: Record<string, any>[], rows: Record<string, any>[]}} part */
    add(part) {
      for (const r of part.results) results.set(`${r.frame}/${r.field_id}`, r);
      for (const r of part.rows) rows.set(`${r.frame}/${r.field_id}`, r);
    },
  };
  return tally;
}

/**
 * @param {unknown} err @param {number} t0 @param {Partial<FillOutcome>} [partial]
 * @returns {FillOutcome}
 */
function failure(err, t0, partial = {}) {
  const error = asRelayError(err);
  if (error.code === "E_INTERNAL") console.error("Relay: fill failed", err);
  const timings = partial.timings_ms ?? { snapshot: 0, plan: 0, apply: 0, total: 0 };
  return {
    ok: false,
    run_id: partial.run_id ?? "",
    plan: partial.plan ?? null,
    applied: partial.applied ?? [],
    timings_ms: { ...timings, total: round(performance.now() - t0) },
    frames: partial.frames ?? [],
    warnings: partial.warnings ?? [],
    blocked: partial.blocked ?? [],
    ...(partial.tab_id !== undefined ? { tab_id: partial.tab_id } : {}),
    error: error.toJSON(),
  };
}

/** @param {number} tabId @returns {FillOutcome} */
function emptyOutcome(tabId) {
  return {
    ok: false, run_id: "", plan: null, applied: [], tab_id: tabId,
    timings_ms: { snapshot: 0, plan: 0, apply: 0, total: 0 }, frames: [], warnings: [], blocked: [],
  };
}

/**
 * The port dropped before the plan came back (the bridge crashed or this worker's connection
 * ended): the browser's reason ("Native host has exited.") tells the person nothing, so say what
 * happened and what to do. Whatever the bridge stored for the run is replayed and found unknown.
 * @param {unknown} err @returns {never}
 */
function planLost(err) {
  const error = asRelayError(err);
  if (error.code !== "E_DISCONNECTED") throw error;
  console.info(`Relay: the port dropped during fill.plan: ${error.message}`);
  throw new RelayError("E_DISCONNECTED", "The Relay bridge stopped before the plan came back, so nothing was filled. Press Fill again.");
}

/** @param {unknown} seq @returns {seq is number} */
function isSeq(seq) {
  return Number.isInteger(seq) && /** @type {number} */ (seq) > 0;
}

/** @param {Record<string, any>|null} plan */
function noteFor(plan) {
  const status = String(plan?.llm_status ?? "");
  return status ? `Model: ${status}` : "";
}

/** @param {number} tabId @param {Record<string, any>[]|null} rows */
async function setBadge(tabId, rows) {
  try {
    if (!rows) {
      await chrome.action.setBadgeBackgroundColor({ tabId, color: "#b91c1c" });
      await chrome.action.setBadgeText({ tabId, text: "!" });
      return;
    }
    const review = rows.filter((r) => r.kind === "review").length;
    const filled = rows.filter((r) => r.kind === "filled").length;
    await chrome.action.setBadgeBackgroundColor({ tabId, color: review ? "#d97706" : "#15803d" });
    await chrome.action.setBadgeText({ tabId, text: String(filled + review || "") });
  } catch {
    // The tab may be gone; the badge is a nicety.
  }
}

/** @param {number} ms */
function round(ms) {
  return Math.round(ms * 10) / 10;
}
