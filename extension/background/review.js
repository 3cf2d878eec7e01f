// The review of each tab, for the browser's side panel (sidepanel/): every field Relay saw, what it
// holds, who put it there and why, what needs the person, and the fill's counts and model cost.
// Kept in chrome.storage.session (`review:<tabId>`), so it outlives a sleeping worker and the panel
// updates live from storage changes. The panel's and the marks' actions on a field (accept, undo,
// edit in place, fill again, save this answer, undo all, hide marks) run here.

import { listFrames, sendToFrame } from "./frames.js";
import { foreignOrigins } from "./inject.js";
import { asRelayError } from "./native-port.js";
import { countDecisions } from "../shared/counts.js";

const FIELD_TIMEOUT_MS = 15_000;
const SAVE_TIMEOUT_MS = 15_000;
const MAX_BLOCKED = 50;
const PANEL_PAGE = "sidepanel/panel.html";

/**
 * @typedef {object} ReviewRow
 * @property {string} frame
 * @property {string} field_id
 * @property {string} label
 * @property {string} section
 * @property {boolean} required
 * @property {string} widget
 * @property {string[]} options
 * @property {string} key
 * @property {string} value          what the field shows now
 * @property {string} relay_value    what Relay put there ("" when it put nothing)
 * @property {string} source         who put the value there: rules, saved_answer, model, default, you, ""
 * @property {number} confidence
 * @property {string} status         the plan's verdict (fill, flag, leave, never, keep)
 * @property {string} applied        what the page did (applied, refused, …)
 * @property {string} why            the reason, in plain words
 * @property {string} needs          why it needs the person ("" when it does not)
 * @property {string} state          "", accepted, edited, undone
 * @property {boolean} saved         the person saved it as an answer
 * @property {string} note           the outcome of the latest action on it
 * @property {string} [frame_origin]  the origin of the other site's frame it is in
 */
/**
 * @typedef {object} Review
 * @property {number} tab_id
 * @property {string} run_id
 * @property {string} url
 * @property {string} title
 * @property {{code: string, message: string}|null} error
 * @property {string} note
 * @property {{kind: string, detail: string, times?: number}[]} blocked
 * @property {Record<string, number>} counts   the latest fill's, as `relay fill` and `relay history` count
 * @property {{calls: number, cost_usd: number, status: string, day_left_usd: number|null}} llm
 * @property {ReviewRow[]} rows
 * @property {boolean} marks_hidden
 * @property {string[]} [marks_unseen]  frames whose marks the page keeps out of sight
 * @property {string} message         the outcome of the latest whole-form action
 * @property {{run_id: string, blocked: Review["blocked"]}} early  attempts of a run whose rows are still to come
 */

/** @param {number} tabId */
export const reviewKey = (tabId) => `review:${tabId}`;

/**
 * @param {{request: (type: string, payload?: Record<string, unknown>, options?: {timeoutMs?: number}) => Promise<any>}} port
 * @param {(tabId: number) => Promise<unknown>} fill  a new Fill of the tab ("fill again")
 */
