// Dotted paths ("work.0.highlights.1") into a JSON Resume document.

/** @param {Record<string, any>} doc @param {string} path @param {unknown} value */
export function setPath(doc, path, value) {
  const keys = path.split(".");
  /** @type {any} */
  let node = doc;
  keys.slice(0, -1).forEach((key, i) => {
    if (node[key] === undefined || node[key] === null) node[key] = /^\d+$/.test(keys[i + 1]) ? [] : {};
    node = node[key];
  });
  node[keys[keys.length - 1]] = value;
}

/** @param {any} doc @param {string} path @returns {any} */
export function getPath(doc, path) {
  return path.split(".").reduce((node, key) => (node == null ? undefined : node[key]), doc);
}

/** Arrays with holes (an unticked fact) closed up, so the document stays a valid JSON Resume. */
export function compact(/** @type {any} */ value) {
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(compact);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, compact(v)]));
  }
  return value;
}
