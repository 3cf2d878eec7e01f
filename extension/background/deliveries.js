// Delivery bookkeeping (docs/protocol.md, "Retries and deliveries"): which tab and document each
// run belongs to, which of its sequenced decisions were handed to the page, and how far the bridge
// has been acknowledged. Kept in chrome.storage.session so it survives a service-worker restart
// (not a browser restart, which ends the pages it refers to anyway).
//
// A seq is "done" once Relay hands it to the page, or decides it cannot apply it. Done is recorded
// *before* the page gets the decision: after a crash mid-apply Relay would rather skip a field than
// type into it twice. Every change goes through one queue, so two callers can never both claim
// the same (run, seq).

const KEY = "relay.deliveries";
const MAX_RUNS = 100;
const OPEN_RUN_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * @typedef {object} RunRecord
 * @property {string} run_id
 * @property {number} tab_id
 * @property {string} url          the top frame's URL when planned, without its fragment
 * @property {Record<string, string>} docs  frame id → documentId when planned (Chromium only)
 * @property {number} last_seq     the plan's highest seq (0: nothing to deliver)
 * @property {number[]} done       seqs handed to the page or found not applicable
 * @property {number} acked        the bridge has this run acknowledged up to here
 * @property {number} created_at
 */

/**
 * @typedef {object} StorageArea
 * @property {(key: string) => Promise<Record<string, any>>} get
 * @property {(items: Record<string, any>) => Promise<void>} set
 */

/** @param {string} url */
export function withoutFragment(url) {
  const hash = url.indexOf("#");
  return hash < 0 ? url : url.slice(0, hash);
}

