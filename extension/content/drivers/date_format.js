// Date formats read from placeholders ("MM/DD/YYYY", "mm/dd/yyyy", "DD.MM.YYYY", "MM/YYYY",
// "YYYY") and the writing and reading of dates in them. Not a driver itself.

(() => {
"use strict";
const TOKEN = /(yyyy|yy|mmmm|mmm|mm|m|dd|d)/gi;
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
  "September", "October", "November", "December"];

/**
 * @typedef {{y: number, m: number|null, d: number|null}} DateParts
 */

/** Parses an ISO date ("2026-05-01", "2026-05", "2026"). @param {string} iso @returns {DateParts|null} */
function parseIso(iso) {
  const m = /^\s*(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?/.exec(iso ?? "");
  if (!m) return null;
  const p = { y: Number(m[1]), m: m[2] ? Number(m[2]) : null, d: m[3] ? Number(m[3]) : null };
  if (p.m !== null && (p.m < 1 || p.m > 12)) return null;
  // Reject days the month does not have (2026-02-30).
  if (p.d !== null && (p.d < 1 || p.d > new Date(Date.UTC(p.y, p.m ?? 1, 0)).getUTCDate())) return null;
  return p;
}

/** The date format a placeholder spells out, or "". @param {string} text */
function formatFromPlaceholder(text) {
  const t = (text ?? "").trim();
  return /^(yyyy|yy|mmmm|mmm|mm|m|dd|d)([\s./-]+(yyyy|yy|mmmm|mmm|mm|m|dd|d)){0,2}$/i.test(t) && /y/i.test(t)
    ? t : "";
}

/** A guess when the page says nothing: US order for English pages, day first elsewhere. */
function defaultFormat(/** @type {Document} */ doc) {
  const lang = (doc.documentElement.lang || navigator.language || "en-US").toLowerCase();
  if (lang === "en" || lang.startsWith("en-us") || lang.startsWith("en-ca")) return "MM/DD/YYYY";
  if (lang.startsWith("de")) return "DD.MM.YYYY";
  return "DD/MM/YYYY";
}

const pad = (/** @type {number} */ n, /** @type {number} */ w) => String(n).padStart(w, "0");

/** Writes a date in a format; null when the format needs a part the date lacks. */
function formatDate(/** @type {string} */ fmt, /** @type {DateParts} */ p) {
  let missing = false;
  const out = fmt.replace(TOKEN, (tok) => {
    const t = tok.toLowerCase();
    if (t.startsWith("y")) return t === "yyyy" ? String(p.y) : pad(p.y % 100, 2);
    if (t.startsWith("m")) {
      if (p.m === null) { missing = true; return ""; }
      if (t === "mmmm") return MONTHS[p.m - 1];
      if (t === "mmm") return MONTHS[p.m - 1].slice(0, 3);
      return t === "mm" ? pad(p.m, 2) : String(p.m);
    }
    if (p.d === null) { missing = true; return ""; }
    return t === "dd" ? pad(p.d, 2) : String(p.d);
  });
  return missing ? null : out;
}

/** Reads a date written in a format back into parts (for verification). */
function readDate(/** @type {string} */ fmt, /** @type {string} */ text) {
  const order = [...fmt.matchAll(TOKEN)].map((m) => m[1].toLowerCase()[0]);
  const nums = (text ?? "").match(/\d+|[A-Za-z]{3,}/g) ?? [];
  if (nums.length < order.length) return null;
  /** @type {DateParts} */
  const p = { y: 0, m: null, d: null };
  order.forEach((k, i) => {
    const raw = nums[i];
    const n = /^\d+$/.test(raw) ? Number(raw)
      : MONTHS.findIndex((mo) => mo.toLowerCase().startsWith(raw.toLowerCase().slice(0, 3))) + 1;
    if (k === "y") p.y = n < 100 ? 2000 + n : n;
    else if (k === "m") p.m = n;
    else p.d = n;
  });
  return p;
}

/** Whether two dates agree on the parts both have. */
function sameDate(/** @type {DateParts|null} */ a, /** @type {DateParts|null} */ b) {
  if (!a || !b) return false;
  return a.y === b.y && (a.m === null || b.m === null || a.m === b.m)
    && (a.d === null || b.d === null || a.d === b.d);
}

relayContent["drivers/date_format"] = {
  parseIso, formatFromPlaceholder, defaultFormat, formatDate, readDate, sameDate,
};
})();
