// The submit guard around an apply, from the service worker: arm both halves in every frame of the
// tab before any frame applies (a trap in one frame can navigate another), release them after,
// and report what they stopped. Attempts during the apply come back with the release; the watch
// after the apply ends in each frame on its own and reports with a `guard-settled` message, sent
// on to the bridge (`fill.blocked`) and the review panel.
//
// Frames Relay does not read (another site's chat or ad frame) hold no content script; they get
// the guard all the same (unread_frame_guard.js): Relay's writes elsewhere reach them too.
//
// The page-world half cannot be installed everywhere (the browser refuses scripting on some
// frames): the apply goes on then, since the isolated-world half still cancels every submit
// event and navigation, and the outcome carries a warning.

import { listFrames, sendToFrame } from "./frames.js";
import { mainWorldGuard } from "./main-world-guard.js";
import { asRelayError } from "./native-port.js";
import { releaseUnreadFrameGuard, unreadFrameGuard } from "./unread_frame_guard.js";

const ARM_TIMEOUT_MS = 5_000;
const HOLD_MS = 150_000; // the page-world half puts everything back by then, whatever happens
const SETTLE_WAIT_MS = 5_000; // a released frame that never reports (removed, reloaded) counts as settled
const REPORT_TIMEOUT_MS = 15_000;
const PANEL_TIMEOUT_MS = 5_000;
const MAX_BLOCKED = 50;
const KEEP_RUNS = 20;
const KINDS = new Set(["submit_event", "form_submit", "request_submit", "navigation"]);

/**
 * @typedef {object} BlockedAttempt
 * @property {string} kind
 * @property {string} frame
 * @property {string} field_id
 * @property {string} phase
 * @property {string} detail
 * @property {number} times
 */

/**
 * @typedef {object} RunWatch
 * @property {Set<string>} pending  `${tabId}/${frameId}` still watching
 * @property {number} tabId
 * @property {BlockedAttempt[]} blocked  everything stopped for the run
 * @property {Promise<void>} done
 * @property {() => void} finish
 */

/**
 * @param {{request: (type: string, payload?: Record<string, unknown>, options?: {timeoutMs?: number}) => Promise<any>}} port
 */
