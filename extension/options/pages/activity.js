// Activity: the audit log, newest first, searchable. Entries name fields and profiles, never values.

import { ask } from "../bridge.js";
import { el, money, reason, searchBox, tell, when } from "../dom.js";

const body = /** @type {HTMLElement} */ (document.getElementById("activity-body"));
const status = el("p", { class: "saved", role: "status", id: "activity-count" });
const rows = el("tbody");
const { input, field } = searchBox("activity-search", "Search the activity (fill, model, profile, error…)", () => void show());

body.append(el("div", { class: "toolbar" }, field), status,
  el("table", { class: "list", id: "activity-table" },
    el("caption", { class: "visually-hidden", text: "What Relay did" }),
    el("thead", {}, el("tr", {}, ...["When", "What", "By", "Tokens", "Cost", "Outcome"].map((t) => el("th", { scope: "col", text: t })))),
    rows));

/** @param {any} e */
function row(e) {
  const tokens = e.tokens_in || e.tokens_out ? `${e.tokens_in} in, ${e.tokens_out} out` : "";
  const cost = Number(e.cost_cents) / 100;
  return el("tr", {},
    el("td", { class: "nowrap", text: when(e.started_at) }),
    el("td", {}, el("span", { class: "strong", text: e.action }), e.run_id ? el("span", { class: "note", text: `run ${e.run_id}` }) : null),
    el("td", { text: e.actor }),
    el("td", { text: tokens }),
    el("td", { text: cost ? money(cost) : "" }),
    el("td", { class: e.status === "ok" ? "" : "bad-text", text: e.error || e.status }));
}

export async function show() {
  try {
    const result = await ask("activity.list", { query: input.value.trim(), limit: 300 });
    rows.replaceChildren(...result.entries.map(row));
    const more = result.matched > result.entries.length ? ` (the newest ${result.entries.length} shown)` : "";
    tell(status, "", input.value.trim()
      ? `${result.matched} of ${result.total} entries match${more}.`
      : `${result.total} entries${more}.`);
  } catch (err) {
    tell(status, "bad", `Could not read the activity: ${reason(err)}`);
  }
}
