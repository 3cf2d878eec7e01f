// "Fill with": the profile, the resume and the cover letter for the job in this tab, chosen before Fill. A block of
// its own beside the review (panel.js): it asks the bridge through the service worker, which lets
// the side panel send only these requests (see background/service-worker.js).

const params = new URLSearchParams(location.search);
const box = /** @type {HTMLElement} */ (document.getElementById("fill-with"));

/** @param {string} type @param {Record<string, unknown>} [payload] @returns {Promise<any>} */
async function ask(type, payload = {}) {
  const reply = await chrome.runtime.sendMessage({ relay_bg: "bridge", type, payload });
  if (!reply?.ok) throw new Error(reply?.error?.message ?? "Relay did not answer");
  return reply.result;
}

/** @param {string} tag @param {Record<string, string>} [attrs] @param {...(Node|string)} children */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** @returns {Promise<number|undefined>} */
async function tabId() {
  const fixed = Number(params.get("tab"));
  if (Number.isInteger(fixed) && fixed > 0) return fixed;
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab?.id;
}

const KINDS = /** @type {const} */ ([
  { kind: "resume", label: "Resume for this job", noun: "resume" },
  { kind: "coverLetter", label: "Cover letter for this job", noun: "cover letter" },
]);

/**
 * One document list (resume or cover letter): the default first, then each file kept.
 * @param {{kind: string, label: string, noun: string}} which @param {any} docs @param {string} job
 * @param {HTMLElement} said
 */
function documentChoice(which, docs, job, said) {
  const id = `fill-with-${which.kind === "resume" ? "resume" : "cover-letter"}`;
  const select = /** @type {HTMLSelectElement} */ (el("select", { id }));
  const files = docs[which.kind] ?? [];
  const fallback = files.find((/** @type {any} */ r) => r.default);
  select.append(new Option(fallback ? `Default (${fallback.name})` : "None", ""),
    ...files.map((/** @type {any} */ r) => new Option(r.name, r.ref, false, r.ref === docs.chosen[which.kind])));
  select.disabled = !job || !files.length;
  select.addEventListener("change", async () => {
    try {
      await ask("document.choose", { kind: which.kind, ref: select.value, url: job });
      said.textContent = select.value
        ? `For this job, Fill attaches “${select.selectedOptions[0].text}”.`
        : `For this job, Fill attaches your default ${which.noun}.`;
    } catch (err) {
      said.textContent = `Not changed: ${err instanceof Error ? err.message : err}`;
    }
  });
  return [el("label", { for: id }, which.label), select];
}

/** A profile file named outside Relay's store is what Fill uses: say so, and how to choose. @param {{path: string, set_by: string}} file */
function fileProfileNote(file) {
  const name = file.path.split(/[\\/]/).pop() ?? file.path;
  const fix = file.set_by === "RELAY_PROFILE"
    ? "remove RELAY_PROFILE from the browser's environment"
    : "run `relay config unset profile`";
  return el("p", { class: "fill-with-note", id: "fill-with-file" },
    `Fill uses the profile file “${name}”, so it attaches the resume and cover letter that file names. `
    + `Choosing them per job works with profiles kept in Relay: to use those, ${fix}.`);
}

async function render() {
  const id = await tabId();
  const url = id === undefined ? "" : (await chrome.tabs.get(id).catch(() => null))?.url ?? "";
  const said = el("p", { class: "fill-with-said", role: "status", id: "fill-with-said" });
  try {
    const { profiles, file } = await ask("profiles.list");
    if (file) {
      box.replaceChildren(el("h2", { id: "fill-with-title" }, "Fill with"), fileProfileNote(file));
      box.hidden = false;
      box.dataset.ready = "true";
      return;
    }
    if (!profiles.length) {
      box.hidden = true;
      return;
    }
    const job = /^https?:/.test(url) ? url : "";
    const docs = await ask("documents.list", job ? { url: job } : {});
    const profileSelect = /** @type {HTMLSelectElement} */ (el("select", { id: "fill-with-profile" }));
    profileSelect.append(...profiles.map((/** @type {any} */ p) => new Option(p.name, p.name, p.active, p.active)));
    profileSelect.addEventListener("change", async () => {
      await ask("profile.activate", { name: profileSelect.value });
      await render();
      const now = document.getElementById("fill-with-said");
      if (now) now.textContent = `Fill uses “${profileSelect.value}”.`;
    });
    box.replaceChildren(el("h2", { id: "fill-with-title" }, "Fill with"),
      el("div", { class: "fill-with-fields" },
        el("label", { for: "fill-with-profile" }, "Profile"), profileSelect,
        ...KINDS.flatMap((which) => documentChoice(which, docs, job, said))),
      said);
    box.hidden = false;
    box.dataset.ready = "true";
  } catch {
    box.hidden = true; // no bridge: the review says what is wrong when Fill is pressed
  }
}

chrome.tabs.onActivated.addListener(() => { if (!params.get("tab")) void render(); });
chrome.tabs.onUpdated.addListener((_id, change) => { if (change.url) void render(); });
void render();
