// Before a Fill's snapshot: wait, within a bound, for an application that arrives late. Career
// pages build the application after load (an SPA booting, a turbo-frame swapped in, an ATS
// iframe created on window load); a Fill pressed meanwhile would find no fields, or only the
// site's search and newsletter boxes. Each frame says whether it shows an application and how
// long its document has been quiet (content/arrival.js). The Fill goes on as soon as one frame
// shows an application, no frame is still loading, and the frames with controls have added or
// removed no nodes for QUIET_MS (the application has finished rendering); a page that keeps
// changing (a ticker, an animation) is taken as it is SETTLE_MAX_MS after the application showed.
// A page loaded SETTLED_LOAD_MS before Fill that shows an application is taken at once. With no
// application, it polls until one shows, until the youngest document has been loaded GRACE_MS
// (a page settled that long is taken as it is), or until ARRIVAL_MS has passed since Fill.
// Frames of other sites are looked at only once the page's own frames are loaded and quiet and
// show no application (the embedded application is then one of them), as the snapshot reads
// them (inject.js applicationFrames).

import { listFrames, sendToFrame } from "./frames.js";
import { farApplicationFrames, splitFrames } from "./inject.js";
import { asRelayError } from "./native-port.js";

export const ARRIVAL_MS = 6_000;
export const GRACE_MS = 4_000;
const QUIET_MS = 150;
const SETTLE_MAX_MS = 1_000;
const SETTLED_LOAD_MS = 1_000;
const POLL_MS = 150;
const QUIET_POLL_MIN_MS = 30;
const PROBE_TIMEOUT_MS = 1_000;

/**
 * @typedef {{waited_ms: number, reason: "ready"|"arrived"|"settled"|"bound"}} Arrival
 *   ready: the application was there; arrived: it showed up while waiting; settled: none showed,
 *   the page had been loaded long enough; bound: ARRIVAL_MS passed
 */

/**
 * @param {number} tabId
 * @returns {Promise<Arrival>}
 */
export async function awaitApplication(tabId) {
  const t0 = performance.now();
  const waited = () => Math.round(performance.now() - t0);
  let absent = false; // the first look found no application
  let farLooked = false; // frames of other sites were looked at
  /** @type {number|null} when the application was first seen */
  let seen = null;
  for (;;) {
    const look = await lookAt(tabId);
    // Frames of other sites looked at for the first time were never seen without an application:
    // one showing it in a page loaded long enough before the Fill was there from the start.
    const firstFar = look.far && !farLooked;
    farLooked ||= look.far;
    if (look.application && !look.loading) {
      seen ??= performance.now();
      const there = !absent || firstFar;
      const settled = look.quietMs >= QUIET_MS || (there && look.youngestLoadMs >= SETTLED_LOAD_MS)
        || performance.now() - seen >= SETTLE_MAX_MS || performance.now() - t0 >= ARRIVAL_MS;
      if (settled) return { waited_ms: waited(), reason: there ? "ready" : "arrived" };
      await sleep(Math.max(QUIET_MS - look.quietMs, QUIET_POLL_MIN_MS));
      continue;
    }
    seen = null;
    absent = true;
    if (!look.loading && look.youngestLoadMs >= GRACE_MS) return { waited_ms: waited(), reason: "settled" };
    if (performance.now() - t0 + POLL_MS > ARRIVAL_MS) return { waited_ms: waited(), reason: "bound" };
    await sleep(POLL_MS);
  }
}

/** Every frame's state in one look. @param {number} tabId */
async function lookAt(tabId) {
  const frames = await listFrames(tabId);
  const { near, far } = splitFrames(frames);
  // Frames of other sites are read only when the page's own frames, settled, show no application
  // (inject.js, applicationFrames): then the one embedded from another site is looked for too.
  const states = await probe(tabId, near);
  const own = summarize(frames, states);
  if (!far.length || own.application || own.loading || own.stillMs < QUIET_MS) return { ...own, far: false };
  // Only those that show an application or hold the focus, asked without the content script
  // first: an ad or chat frame never gets Relay.
  const wanted = await farApplicationFrames(tabId, far);
  return { ...summarize(frames, [...states, ...await probe(tabId, wanted)]), far: true };
}

/**
 * @param {number} tabId @param {{frameId: number, parentFrameId: number, url: string}[]} frames
 */
function probe(tabId, frames) {
  return Promise.all(frames.map(async (f) => {
    try {
      const state = await sendToFrame(tabId, f.frameId, { relay: "arrival" }, PROBE_TIMEOUT_MS);
      return { frame: f, state, gone: false };
    } catch (err) {
      // A frame Relay can never script (a PDF viewer, a sandboxed ad) is not waited for; one that
      // does not answer yet is still loading.
      return { frame: f, state: null, gone: asRelayError(err).code !== "E_FRAME_TIMEOUT" };
    }
  }));
}

/**
 * What the probed frames say together; the tab's frames tell which are still on their way.
 * @param {{frameId: number, parentFrameId: number}[]} frames
 * @param {Awaited<ReturnType<typeof probe>>} states
 */
function summarize(frames, states) {
  let loading = false;
  let application = false;
  let youngestLoadMs = Infinity;
  let quietMs = Infinity;
  let stillMs = Infinity;
  for (const { frame, state, gone } of states) {
    if (!state) {
      loading ||= !gone;
      continue;
    }
    application ||= state.application === true;
    const children = frames.filter((f) => f.parentFrameId === frame.frameId).length;
    loading ||= state.ready_state !== "complete" || Number(state.frames_in_dom) > children;
    const since = Number(state.since_load_ms);
    youngestLoadMs = Math.min(youngestLoadMs, since < 0 ? 0 : since);
    // Only frames with controls: an ad or a chat widget changing beside the form does not count.
    if (Number(state.controls) > 0) quietMs = Math.min(quietMs, Number(state.quiet_ms) || 0);
    stillMs = Math.min(stillMs, Number(state.quiet_ms) || 0);
  }
  return {
    application,
    loading,
    youngestLoadMs: Number.isFinite(youngestLoadMs) ? youngestLoadMs : 0,
    quietMs: Number.isFinite(quietMs) ? quietMs : 0,
    // every frame's, controls or not: a page still building has not shown all it will
    stillMs: Number.isFinite(stillMs) ? stillMs : 0,
  };
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
