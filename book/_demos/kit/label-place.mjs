// Labels next to a plot's points that do not overlap (chapter 3's margins and indices).
//
//   import { placeLabels, nearOffsets } from "../kit/label-place.mjs";
//   const where = placeLabels(items, obstacles, bounds);
//
// Greedy: the labels are taken in the order given (the most important first), and each
// goes to the first of its candidate places whose box is inside bounds and meets no box
// already placed and no obstacle (the points' marks); a label with no free place is
// hidden (null).  Boxes are {x0, y0, x1, y1} in the drawing's units.  Cheap enough to
// run at every step: a few candidates per label against the boxes placed so far.

/** Whether boxes a and b overlap (touching edges do not). */
export function overlaps(a, b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/**
 * Place labels.  items: [{x, y, w, h, offsets: [[dx, dy], ...]}], the label's box of
 * size w by h centred at (x + dx, y + dy) for each candidate; obstacles: boxes no label
 * may cover; bounds: the box every label must stay inside.  Returns, per item, the centre
 * [cx, cy] of its place or null (hidden).
 */
export function placeLabels(items, obstacles, bounds) {
  const placed = [];
  return items.map((it) => {
    for (const [dx, dy] of it.offsets) {
      const cx = it.x + dx;
      const cy = it.y + dy;
      const box = { x0: cx - it.w / 2, y0: cy - it.h / 2, x1: cx + it.w / 2, y1: cy + it.h / 2 };
      if (box.x0 < bounds.x0 || box.x1 > bounds.x1 || box.y0 < bounds.y0 || box.y1 > bounds.y1) continue;
      if (obstacles.some((o) => overlaps(box, o)) || placed.some((o) => overlaps(box, o))) continue;
      placed.push(box);
      return [cx, cy];
    }
    return null;
  });
}

/**
 * Candidate centres for a label of size w by h beside a point whose mark has half-width
 * r: below, above, right, left, then the four corners, each just clear of the mark.
 */
export function nearOffsets(w, h, r, gap = 2) {
  const dy = r + gap + h / 2;
  const dx = r + gap + w / 2;
  return [[0, dy], [0, -dy], [dx, 0], [-dx, 0], [dx, -dy], [dx, dy], [-dx, -dy], [-dx, dy]];
}
