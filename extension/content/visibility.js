// Whether a person can see a field: rendered, not transparent, big enough, not clipped away, on
// the page, not covered by another element; else the plain reason why not. The snapshot checks
// every field with it (only what a person can see is filled) and apply checks again right before
// a write, since a page can hide a field in between. A field is checked through what a person
// sees of it: a widget's visible box, a styled choice's label, the button in front of a file input.
//
// Covering is found by hit-testing a few points of the visible area. Points below the fold are
// brought into view by scrolling the document and the containers a person can scroll (never
// overflow:hidden ones) and every scroll position is restored before the check returns, in the
// same task, so no frame is painted in between.

(() => {
"use strict";
const { RELAY_UI_ATTR, composedParent, containsDeep } = relayContent.dom;

/** @typedef {{visible: boolean, reason: string}} Sight */
/**
 * @typedef {object} SightItem
 * @property {Element[]} targets  what a person may see the field through: seeing any one is enough
 * @property {Element[]} own      elements whose pixels count as the field's own (targets, labels)
 */
/** @typedef {{left: number, top: number, right: number, bottom: number}} Box */

// What the person reads after "you cannot see this field (…)"; the service worker adds "in a frame
// you cannot see" (background/hidden_frames.js).
const REASONS = {
  hidden: "hidden",
  transparent: "transparent (opacity 0)",
  outside: "outside the page",
  tiny: "too small to see",
  clipped: "clipped",
  covered: "covered by another element",
  collapsed: "inside a collapsed container",
};

// How far each reason got through the checks: of several targets, the one that got furthest
// explains the field best (a select2 whose box is covered is "covered", not "hidden" like its
// <select>).
const DEPTH = {
  [REASONS.hidden]: 0, [REASONS.transparent]: 1, [REASONS.tiny]: 2, [REASONS.collapsed]: 3,
  [REASONS.clipped]: 3, [REASONS.outside]: 3, [REASONS.covered]: 4,
};

const MIN_SIZE = 4; // CSS px of visible area, each way
const MIN_OPACITY = 0.1; // less, even with ancestors multiplied in, reads as invisible
const OPAQUE = 0.9; // a covering background at least this opaque hides what is under it
const PAINTED = new Set(["IMG", "VIDEO", "CANVAS", "IFRAME", "FRAME", "EMBED", "OBJECT", "PICTURE"]);
const NATIVE_LOOK = new Set(["SELECT", "BUTTON"]);
const VISIBLE = /** @type {Sight} */ ({ visible: true, reason: "" });

/**
 * Check several fields in one go (scroll positions are restored once, at the end). Past
 * `deadline` (performance.now() time) the rest is not checked: the answer then covers only the
 * first items.
 * @param {SightItem[]} items @param {number} [deadline]
 * @returns {Sight[]}
 */
function perceive(items, deadline = Infinity) {
  const keeper = new ScrollKeeper();
  const styles = new StyleCache();
  /** @type {Sight[]} */
  const sights = [];
  try {
    for (const item of items) {
      if (performance.now() >= deadline) break;
      sights.push(sightOf(item, keeper, styles));
    }
    return sights;
  } finally {
    keeper.restore();
  }
}

/** @param {SightItem} item @param {ScrollKeeper} keeper @param {StyleCache} styles @returns {Sight} */
function sightOf(item, keeper, styles) {
  let best = "";
  for (const target of new Set(item.targets)) {
    const reason = targetSight(target, item.own, keeper, styles);
    if (!reason) return VISIBLE;
    if (!best || DEPTH[reason] > DEPTH[best]) best = reason;
  }
  return { visible: false, reason: best || REASONS.hidden };
}

/**
 * Why a person cannot see `target`, or "" when they can.
 * @param {Element} target @param {Element[]} own @param {ScrollKeeper} keeper @param {StyleCache} styles
 */
function targetSight(target, own, keeper, styles) {
  if (!target.isConnected) return REASONS.hidden;
  const check = /** @type {any} */ (target).checkVisibility;
  if (typeof check === "function" && !check.call(target, { visibilityProperty: true })) return REASONS.hidden;
  const chain = chainOf(target, styles);
  if (chain.opacity < MIN_OPACITY) return REASONS.transparent;
  let seen = geometry(target, chain);
  if (typeof seen === "string") return seen;
  // Hit-test the points in view now; if none shows the field, bring it to the middle of the view
  // (where fixed banners and headers usually are not) and try again.
  const first = hitTest(target, own, seen, styles);
  if (first === "seen") return "";
  if (!chain.fixed && keeper.center(target, seen, chain.scrollers)) {
    seen = geometry(target, chain);
    if (typeof seen === "string") return seen;
    const second = hitTest(target, own, seen, styles);
    if (second === "seen") return "";
    return verdict(second === "none" ? first : second, target, styles);
  }
  return verdict(first, target, styles);
}

/**
 * @param {"covered"|"absent"|"none"} outcome @param {Element} target @param {StyleCache} styles
 */
function verdict(outcome, target, styles) {
  if (outcome === "covered") return REASONS.covered;
  // Nothing to hit-test in view, or the target takes no hits: an element with
  // pointer-events:none, or content the browser skips until it is scrolled to
  // (content-visibility:auto). Its geometry said it shows.
  if (outcome === "none" || styles.get(target).pointerEvents === "none") return "";
  const check = /** @type {any} */ (target).checkVisibility;
  if (typeof check === "function" && !check.call(target, { contentVisibilityAuto: true })) return "";
  return REASONS.clipped; // clip-path or a mask took its pixels
}

// --- geometry ---------------------------------------------------------------------------------

/**
 * @typedef {object} Clipper
 * @property {Element} el
 * @property {"hidden"|"scroll"|"clip"|"clip-path"} kind
 * @property {boolean} x   clips horizontally (overflow kinds)
 * @property {boolean} y   clips vertically
 * @property {string} [shape]  the clip / clip-path value
 */
/**
 * @typedef {object} Chain
 * @property {number} opacity        the element's opacity times its ancestors'
 * @property {Clipper[]} clippers    innermost first
 * @property {Element[]} scrollers   containers a person can scroll, innermost first
 * @property {boolean} fixed         positioned against the viewport (scrolling never shows more)
 */

/** The element's ancestors as layout sees them (slots, shadow hosts). @param {Element} el */
function flatParent(el) {
  if (el.assignedSlot) return el.assignedSlot;
  if (el.parentElement) return el.parentElement;
  const parent = el.parentNode;
  return parent instanceof ShadowRoot ? parent.host : null;
}

/**
 * What may hide the element: opacity along its ancestors, and the ancestors that clip it. Only
 * ancestors on its containing-block chain clip by overflow (an absolutely positioned element
 * escapes an overflow:hidden box that is not positioned).
 * @param {Element} el @param {StyleCache} styles @returns {Chain}
 */
function chainOf(el, styles) {
  const own = styles.get(el);
  let position = own.position;
  /** @type {Clipper[]} */
  const clippers = [];
  /** @type {Element[]} */
  const scrollers = [];
  addShapes(el, own, clippers);
  const root = el.ownerDocument.documentElement;
  const body = el.ownerDocument.body;
  for (let anc = flatParent(el); anc; anc = flatParent(anc)) {
    const s = styles.get(anc);
    addShapes(anc, s, clippers);
    if (anc === root || anc === body) continue; // their overflow is the viewport's: the document extent
    const contains = position === "fixed" ? s.holdsFixed
      : position === "absolute" ? s.position !== "static" || s.holdsFixed
        : true;
    if (!contains) continue;
    position = s.position;
    if (s.display === "inline" || s.display === "contents") continue;
    const hx = s.overflowX === "hidden" || s.overflowX === "clip";
    const hy = s.overflowY === "hidden" || s.overflowY === "clip";
    const sx = s.overflowX === "auto" || s.overflowX === "scroll";
    const sy = s.overflowY === "auto" || s.overflowY === "scroll";
    if (hx || hy) clippers.push({ el: anc, kind: "hidden", x: hx, y: hy });
    if (sx || sy) {
      clippers.push({ el: anc, kind: "scroll", x: sx, y: sy });
      scrollers.push(anc);
    }
  }
  return { opacity: styles.opacityOf(el), clippers, scrollers, fixed: position === "fixed" };
}

/** CSS clip (absolutely positioned boxes only) and clip-path. @param {Element} el @param {Style} s @param {Clipper[]} out */
function addShapes(el, s, out) {
  if (s.clip !== "auto" && (s.position === "absolute" || s.position === "fixed")) {
    out.push({ el, kind: "clip", x: true, y: true, shape: s.clip });
  }
  if (s.clipPath !== "none") out.push({ el, kind: "clip-path", x: true, y: true, shape: s.clipPath });
}

/**
 * The part of the element a person can reach, in viewport coordinates, or the reason there is
 * none: too small, cut away by a container or clip, outside what the page can scroll to.
 * @param {Element} el @param {Chain} chain @returns {Box|string}
 */
function geometry(el, chain) {
  const r = el.getBoundingClientRect();
  if (r.width < MIN_SIZE || r.height < MIN_SIZE) return REASONS.tiny;
  /** @type {Box} */
  let box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  for (const c of chain.clippers) {
    const area = clipArea(c);
    if (!area) continue;
    box = intersect(box, area);
    if (tooSmall(box)) {
      if (c.kind === "hidden" && collapsed(c.el)) return REASONS.collapsed;
      return REASONS.clipped;
    }
  }
  box = intersect(box, pageArea(el.ownerDocument, chain.fixed));
  return tooSmall(box) ? REASONS.outside : box;
}

/** @param {Element} el  an overflow:hidden box with no room to show anything */
function collapsed(el) {
  return el.clientWidth < MIN_SIZE || el.clientHeight < MIN_SIZE;
}

/** @param {Box} b */
function tooSmall(b) {
  return b.right - b.left < MIN_SIZE || b.bottom - b.top < MIN_SIZE;
}

/** @param {Box} a @param {Box} b @returns {Box} */
function intersect(a, b) {
  return {
    left: Math.max(a.left, b.left), top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom),
  };
}

/**
 * The area a clipper leaves visible, in viewport coordinates (null: it cannot be worked out, and
 * hit-testing decides). A scroll container shows all it can scroll to; overflow:hidden only what
 * it shows now, since a person cannot scroll it.
 * @param {Clipper} c @returns {Box|null}
 */
function clipArea(c) {
  const r = c.el.getBoundingClientRect();
  if (c.kind === "clip") return rectShape(/** @type {string} */ (c.shape), r);
  if (c.kind === "clip-path") return pathShape(/** @type {string} */ (c.shape), r);
  const el = c.el;
  const left = r.left + el.clientLeft;
  const top = r.top + el.clientTop;
  const all = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
  if (c.kind === "hidden") {
    return {
      left: c.x ? left : all.left, right: c.x ? left + el.clientWidth : all.right,
      top: c.y ? top : all.top, bottom: c.y ? top + el.clientHeight : all.bottom,
    };
  }
  const rtl = getComputedStyle(el).direction === "rtl";
  const startX = rtl ? left - (el.scrollWidth - el.clientWidth) - el.scrollLeft : left - el.scrollLeft;
  const startY = top - el.scrollTop;
  return {
    left: c.x ? startX : all.left, right: c.x ? startX + el.scrollWidth : all.right,
    top: c.y ? startY : all.top, bottom: c.y ? startY + el.scrollHeight : all.bottom,
  };
}

/**
 * What the page can ever show: the document's scrollable extent (nothing left of or above its
 * origin), or the viewport for content fixed to it.
 * @param {Document} doc @param {boolean} fixed @returns {Box}
 */
function pageArea(doc, fixed) {
  const view = viewport(doc);
  if (fixed) return { left: 0, top: 0, right: view.width, bottom: view.height };
  const scroller = doc.scrollingElement ?? doc.documentElement;
  const win = doc.defaultView ?? window;
  const rtl = getComputedStyle(doc.documentElement).direction === "rtl";
  const width = Math.max(scroller.scrollWidth, view.width);
  const height = Math.max(scroller.scrollHeight, view.height);
  const left = rtl ? view.width - width - win.scrollX : -win.scrollX;
  const top = -win.scrollY;
  return { left, top, right: left + width, bottom: top + height };
}

/** The viewport without scrollbars. @param {Document} doc */
function viewport(doc) {
  const el = doc.scrollingElement ?? doc.documentElement;
  const win = doc.defaultView ?? window;
  return { width: el?.clientWidth || win.innerWidth, height: el?.clientHeight || win.innerHeight };
}

/**
 * `clip: rect(top, right, bottom, left)`, offsets from the border box's top left.
 * @param {string} value @param {DOMRect} r @returns {Box|null}
 */
function rectShape(value, r) {
  const m = /^rect\((.*)\)$/.exec(value.trim());
  if (!m) return null;
  const parts = m[1].split(/[\s,]+/).filter(Boolean);
  if (parts.length !== 4) return null;
  const at = (/** @type {string} */ p, /** @type {number} */ auto) => (p === "auto" ? auto : parseFloat(p));
  const [top, right, bottom, left] = [at(parts[0], 0), at(parts[1], r.width), at(parts[2], r.height), at(parts[3], 0)];
  if ([top, right, bottom, left].some(Number.isNaN)) return null;
  return { left: r.left + left, top: r.top + top, right: r.left + right, bottom: r.top + bottom };
}

/**
 * The bounding box of a clip-path's basic shape (inset, circle, ellipse, polygon) over the border
 * box; null for shapes it cannot work out (url(), path()), which hit-testing then judges.
 * @param {string} value @param {DOMRect} r @returns {Box|null}
 */
function pathShape(value, r) {
  const m = /^(inset|circle|ellipse|polygon)\((.*)\)/.exec(value.trim());
  if (!m) return null;
  const len = (/** @type {string} */ s, /** @type {number} */ of) => {
    const n = parseFloat(s);
    if (Number.isNaN(n)) return NaN;
    return s.trim().endsWith("%") ? (n / 100) * of : n;
  };
  const args = m[2];
  if (m[1] === "inset") {
    const v = args.split(/\s+round\s+/)[0].trim().split(/\s+/);
    const [t, rt = t, b = t, l = rt] = v;
    const box = {
      left: r.left + len(l, r.width), top: r.top + len(t, r.height),
      right: r.right - len(rt, r.width), bottom: r.bottom - len(b, r.height),
    };
    return Object.values(box).some(Number.isNaN) ? null : box;
  }
  if (m[1] === "polygon") {
    const points = args.replace(/^\s*(nonzero|evenodd)\s*,/, "").split(",").map((p) => p.trim().split(/\s+/));
    const xs = points.map(([x]) => r.left + len(x ?? "", r.width));
    const ys = points.map(([, y]) => r.top + len(y ?? "", r.height));
    if ([...xs, ...ys].some(Number.isNaN)) return null;
    return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
  }
  // circle(R at X Y) / ellipse(RX RY at X Y): only a zero radius is sure to hide everything.
  const radii = args.split(/\s+at\s+/)[0].trim().split(/\s+/).filter(Boolean);
  const zero = radii.length > 0 && radii.some((x) => parseFloat(x) === 0);
  return zero ? { left: r.left, top: r.top, right: r.left, bottom: r.top } : null;
}

// --- covering -----------------------------------------------------------------------------------

/**
 * Hit-test a few points of the visible area. "seen": some point shows the field (or only
 * see-through things lie over it); "covered": something opaque lies over every point tested;
 * "absent": the field takes no hits there; "none": no point was in view.
 * @param {Element} target @param {Element[]} own @param {Box} box @param {StyleCache} styles
 * @returns {"seen"|"covered"|"absent"|"none"}
 */
function hitTest(target, own, box, styles) {
  const root = /** @type {Document|ShadowRoot} */ (target.getRootNode());
  const doc = target.ownerDocument;
  if (typeof root.elementsFromPoint !== "function") return "none";
  const view = viewport(doc);
  const inView = intersect(box, { left: 0, top: 0, right: view.width, bottom: view.height });
  if (tooSmall(inView)) return "none";
  const mine = new Set(own);
  let covered = false;
  for (const [fx, fy] of [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]) {
    const x = inView.left + (inView.right - inView.left) * fx;
    const y = inView.top + (inView.bottom - inView.top) * fy;
    // The topmost hit alone settles most points (the field shows there) and costs a fraction of
    // the whole stack, which is read only when something else is on top.
    const top = root.elementFromPoint(x, y);
    if (top && ownsHit(mine, top)) return "seen";
    const at = pointSight(root.elementsFromPoint(x, y), target, mine, styles);
    if (at === "seen") return "seen";
    if (at === "covered") covered = true;
  }
  return covered ? "covered" : "absent";
}

/**
 * What one point shows: the field (perhaps under see-through things), something opaque over it,
 * or no part of the field at all.
 * @param {Element[]} stack  topmost first @param {Element} target @param {Set<Element>} own
 * @param {StyleCache} styles @returns {"seen"|"covered"|"absent"}
 */
function pointSight(stack, target, own, styles) {
  const mine = stack.findIndex((hit) => ownsHit(own, hit));
  const above = mine < 0 ? stack : stack.slice(0, mine);
  for (const hit of above) {
    if (hit.hasAttribute(RELAY_UI_ATTR)) continue; // Relay's own marks and panel
    // Without the field in the stack, its ancestors are under the point only as its background.
    if (mine < 0 && containsDeep(hit, target)) continue;
    if (paintsOver(hit, styles)) return "covered";
  }
  return mine < 0 ? "absent" : "seen";
}

/** Whether a hit lands on one of the field's own elements or inside one. @param {Set<Element>} own @param {Element} hit */
function ownsHit(own, hit) {
  for (let node = /** @type {Element|null} */ (hit); node; node = composedParent(node)) {
    if (own.has(node)) return true;
  }
  return false;
}

/**
 * Whether an element hides what lies under it: an image or other replaced content, a control
 * drawn by the platform, or an (almost) opaque background; transparent wrappers and bare text
 * leave the field readable.
 * @param {Element} el @param {StyleCache} styles
 */
function paintsOver(el, styles) {
  const alpha = styles.opacityOf(el);
  if (alpha < MIN_OPACITY) return false;
  const s = styles.get(el);
  if (PAINTED.has(el.tagName) || el instanceof SVGElement) return true;
  if (NATIVE_LOOK.has(el.tagName) && s.appearance !== "none") return true;
  if (s.backgroundImage !== "none" && alpha >= 0.5) return true;
  return colorAlpha(s.backgroundColor) * alpha >= OPAQUE;
}

/** The alpha of a computed colour ("rgba(0, 0, 0, 0)", "rgb(…)", "color(srgb … / a)"). @param {string} color */
function colorAlpha(color) {
  if (!color || color === "transparent") return 0;
  const slash = /\/\s*([\d.]+%?)\s*\)$/.exec(color);
  if (slash) return slash[1].endsWith("%") ? parseFloat(slash[1]) / 100 : parseFloat(slash[1]);
  const m = /^rgba\([^,]+,[^,]+,[^,]+,\s*([\d.]+)\s*\)$/.exec(color);
  return m ? parseFloat(m[1]) : 1;
}

