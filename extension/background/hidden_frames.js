// A field inside a frame the person cannot see is not seen either. Each frame's snapshot says
// which of its iframes a person can see, by their index among its child frames (`window[i]`),
// and its own index among its parent's; a frame hidden in its parent hides every frame inside
// it, and all their fields.

export const IN_HIDDEN_FRAME = "in a frame you cannot see";

/**
 * Mark the fields of hidden frames (and of the frames inside them) as not visible, in place.
 * @param {{frameId: number, parentFrameId: number}[]} frames  the tab's frames
 * @param {{frameId: number, reply: Record<string, any>|null}[]} answers  each frame's snapshot
 * @param {{frame: string, fields: Record<string, any>[]}[]} snapshots
 */
export function hideFieldsOfHiddenFrames(frames, answers, snapshots) {
  /** @type {Set<string>} "parent/index" of the iframes their parent says nobody sees */
  const hiddenSlots = new Set();
  for (const { frameId, reply } of answers) {
    for (const child of reply?.child_frames ?? []) {
      if (child?.visible === false) hiddenSlots.add(`${frameId}/${child.index}`);
    }
  }
  if (!hiddenSlots.size) return;
  const parentOf = new Map(frames.map((f) => [f.frameId, f.parentFrameId]));
  const hidden = new Set(answers
    .filter(({ frameId, reply }) => reply && hiddenSlots.has(`${parentOf.get(frameId)}/${reply.frame_index}`))
    .map(({ frameId }) => frameId));
  /** @param {number} id */
  const inHidden = (id) => {
    for (let cur = id, depth = 0; cur > 0 && depth < 64; depth += 1) {
      if (hidden.has(cur)) return true;
      cur = parentOf.get(cur) ?? -1;
    }
    return false;
  };
  for (const snap of snapshots) {
    if (!inHidden(Number(snap.frame))) continue;
    for (const field of snap.fields) {
      field.visible = false;
      field.hidden_reason = IN_HIDDEN_FRAME;
    }
  }
}