export function createSubmitGuard(port) {
  /** @type {Map<string, RunWatch>} */
  const runs = new Map();

  /**
   * Arm every frame of the tab; resolves once all are armed (or failed).
   * @param {number} tabId @param {number[]} frameIds  the frames Relay reads (their content
   *   script holds the guard); the tab's other frames get unread_frame_guard.js
   * @param {string} runId
   * @returns {Promise<{warnings: string[], release: () => Promise<BlockedAttempt[]>}>}
   */
  async function arm(tabId, frameIds, runId) {
    const watch = watchOf(runId, tabId);
    /** @type {string[]} */
    const warnings = [];
    const others = (await listFrames(tabId)).map((f) => f.frameId).filter((f) => !frameIds.includes(f));
    const outer = armUnread(tabId, others, runId);
    const armed = (await Promise.all([...new Set(frameIds)].map(async (frameId) => {
      try {
        const { channel } = await sendToFrame(tabId, frameId, { relay: "guard", op: "arm", run_id: runId }, ARM_TIMEOUT_MS);
        watch.pending.add(`${tabId}/${frameId}`);
        const page = await installInPage(tabId, frameId, String(channel));
        if (page) warnings.push(`frame ${frameId}: ${page}`);
        return frameId;
      } catch (err) {
        // No content script to arm: it has nothing to apply either (the apply fails the same way).
        warnings.push(`frame ${frameId}: the submit guard could not be armed: ${asRelayError(err).message}`);
        return null;
      }
    }))).filter((f) => f !== null);
    const guarded = await outer;

    async function release() {
      /** @type {BlockedAttempt[]} */
      const blocked = [];
      await Promise.all(guarded.map(async (frameId) => {
        try {
          const [done] = await chrome.scripting.executeScript({
            target: { tabId, frameIds: [frameId] }, func: releaseUnreadFrameGuard, args: [runId],
          });
          blocked.push(...stamp(done?.result, frameId).map(({ run_id: _, ...a }) => a));
        } catch {
          // The frame is gone, and its guard with it.
        }
      }));
      await Promise.all(armed.map(async (frameId) => {
        try {
          const reply = await sendToFrame(tabId, frameId, { relay: "guard", op: "release", run_id: runId }, ARM_TIMEOUT_MS);
          blocked.push(...stamp(reply.blocked, frameId).map(({ run_id: _, ...a }) => a));
        } catch {
          watch.pending.delete(`${tabId}/${frameId}`); // the frame is gone: nothing more will come
        }
      }));
      const kept = blocked.slice(0, MAX_BLOCKED);
      watch.blocked.push(...kept);
      // Frames that never report the end of their watch do not keep the run open.
      setTimeout(watch.finish, SETTLE_WAIT_MS);
      if (!watch.pending.size) watch.finish();
      return kept;
    }
    return { warnings, release };
  }

  /**
   * The guard in frames without Relay's content script; the frames it holds. Frames that refuse
   * it go without a word: Relay writes nothing there, and the browser's own pages send nothing.
   * @param {number} tabId @param {number[]} frameIds @param {string} runId
   * @returns {Promise<number[]>}
   */
  async function armUnread(tabId, frameIds, runId) {
    const held = await Promise.all([...new Set(frameIds)].map(async (frameId) => {
      try {
        const [armed] = await chrome.scripting.executeScript({
          target: { tabId, frameIds: [frameId] }, injectImmediately: true,
          func: unreadFrameGuard, args: [runId, HOLD_MS],
        });
        const channel = String(/** @type {{channel?: string}} */ (armed?.result ?? {}).channel ?? "");
        if (!channel) return null;
        await installInPage(tabId, frameId, channel);
        return frameId;
      } catch {
        return null; // a frame the browser lets no extension script (its own pages, a PDF viewer)
      }
    }));
    return held.filter((f) => f !== null);
  }

  /**
   * The page-world half; "" when installed, else why not.
   * @param {number} tabId @param {number} frameId @param {string} channel
   */
  async function installInPage(tabId, frameId, channel) {
    try {
      const [injection] = await chrome.scripting.executeScript({
        target: { tabId, frameIds: [frameId] }, world: "MAIN", injectImmediately: true,
        func: mainWorldGuard, args: [channel, HOLD_MS],
      });
      const refused = /** @type {{refused?: string[]}} */ (injection?.result ?? {}).refused ?? [];
      return refused.length ? `the page would not let Relay hold ${refused.join(", ")}; its submissions are still stopped` : "";
    } catch (err) {
      return `the page-world submit guard could not be installed (${asRelayError(err).message}); submissions are still stopped`;
    }
  }

  /**
   * A frame's watch after the apply ended (content/submit_guard.js `guard-settled`).
   * @param {number} tabId @param {number} frameId
   * @param {{runs?: unknown, blocked?: unknown}} message
   */
  async function settled(tabId, frameId, message) {
    const late = stamp(message.blocked, frameId);
    const runIds = new Set([...(Array.isArray(message.runs) ? message.runs.map(String) : []),
      ...late.map((a) => a.run_id)]);
    await Promise.all([...runIds].map(async (runId) => {
      const mine = late.filter((a) => a.run_id === runId).map(({ run_id: _, ...a }) => a);
      const watch = runs.get(runId);
      if (mine.length) await report(tabId, runId, mine, watch);
      watch?.pending.delete(`${tabId}/${frameId}`);
      if (watch && !watch.pending.size) watch.finish();
    }));
  }

  /**
   * Attempts the fill's own `fill.applied` does not carry (the watch after the apply, replays):
   * to the bridge's audit and to the panel.
   * @param {number} tabId @param {string} runId @param {BlockedAttempt[]} blocked
   * @param {RunWatch} [watch]
   */
  async function report(tabId, runId, blocked, watch = runs.get(runId)) {
    const room = MAX_BLOCKED - (watch?.blocked.length ?? 0);
    const kept = blocked.slice(0, Math.max(room, 0));
    if (!kept.length) return;
    watch?.blocked.push(...kept);
    await Promise.all([
      runId
        ? port.request("fill.blocked", { run_id: runId, blocked: kept }, { timeoutMs: REPORT_TIMEOUT_MS })
          .catch((err) => console.warn(`Relay: fill.blocked for ${runId} was not recorded: ${asRelayError(err).message}`))
        : Promise.resolve(),
      sendToFrame(tabId, 0, { relay: "blocked", run_id: runId, blocked: kept }, PANEL_TIMEOUT_MS).catch(() => {}),
    ]);
  }

  /**
   * Everything stopped for a run, once every frame's watch has ended (relay fill, tests).
   * @param {string} runId
   * @returns {Promise<{blocked: BlockedAttempt[]}>}
   */
  async function settledRun(runId) {
    const watch = runs.get(runId);
    if (!watch) return { blocked: [] };
    await watch.done;
    return { blocked: [...watch.blocked] };
  }

  /** @param {string} runId @param {number} tabId @returns {RunWatch} */
  function watchOf(runId, tabId) {
    const known = runs.get(runId);
    if (known) return known;
    /** @type {() => void} */
    let finish = () => {};
    const done = new Promise((resolve) => { finish = () => resolve(undefined); });
    const watch = { pending: new Set(), tabId, blocked: [], done, finish };
    runs.set(runId, /** @type {RunWatch} */ (watch));
    while (runs.size > KEEP_RUNS) runs.delete(/** @type {string} */ (runs.keys().next().value));
    return /** @type {RunWatch} */ (watch);
  }

  return { arm, settled, report, settledRun };
}

/**
 * The content script's attempts with the frame they happened in (the content script does not
 * know its browser frame id), validated and bounded.
 * @param {unknown} raw @param {number} frameId
 * @returns {(BlockedAttempt & {run_id: string})[]}
 */
function stamp(raw, frameId) {
  if (!Array.isArray(raw)) return [];
  return raw.filter((a) => KINDS.has(a?.kind)).slice(0, MAX_BLOCKED).map((a) => ({
    kind: String(a?.kind ?? ""),
    frame: String(frameId),
    field_id: String(a?.field_id ?? "").slice(0, 64),
    phase: a?.phase === "after" ? "after" : "apply",
    detail: String(a?.detail ?? "").slice(0, 300),
    times: Math.max(1, Math.min(Number(a?.times) || 1, 1_000_000)),
    run_id: String(a?.run_id ?? ""),
  }));
}
