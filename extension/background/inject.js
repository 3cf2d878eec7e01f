// Relay runs nothing on a page before the person's Fill there (issue 13, items 6–7): the manifest
// declares no content script and no web-accessible resource; the content script's files go into
// a frame through `chrome.scripting` the first time a Fill (or what follows one: the review, the submit guard, a later round) talks to it.
// Only frames that can hold the application get it: the page's own site, a known applicant-
// tracking system's address, and, when the page's own site shows no application, the frames of
// other sites that do show one or that hold the person's focus (the frame they clicked in),
// asked without Relay's content script (frame_probe.js); the bridge has the last word on which
// of those is the application (bridge/rules/frames.py). Ad, chat and analytics frames never see
// Relay's content script.
//
// `relay.sites` (chrome.storage.local) lists the origins the person has pressed Fill on: what
// runs without a click there ("fill new fields as they appear") runs only on those; the
// console shows the list and lets the person remove a site.

import { CONTENT_FILES } from "../content/files.js";
import { ATS_HOSTS } from "../shared/ats_hosts.js";
import { FILLED_SITES_KEY } from "../shared/settings.js";
import { frameProbe } from "./frame_probe.js";
import { RelayError } from "./native-port.js";

const SITES_KEY = FILLED_SITES_KEY;
const MAX_SITES = 500;
const PROBE_TIMEOUT_MS = 1_000;
const ATS = ATS_HOSTS.map((h) => new RegExp(h));
// Second-level labels under a country code that are part of the public suffix ("co.uk"): the
// extension has no public-suffix list, and a site misread here is only read later, never filled
// against the bridge's rule (which has the full list).
const SECOND_LEVEL = new Set(["co", "com", "net", "org", "ac", "gov", "edu", "ne", "or"]);

/** Injections under way, by "tab:frame": two messages that find no one inject once. */
const injecting = new Map();

/**
 * Put the content script into one frame, unless it is there already (a second injection would
 * start a second copy beside the first).
 * @param {number} tabId @param {number} frameId
 * @returns {Promise<void>}
 */
export function inject(tabId, frameId) {
  const key = `${tabId}:${frameId}`;
  let pending = injecting.get(key);
  if (!pending) {
    pending = injectOnce(tabId, frameId).finally(() => injecting.delete(key));
    injecting.set(key, pending);
  }
  return pending;
}