// --- scrolling ----------------------------------------------------------------------------------

/** Scrolls the document and scroll containers, remembering where each was, and puts them back. */
class ScrollKeeper {
  constructor() {
    /** @type {Map<Element|Window, {left: number, top: number}>} */
    this.saved = new Map();
  }

  /**
   * Scroll so the visible area's middle is in the middle of each container and of the view.
   * @param {Element} target @param {Box} box @param {Element[]} scrollers
   * @returns {boolean} whether anything moved
   */
  center(target, box, scrollers) {
    const r0 = target.getBoundingClientRect();
    const dx = (box.left + box.right) / 2 - r0.left;
    const dy = (box.top + box.bottom) / 2 - r0.top;
    const middle = () => {
      const r = target.getBoundingClientRect();
      return { x: r.left + dx, y: r.top + dy };
    };
    let moved = false;
    for (const el of scrollers) {
      const r = el.getBoundingClientRect();
      const p = middle();
      moved = this.by(el, p.x - (r.left + el.clientLeft + el.clientWidth / 2),
        p.y - (r.top + el.clientTop + el.clientHeight / 2)) || moved;
    }
    const doc = target.ownerDocument;
    const win = doc.defaultView;
    if (win) {
      const view = viewport(doc);
      const p = middle();
      moved = this.by(win, p.x - view.width / 2, p.y - view.height / 2) || moved;
    }
    return moved;
  }