export function createReview(port, fill) {
  /** @type {Map<number, Promise<unknown>>} one change at a time per tab */
  const queues = new Map();

  /** @template T @param {number} tabId @param {() => Promise<T>} fn @returns {Promise<T>} */
  function serial(tabId, fn) {
    const run = (queues.get(tabId) ?? Promise.resolve()).then(fn, fn);
    queues.set(tabId, run.catch(() => {}));
    return run;
  }

  /** @param {number} tabId @returns {Promise<Review|null>} */
  async function read(tabId) {
    const key = reviewKey(tabId);
    return (await chrome.storage.session.get(key))[key] ?? null;
  }

  /** @param {Review} review */
  async function write(review) {
    await chrome.storage.session.set({ [reviewKey(review.tab_id)]: review });
  }

  /**
   * Change a tab's review: FN edits it in place (or returns a fresh one).
   * @param {number} tabId @param {(review: Review) => Review|void|Promise<Review|void>} fn
   */
  function update(tabId, fn) {
    return serial(tabId, async () => {
      const review = (await read(tabId)) ?? emptyReview(tabId);
      const next = (await fn(review)) ?? review;
      await write(next);
      return next;
    });
  }

  /**
   * A fill's rows. A field the new plan only kept (a later step, "fill again") keeps its row.
   * @param {number} tabId @param {Record<string, any>} model  {run_id, rows, note, blocked, error, summary}
   */
  async function publish(tabId, model) {
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    const origins = foreignOrigins(await listFrames(tabId));
    const review = await update(tabId, (old) => {
      const samePage = old.url && tab?.url && pageOf(old.url) === pageOf(tab.url);
      const earlier = new Map((samePage ? old.rows : []).map((r) => [rowKey(r), r]));
      /** @type {ReviewRow[]} */
      const rows = [];
      for (const raw of model.rows ?? []) {
        const row = toRow(raw);
        const origin = origins.get(row.frame);
        if (origin) row.frame_origin = origin;
        const before = earlier.get(rowKey(row));
        earlier.delete(rowKey(row));
        rows.push(before && row.status === "keep" && before.source ? { ...before, value: row.value || before.value } : row);
      }
      return {
        ...emptyReview(tabId),
        run_id: String(model.run_id ?? ""),
        url: tab?.url ?? old.url,
        title: tab?.title ?? old.title,
        error: model.error ?? null,
        note: String(model.note ?? ""),
        // Attempts reported apart from the fill (the guard's watch) may arrive before its rows.
        blocked: [
          ...(old.run_id === model.run_id ? old.blocked : []),
          ...(old.early.run_id === model.run_id ? old.early.blocked : []),
          ...(model.blocked ?? []),
        ].slice(0, MAX_BLOCKED),
        // A replay's rows come without the plan's summary: count its rows the same way.
        counts: model.summary?.counts ?? countDecisions(model.rows ?? []),
        llm: model.summary?.llm ?? emptyReview(tabId).llm,
        // Marks are drawn (and their "marks-seen" sent) before the rows arrive.
        marks_unseen: old.marks_unseen ?? [],
        // Fields of earlier steps stay in the review: they are part of the same application.
        rows: [...earlier.values(), ...rows],
      };
    });
    try {
      await chrome.sidePanel?.setOptions({ tabId, path: `${PANEL_PAGE}?tab=${tabId}`, enabled: true });
    } catch {
      // Browsers without chrome.sidePanel (Firefox's sidebar shows the active tab's review).
    }
    return { ok: true, rows: review.rows.length };
  }

  /**
   * A request from the side panel (tab_id, frame in the message) or from a mark (the sender's tab
   * and frame).
   * @param {Record<string, any>} message @param {chrome.runtime.MessageSender} sender
   * @returns {Promise<Record<string, any>>}
   */
  async function handle(message, sender) {
    // Relay's own pages (the side panel; in tests opened as a tab) name the tab; a content script
    // speaks for its own tab and frame.
    const fromPage = !String(sender.url ?? "").startsWith(chrome.runtime.getURL(""));
    const tabId = fromPage ? sender.tab?.id : Number(message.tab_id);
    if (tabId === undefined || !Number.isInteger(tabId)) return { ok: false, error: { code: "E_NO_TAB", message: "no tab for this review" } };
    const frame = fromPage ? String(sender.frameId ?? 0) : String(message.frame ?? "0");
    const fieldId = String(message.field_id ?? "");
    switch (message.op) {
      case "get":
        return { ok: true, review: await read(tabId) };
      case "publish":
        return publish(tabId, message.model ?? {});
      case "blocked":
        await update(tabId, (r) => {
          const runId = String(message.run_id ?? "");
          if (runId && runId !== r.run_id) {
            const kept = r.early.run_id === runId ? r.early.blocked : [];
            r.early = { run_id: runId, blocked: [...kept, ...(message.blocked ?? [])].slice(0, MAX_BLOCKED) };
          } else {
            r.blocked = [...r.blocked, ...(message.blocked ?? [])].slice(0, MAX_BLOCKED);
          }
        });
        return { ok: true };
      case "edited":
        await changeRow(tabId, frame, fieldId, (row) => edited(row, String(message.value ?? "")));
        return { ok: true };
      case "focus":
        return sendToFrame(tabId, Number(frame), { relay: "focus", field_id: fieldId }, FIELD_TIMEOUT_MS)
          .catch((err) => ({ ok: false, error: asRelayError(err).toJSON() }));
      case "accept":
        await changeRow(tabId, frame, fieldId, (row) => Object.assign(row, { state: "accepted", needs: "", note: "You accepted this value." }));
        await toFrame(tabId, frame, { op: "mark", field_id: fieldId, kind: "filled", tip: "You accepted this value." });
        return { ok: true };
      case "undo":
        return undoField(tabId, frame, fieldId);
      case "set": {
        const reply = await toFrame(tabId, frame, { op: "set", field_id: fieldId, value: String(message.value ?? "") });
        await changeRow(tabId, frame, fieldId, (row) => (reply.done
          ? Object.assign(edited(row, String(reply.value ?? "")), { note: "Your value is in the form." })
          : Object.assign(row, { note: `Relay could not set this value: ${reply.detail || reply.error?.message || "the page refused it"}` })));
        return { ...reply, ok: Boolean(reply.done) };
      }
      case "refill": {
        const reply = await undoField(tabId, frame, fieldId);
        if (!reply.ok) return reply;
        await fill(tabId);
        return { ok: true };
      }
      case "save":
        return saveAnswer(tabId, frame, fieldId);
      case "undo-all":
        return undoAll(tabId);
      case "hide-marks":
        await hideMarks(tabId);
        return { ok: true };
      case "marks-seen":
        // A frame drew its marks; the page may keep them out of sight (content/marks.js).
        await update(tabId, (r) => {
          const others = (r.marks_unseen ?? []).filter((f) => f !== frame);
          r.marks_unseen = message.seen === false ? [...others, frame] : others;
        });
        return { ok: true };
      default:
        return { ok: false, error: { code: "E_UNKNOWN_MESSAGE", message: `unknown review action ${message.op}` } };
    }
  }

  /** @param {number} tabId @param {string} frame @param {Record<string, any>} message */
  async function toFrame(tabId, frame, message) {
    try {
      return await sendToFrame(tabId, Number(frame), { relay: "field", ...message }, FIELD_TIMEOUT_MS);
    } catch (err) {
      return { ok: false, done: false, detail: asRelayError(err).message };
    }
  }

  /**
   * @param {number} tabId @param {string} frame @param {string} fieldId
   * @param {(row: ReviewRow) => void|ReviewRow} fn
   */
  function changeRow(tabId, frame, fieldId, fn) {
    return update(tabId, (review) => {
      const row = review.rows.find((r) => r.frame === frame && r.field_id === fieldId);
      if (row) fn(row);
    });
  }

  /** @param {number} tabId @param {string} frame @param {string} fieldId */
  async function undoField(tabId, frame, fieldId) {
    const reply = await toFrame(tabId, frame, { op: "undo", field_id: fieldId });
    await changeRow(tabId, frame, fieldId, (row) => (reply.done ? undone(row, String(reply.value ?? "")) : notUndone(row, String(reply.detail ?? ""))));
    return { ...reply, ok: Boolean(reply.done) };
  }

  /** @param {number} tabId */
  async function undoAll(tabId) {
    const review = await read(tabId);
    const frames = [...new Set((review?.rows ?? []).map((r) => r.frame))];
    /** @type {Map<string, Record<string, any>>} */
    const outcome = new Map();
    for (const frame of frames) {
      const reply = await toFrame(tabId, frame, { op: "undo-all" });
      for (const r of reply.results ?? []) outcome.set(`${frame}/${r.field_id}`, r);
    }
    const failed = [...outcome.values()].filter((r) => !r.ok).length;
    await update(tabId, (r) => {
      for (const row of r.rows) {
        const done = outcome.get(rowKey(row));
        if (!done) continue;
        if (done.ok) undone(row, String(done.value ?? ""));
        else notUndone(row, String(done.detail ?? ""));
      }
      r.message = failed
        ? `Relay put back ${plural(outcome.size - failed, "field")}; ${failed} could not be put back (see "Needs you").`
        : `Relay put back all ${plural(outcome.size, "field")} it had changed.`;
    });
    return { ok: failed === 0, undone: outcome.size - failed, failed };
  }

  /** @param {number} tabId @param {string} frame @param {string} fieldId */
  async function saveAnswer(tabId, frame, fieldId) {
    const review = await read(tabId);
    const row = review?.rows.find((r) => r.frame === frame && r.field_id === fieldId);
    if (!review || !row) return { ok: false, error: { code: "E_NOT_FOUND", message: "no such field in the review" } };
    const values = row.value && row.options.length ? row.value.split(/\s*,\s*/) : [];
    const payload = {
      run_id: review.run_id || undefined,
      field_id: fieldId,
      question: { label: row.label, section: row.section, options: row.options, widget: row.widget, lang: "" },
      value: row.value,
      values,
      // The person chose to save this self-identification answer here: the bridge keeps it local.
      self_id: row.key.startsWith("eeo."),
    };
    try {
      const reply = await port.request("answer.save", payload, { timeoutMs: SAVE_TIMEOUT_MS });
      await changeRow(tabId, frame, fieldId, (r) => Object.assign(r, { saved: true, note: "Saved: Relay will answer this question the same way next time." }));
      return { ok: true, ...reply };
    } catch (err) {
      const error = asRelayError(err);
      await changeRow(tabId, frame, fieldId, (r) => Object.assign(r, { note: `Relay could not save this answer: ${error.message}` }));
      return { ok: false, error: error.toJSON() };
    }
  }

  /** @param {number} tabId */
  async function hideMarks(tabId) {
    const frames = await listFrames(tabId).catch(() => []);
    await Promise.all(frames.map((f) => sendToFrame(tabId, f.frameId, { relay: "clear" }, FIELD_TIMEOUT_MS).catch(() => {})));
    await update(tabId, (r) => {
      r.marks_hidden = true;
    });
  }

  /** The side panel of a tab closed: its marks go too. @param {number} tabId */
  async function panelClosed(tabId) {
    if (await read(tabId)) await hideMarks(tabId);
  }

  /** @param {number} tabId */
  async function forget(tabId) {
    queues.delete(tabId);
    await chrome.storage.session.remove(reviewKey(tabId));
  }

  return { publish, handle, read, panelClosed, forget };
}

