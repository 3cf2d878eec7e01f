// A fill's counts, the same way `relay fill`'s report and `relay history` count them
// (bridge/driver/report.py count, bridge/store/runs.py source_counts): per verdict of the plan,
// and per source of the values Relay gave (verdicts fill and flag).

export const VERDICTS = /** @type {const} */ (["fill", "flag", "leave", "never", "keep"]);
export const SOURCES = /** @type {const} */ (["profile", "saved_answer", "llm"]);

/** @param {Record<string, any>[]} decisions @returns {Record<string, number>} */
export function countDecisions(decisions) {
  /** @type {Record<string, number>} */
  const counts = { fields: decisions.length };
  for (const v of VERDICTS) counts[v] = 0;
  for (const s of SOURCES) counts[`source:${s}`] = 0;
  for (const d of decisions) {
    const verdict = String(d.status ?? "leave");
    counts[verdict] = (counts[verdict] ?? 0) + 1;
    if (verdict === "fill" || verdict === "flag") {
      const key = `source:${String(d.source ?? "none")}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
  return counts;
}

/**
 * What the review shows of a plan besides its rows: counts, model calls, cost, money left today.
 * @param {Record<string, any>|null} plan
 */
export function fillSummary(plan) {
  return {
    counts: countDecisions(plan?.decisions ?? []),
    llm: {
      calls: Number(plan?.llm_calls ?? 0),
      cost_usd: Number(plan?.llm_cost_usd ?? 0),
      status: String(plan?.llm_status ?? ""),
      day_left_usd: plan?.llm_day_left_usd ?? null,
    },
  };
}
