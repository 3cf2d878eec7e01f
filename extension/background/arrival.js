// Before a Fill's snapshot: wait, within a bound, for an application that arrives late. Career
// pages build the application after load (an SPA booting, a turbo-frame swapped in, an ATS
// iframe created on window load); a Fill pressed meanwhile would find no fields, or only the
// site's search and newsletter boxes. Each frame says whether it shows an application
// (content/arrival.js); the Fill goes on at once when one does and no frame is still loading.
// Otherwise it polls until an application shows (then lets it finish rendering), until the
// youngest document has been loaded GRACE_MS (a page settled that long is taken as it is), or
// until ARRIVAL_MS has passed since Fill was pressed.

import { listFrames, sendToFrame } from "./frames.js";
import { splitFrames } from "./inject.js";
import { asRelayError } from "./native-port.js";

export const ARRIVAL_MS = 6_000;
export const GRACE_MS = 4_000;
const SETTLE_MS = 300; // an application that just appeared finishes rendering
const POLL_MS = 150;
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
  let first = true;
  for (;;) {
    const look = await lookAt(tabId);
    if (look.application && !look.loading) {
      if (first) return { waited_ms: waited(), reason: "ready" };
      await sleep(SETTLE_MS);
      return { waited_ms: waited(), reason: "arrived" };
    }
    if (!look.loading && look.youngestLoadMs >= GRACE_MS) return { waited_ms: waited(), reason: "settled" };
    if (performance.now() - t0 + POLL_MS > ARRIVAL_MS) return { waited_ms: waited(), reason: "bound" };
    first = false;
    await sleep(POLL_MS);
  }
}

/** Every frame's state in one look. @param {number} tabId */
async function lookAt(tabId) {
  const frames = await listFrames(tabId);
  // Frames of other sites are not scripted to be waited for (inject.js); their loading still counts.
  const states = await Promise.all(splitFrames(frames).near.map(async (f) => {
    try {
      const state = await sendToFrame(tabId, f.frameId, { relay: "arrival" }, PROBE_TIMEOUT_MS);
      return { frame: f, state, gone: false };
    } catch (err) {
      // A frame Relay can never script (a PDF viewer, a sandboxed ad) is not waited for; one that
      // does not answer yet is still loading.
      return { frame: f, state: null, gone: asRelayError(err).code !== "E_FRAME_TIMEOUT" };
    }
  }));
  let loading = false;
  let application = false;
  let youngestLoadMs = Infinity;
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
  }
  return { application, loading, youngestLoadMs: Number.isFinite(youngestLoadMs) ? youngestLoadMs : 0 };
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