  /** @param {Element|Window} box @param {number} dx @param {number} dy */
  by(box, dx, dy) {
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return false;
    const at = position(box);
    if (!this.saved.has(box)) this.saved.set(box, at);
    box.scrollTo({ left: at.left + dx, top: at.top + dy, behavior: "instant" });
    const now = position(box);
    return now.left !== at.left || now.top !== at.top;
  }

  restore() {
    for (const [box, at] of [...this.saved].reverse()) {
      box.scrollTo({ left: at.left, top: at.top, behavior: "instant" });
    }
    this.saved.clear();
  }
}

/** @param {Element|Window} box */
function position(box) {
  return box instanceof Element ? { left: box.scrollLeft, top: box.scrollTop }
    : { left: box.scrollX, top: box.scrollY };
}

// --- styles -------------------------------------------------------------------------------------

/**
 * @typedef {object} Style
 * @property {number} opacity
 * @property {string} position
 * @property {string} display
 * @property {string} overflowX
 * @property {string} overflowY
 * @property {string} clip
 * @property {string} clipPath
 * @property {boolean} holdsFixed  a containing block for fixed descendants (transform, filter, …)
 * @property {string} pointerEvents
 * @property {string} appearance
 * @property {string} backgroundColor
 * @property {string} backgroundImage
 */