/** @param {number} tabId @returns {Review} */
function emptyReview(tabId) {
  return {
    tab_id: tabId, run_id: "", url: "", title: "", error: null, note: "", blocked: [], counts: {},
    llm: { calls: 0, cost_usd: 0, status: "", day_left_usd: null }, rows: [], marks_hidden: false, message: "",
    early: { run_id: "", blocked: [] },
  };
}

/** @param {{frame: string, field_id: string}} row */
const rowKey = (row) => `${row.frame}/${row.field_id}`;

/** @param {string} url */
function pageOf(url) {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/** A content row (main.js apply) as the review keeps it. @param {Record<string, any>} raw @returns {ReviewRow} */
function toRow(raw) {
  const applied = String(raw.applied ?? "");
  const status = String(raw.status ?? "leave");
  const gave = applied === "applied" && (status === "fill" || status === "flag");
  const value = String(raw.value || raw.shown || "");
  /** @type {ReviewRow} */
  const row = {
    frame: String(raw.frame ?? "0"),
    field_id: String(raw.field_id ?? ""),
    label: String(raw.label ?? ""),
    section: String(raw.section ?? ""),
    required: Boolean(raw.required),
    widget: String(raw.widget ?? ""),
    options: Array.isArray(raw.options) ? raw.options.map(String) : [],
    key: String(raw.key ?? ""),
    value,
    relay_value: gave ? String(raw.value ?? "") : "",
    source: applied === "user_edited" ? "you" : gave ? sourceOf(raw) : "",
    confidence: Number(raw.confidence ?? 0),
    status,
    applied,
    why: String(raw.why || raw.tip || ""),
    needs: "",
    state: "",
    saved: false,
    note: "",
  };
  row.needs = needsOf(row, String(raw.reason ?? ""), String(raw.detail ?? ""));
  return row;
}

/** @param {Record<string, any>} raw */
function sourceOf(raw) {
  if (/^default:/i.test(String(raw.reason ?? raw.why ?? ""))) return "default";
  return { profile: "rules", saved_answer: "saved_answer", llm: "model" }[String(raw.source)] ?? "";
}

/**
 * Why a field needs the person, in words ("" when it does not).
 * @param {ReviewRow} row @param {string} reason @param {string} detail
 */
function needsOf(row, reason, detail) {
  if (row.state === "accepted") return "";
  const empty = !row.value || row.value === "unchecked";
  if (row.source === "you") return row.required && empty ? "Required, and still empty." : "";
  if (row.applied === "refused" || row.applied === "not_found") {
    return `Relay could not fill this${detail ? `: ${detail}` : ""}.`;
  }
  if (/^llm answer refused/i.test(reason)) return "The model's answer failed Relay's check against your profile, so it was not used.";
  if (row.required && empty && row.status !== "keep") return "Required, and still empty.";
  if (row.status === "flag" && row.source === "model") return "A model's draft: read it before you submit.";
  if (row.status === "flag") return "Relay is not sure: please check.";
  return "";
}

/** The person changed the field (in the page or from the panel). @param {ReviewRow} row @param {string} value */
function edited(row, value) {
  row.value = value;
  if (value !== row.relay_value) {
    row.source = "you";
    row.state = "edited";
  }
  row.needs = row.required && (!value || value === "unchecked") ? "Required, and still empty." : "";
  return row;
}

/** Relay put the field back as it was before it filled it. @param {ReviewRow} row @param {string} value */
function undone(row, value) {
  row.value = value;
  row.relay_value = "";
  row.source = "";
  row.state = "undone";
  row.needs = row.required && !value ? "Required, and still empty." : "";
  row.note = "Back to what was there before Relay.";
  return row;
}

/** Relay could not put the field back: it needs the person. @param {ReviewRow} row @param {string} detail */
function notUndone(row, detail) {
  row.note = "";
  row.needs = detail || "Relay could not put this field back as it was; please check it.";
  return row;
}

/** @param {number} n @param {string} word */
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