/** @param {{storage?: StorageArea, now?: () => number}} [options] */
export function createDeliveries(options = {}) {
  const storage = options.storage ?? /** @type {StorageArea} */ (/** @type {unknown} */ (chrome.storage.session));
  const now = options.now ?? Date.now;
  /** @type {Record<string, RunRecord>|null} this worker is the only writer, so a cache is safe */
  let runs = null;
  /** @type {Promise<unknown>} */
  let queue = Promise.resolve();
  /** @type {Set<Promise<unknown>>} fill.plan requests whose reply has not been recorded yet */
  const planning = new Set();
  /** @type {Set<string>} runs a Fill in this worker is applying now (lost with the worker, rightly) */
  const owned = new Set();

  /**
   * Run `fn` on the loaded records after every earlier change; persist if it says so.
   * @template T @param {(runs: Record<string, RunRecord>) => {value: T, changed: boolean}} fn
   * @returns {Promise<T>}
   */
  function locked(fn) {
    const next = queue.then(async () => {
      if (!runs) runs = /** @type {Record<string, RunRecord>} */ ((await storage.get(KEY))[KEY] ?? {});
      const { value, changed } = fn(runs);
      if (changed) {
        prune(runs);
        await storage.set({ [KEY]: runs });
      }
      return value;
    });
    queue = next.catch(() => {});
    return next;
  }

  /** Keep the newest runs: finished ones go first, and open ones nobody replayed for a day. */
  function prune(/** @type {Record<string, RunRecord>} */ all) {
    const stale = now() - OPEN_RUN_TTL_MS;
    for (const r of Object.values(all)) if (r.created_at < stale) delete all[r.run_id];
    const victims = Object.values(all)
      .sort((a, b) => Number(isOpen(a)) - Number(isOpen(b)) || a.created_at - b.created_at);
    for (const r of victims.slice(0, Math.max(0, victims.length - MAX_RUNS))) delete all[r.run_id];
  }

  return {
    /**
     * Track a fill.plan request until its run is recorded (or it failed); returns `request`.
     * @template T @param {Promise<T>} request @returns {Promise<T>}
     */
    planning(request) {
      const tracked = request.then(() => {}, () => {});
      planning.add(tracked);
      void tracked.finally(() => planning.delete(tracked));
      return request;
    },

    /** A Fill applies this run itself: replays of it are left to that Fill. */
    own(/** @type {string} */ runId) {
      owned.add(runId);
    },
    release(/** @type {string} */ runId) {
      owned.delete(runId);
    },
    isOwned(/** @type {string} */ runId) {
      return owned.has(runId);
    },

    /** Resolves when every plan in flight has been answered. */
    async plansSettled() {
      while (planning.size) await Promise.all([...planning]);
    },

    /**
     * The plan arrived (or a later round's, of a run known here): remember its tab and document
     * before anything is applied.
     * @param {{run_id: string, tab_id: number, url: string, docs?: Record<string, string>, seqs: number[]}} plan
     */
    planned(plan) {
      return locked((all) => {
        const known = all[plan.run_id];
        if (known) {
          // A retried plan keeps what was done; a later round of the Fill adds seqs after the run's.
          const last = Math.max(known.last_seq, ...plan.seqs);
          const changed = last !== known.last_seq;
          known.last_seq = last;
          return { value: known, changed };
        }
        const record = {
          run_id: plan.run_id, tab_id: plan.tab_id, url: withoutFragment(plan.url), docs: plan.docs ?? {},
          last_seq: Math.max(0, ...plan.seqs), done: [], acked: 0, created_at: now(),
        };
        all[plan.run_id] = record;
        return { value: record, changed: true };
      });
    },

    /**
     * Claim seqs for applying: returns those not done before (now done). Never the same twice.
     * @param {string} runId @param {number[]} seqs
     * @returns {Promise<Set<number>>}
     */
    claim(runId, seqs) {
      return locked((all) => {
        const record = all[runId];
        /** @type {Set<number>} */
        const fresh = new Set();
        if (!record) return { value: fresh, changed: false };
        const done = new Set(record.done);
        for (const seq of seqs) {
          if (seq > record.acked && !done.has(seq)) {
            done.add(seq);
            fresh.add(seq);
          }
        }
        record.done = [...done].sort((a, b) => a - b);
        return { value: fresh, changed: fresh.size > 0 };
      });
    },

    /** @param {string} runId @returns {Promise<RunRecord|null>} */
    get(runId) {
      return locked((all) => ({ value: all[runId] ? structuredClone(all[runId]) : null, changed: false }));
    },

    /**
     * The highest seq such that every seq after `floor` up to it is done. `floor` is what the bridge
     * has acknowledged: the recorded mark, or (for a replay burst) one below its lowest seq, since
     * acknowledgements are cumulative and the bridge replays everything after them.
     * @param {string} runId @param {number} [floor]
     */
    upToSeq(runId, floor = 0) {
      return locked((all) => {
        const record = all[runId];
        if (!record) return { value: floor, changed: false };
        return { value: contiguous(new Set(record.done), Math.max(floor, record.acked)), changed: false };
      });
    },

    /** The bridge confirmed `upTo`; `final` closes the run whatever its last seq. */
    acked(/** @type {string} */ runId, /** @type {number} */ upTo, final = false) {
      return locked((all) => {
        const record = all[runId];
        if (!record || (upTo <= record.acked && !final)) return { value: false, changed: false };
        record.acked = Math.max(record.acked, final ? record.last_seq : upTo);
        record.done = record.done.filter((s) => s > record.acked); // the mark covers these now
        return { value: true, changed: true };
      });
    },

    /** Runs with deliveries the bridge has not acknowledged. @returns {Promise<RunRecord[]>} */
    openRuns() {
      return locked((all) => ({
        value: Object.values(all).filter(isOpen).map((r) => structuredClone(r)),
        changed: false,
      }));
    },

    /** Whether (run, seq) was handed to the page or settled already. */
    isDone(/** @type {string} */ runId, /** @type {number} */ seq) {
      return locked((all) => {
        const record = all[runId];
        return { value: !!record && (seq <= record.acked || record.done.includes(seq)), changed: false };
      });
    },
  };
}

/** @typedef {ReturnType<typeof createDeliveries>} Deliveries */

/** @param {RunRecord} r */
function isOpen(r) {
  return r.acked < r.last_seq;
}

/** @param {Set<number>} done @param {number} floor */
function contiguous(done, floor) {
  let up = floor;
  while (done.has(up + 1)) up += 1;
  return up;
}