/** Computed styles read once per check (styles do not change while Relay scrolls). */
class StyleCache {
  constructor() {
    /** @type {Map<Element, Style>} */
    this.styles = new Map();
    /** @type {Map<Element, number>} */
    this.opacities = new Map();
  }

  /** @param {Element} el @returns {Style} */
  get(el) {
    let s = this.styles.get(el);
    if (!s) {
      const c = getComputedStyle(el);
      s = {
        opacity: Number(c.opacity || 1),
        position: c.position,
        display: c.display,
        overflowX: c.overflowX,
        overflowY: c.overflowY,
        clip: c.clip || "auto",
        clipPath: c.clipPath || "none",
        holdsFixed: c.transform !== "none" || c.perspective !== "none" || c.filter !== "none"
          || (c.backdropFilter ?? "none") !== "none" || /paint|layout|strict|content/.test(c.contain)
          || /transform|perspective|filter/.test(c.willChange) || (c.containerType ?? "normal") !== "normal",
        pointerEvents: c.pointerEvents,
        appearance: c.appearance,
        backgroundColor: c.backgroundColor,
        backgroundImage: c.backgroundImage,
      };
      this.styles.set(el, s);
    }
    return s;
  }

  /** The element's opacity times its ancestors'. @param {Element} el */
  opacityOf(el) {
    let known = this.opacities.get(el);
    if (known === undefined) {
      const parent = flatParent(el);
      known = this.get(el).opacity * (parent ? this.opacityOf(parent) : 1);
      this.opacities.set(el, known);
    }
    return known;
  }
}

relayContent.visibility = { perceive };
})();
