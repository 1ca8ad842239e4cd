// The geometry of the playgrounds' plots (chapters 1, 3 and 4): the part of the view on
// one side of a line, a line's segment inside the view, and the square view around a data
// set with its grid steps.

import { niceStep } from "./dom.mjs";

/** Part of the convex polygon where a x + b y + c >= 0 (Sutherland-Hodgman, one edge). */
export function clipPolygon(poly, a, b, c) {
  const out = [];
  for (let k = 0; k < poly.length; k++) {
    const p = poly[k];
    const q = poly[(k + 1) % poly.length];
    const fp = a * p[0] + b * p[1] + c;
    const fq = a * q[0] + b * q[1] + c;
    if (fp >= 0) out.push(p);
    if (fp >= 0 !== fq >= 0) {
      const s = fp / (fp - fq);
      out.push([p[0] + s * (q[0] - p[0]), p[1] + s * (q[1] - p[1])]);
    }
  }
  return out;
}

/** Endpoints of the line a x + b y + c = 0 inside the box, or null. */
export function lineInBox(a, b, c, v) {
  const pts = [];
  const eps = 1e-12 * v.span;
  if (b !== 0) {
    for (const x of [v.x0, v.x1]) {
      const y = -(a * x + c) / b;
      if (y >= v.y0 - eps && y <= v.y1 + eps) pts.push([x, y]);
    }
  }
  if (a !== 0) {
    for (const y of [v.y0, v.y1]) {
      const x = -(b * y + c) / a;
      if (x >= v.x0 - eps && x <= v.x1 + eps) pts.push([x, y]);
    }
  }
  if (pts.length < 2) return null;
  let best = null;
  let far = -1;
  for (let i = 0; i < pts.length; i++) {
    for (let j = i + 1; j < pts.length; j++) {
      const d = Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]);
      if (d > far) {
        far = d;
        best = [pts[i], pts[j]];
      }
    }
  }
  return far > 0 ? best : null;
}

/** A square view around the points, grown by 1 on every side, like the Python explorers. */
export function viewFor(X) {
  let lo = [-2, -2];
  let hi = [2, 2];
  if (X.length) {
    lo = [Infinity, Infinity];
    hi = [-Infinity, -Infinity];
    for (const [a, b] of X) {
      lo = [Math.min(lo[0], a), Math.min(lo[1], b)];
      hi = [Math.max(hi[0], a), Math.max(hi[1], b)];
    }
  }
  const span = Math.max(hi[0] - lo[0] + 2, hi[1] - lo[1] + 2, 4);
  const mid = [(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2];
  return viewFrom(mid[0] - span / 2, mid[0] + span / 2, mid[1] - span / 2, mid[1] + span / 2, span);
}

/** The square view [x0, x1] x [y0, y1] of side span, with its grid steps. */
export function viewFrom(x0, x1, y0, y1, span) {
  const step = niceStep(span);
  const snap = step / 10; // new and moved points land on a 1/10 grid
  return { x0, x1, y0, y1, span, step, snap };
}

export function roundTo(v, s) {
  let out;
  if (s < 1) {
    const inv = Math.round(1 / s);
    out = Math.round(v * inv) / inv;
  } else {
    out = Math.round(v / s) * s;
  }
  return out === 0 ? 0 : out; // no -0
}