/** @param {number} tabId @param {number} frameId */
async function injectOnce(tabId, frameId) {
  const target = { tabId, frameIds: [frameId] };
  try {
    const [probe] = await chrome.scripting.executeScript({ target, func: () => "relayContent" in globalThis });
    if (probe?.result === true) return;
    await chrome.scripting.executeScript({ target, files: [...CONTENT_FILES] });
  } catch (err) {
    throw new RelayError("E_PAGE_UNAVAILABLE", `Relay cannot run in this page: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * The site a URL belongs to: its registrable domain, near enough ("acme.co.uk"), its host for
 * addresses and single names, "" for about:blank and other documents without one.
 * @param {string} url
 */
export function siteOf(url) {
  let host;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "";
    host = parsed.hostname;
  } catch {
    return "";
  }
  if (/^[\d.]+$/.test(host) || host.startsWith("[") || !host.includes(".")) return host;
  const labels = host.split(".");
  const keep = labels.length > 2 && labels.at(-1)?.length === 2 && SECOND_LEVEL.has(labels.at(-2) ?? "") ? 3 : 2;
  return labels.slice(-keep).join(".");
}

/** @param {string} url */
export const isAtsAddress = (url) => ATS.some((h) => h.test(url));

/**
 * The frames of a tab that are on the page's own site or a known applicant-tracking system's,
 * and the others. A document without a site of its own (about:blank, srcdoc) belongs to its
 * parent's.
 * @template {{frameId: number, parentFrameId: number, url: string}} F
 * @param {F[]} frames
 * @returns {{near: F[], far: F[]}}
 */
export function splitFrames(frames) {
  const site = sitesOf(frames);
  const home = site(frames.find((f) => f.frameId === 0));
  /** @type {F[]} */
  const near = [];
  /** @type {F[]} */
  const far = [];
  for (const f of frames) {
    const own = site(f);
    (!home || !own || own === home || f.frameId === 0 || isAtsAddress(f.url) ? near : far).push(f);
  }
  return { near, far };
}

/**
 * The site of each frame, a document without one of its own taking its parent's.
 * @template {{frameId: number, parentFrameId: number, url: string}} F
 * @param {F[]} frames @returns {(f: F|undefined) => string}
 */
function sitesOf(frames) {
  const byId = new Map(frames.map((f) => [f.frameId, f]));
  return (f) => {
    for (let hops = 0; f && hops < 64; hops += 1) {
      const own = siteOf(f.url);
      if (own || f.parentFrameId < 0) return own;
      f = byId.get(f.parentFrameId);
    }
    return "";
  };
}

/**
 * The origin of each frame of another site than the page (known applicant-tracking systems'
 * too), by frame id: what the review shows beside the fields filled there.
 * @param {{frameId: number, parentFrameId: number, url: string}[]} frames
 * @returns {Map<string, string>}
 */
export function foreignOrigins(frames) {
  const site = sitesOf(frames);
  const home = site(frames.find((f) => f.frameId === 0));
  /** @type {Map<string, string>} */
  const out = new Map();
  for (const f of frames) {
    const own = site(f);
    if (f.frameId === 0 || !home || !own || own === home) continue;
    const origin = originOf(f.url) || originOf(frames.find((p) => p.frameId === f.parentFrameId)?.url ?? "");
    if (origin) out.set(String(f.frameId), origin);
  }
  return out;
}

/**
 * The frames a Fill reads: `splitFrames`' near ones and, when no near frame shows an application
 * (the page embeds it from a site Relay does not know), the far ones that show one or hold the
 * person's focus, those marked `focused`.
 * @template {{frameId: number, parentFrameId: number, url: string}} F
 * @param {number} tabId @param {F[]} frames
 * @param {(tabId: number, frameId: number, message: Record<string, unknown>, timeoutMs: number) => Promise<any>} send
 * @returns {Promise<(F & {focused?: true})[]>}
 */
export async function applicationFrames(tabId, frames, send) {
  const { near, far } = splitFrames(frames);
  if (!far.length) return near;
  const shows = await Promise.all(near.map((f) => send(tabId, f.frameId, { relay: "arrival" }, PROBE_TIMEOUT_MS)
    .then((state) => state?.application === true, () => false)));
  if (shows.some(Boolean)) return near;
  return [...near, ...await farApplicationFrames(tabId, far)];
}

/**
 * Of the frames of other sites, those that show an application or hold the person's focus (those
 * marked `focused`), asked by `frameProbe` without Relay's content script.
 * @template {{frameId: number}} F
 * @param {number} tabId @param {F[]} far
 * @returns {Promise<(F & {focused?: true})[]>}
 */
export async function farApplicationFrames(tabId, far) {
  const probes = await Promise.all(far.map((f) => probe(tabId, f.frameId)));
  return far.flatMap((f, i) => {
    const { application, focused } = probes[i];
    return focused ? [{ ...f, focused: /** @type {const} */ (true) }] : application ? [f] : [];
  });
}

/**
 * `frameProbe` in one frame, within PROBE_TIMEOUT_MS; a frame that cannot be asked shows nothing.
 * @param {number} tabId @param {number} frameId
 * @returns {Promise<{application: boolean, focused: boolean}>}
 */
async function probe(tabId, frameId) {
  const nothing = { application: false, focused: false };
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(nothing), PROBE_TIMEOUT_MS); });
  const asked = chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, func: frameProbe })
    .then(([r]) => ({ ...nothing, ...(/** @type {object} */ (r?.result ?? {})) }), () => nothing);
  try {
    return /** @type {{application: boolean, focused: boolean}} */ (await Promise.race([asked, late]));
  } finally {
    clearTimeout(timer);
  }
}

/** The origins the person has pressed Fill on. @returns {Promise<string[]>} */
export async function relaySites() {
  const stored = await chrome.storage.local.get(SITES_KEY);
  const sites = stored[SITES_KEY];
  return Array.isArray(sites) ? sites.filter((s) => typeof s === "string") : [];
}

/** @param {string} url @returns {string} "" for pages without an http(s) origin */
function originOf(url) {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : "";
  } catch {
    return "";
  }
}

/** The person pressed Fill on this page: its origin joins `relay.sites`. @param {string} url */
export async function rememberSite(url) {
  const origin = originOf(url);
  if (!origin) return;
  const sites = await relaySites();
  if (sites.includes(origin)) return;
  await chrome.storage.local.set({ [SITES_KEY]: [...sites, origin].slice(-MAX_SITES) });
}

/** Whether what runs without a click may run on this page. @param {string} url */
export async function siteAllowed(url) {
  const origin = originOf(url);
  return origin !== "" && (await relaySites()).includes(origin);
}
