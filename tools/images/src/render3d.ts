/**
 * A tiny "2.5D" renderer: furniture is modelled from convex primitives
 * (boxes, frustums, tubes, spheres, lines) in centimetres, projected with a
 * perspective camera and painted back-to-front into SVG markup.
 *
 * Coordinates: x = width (centred), y = up (floor at 0), z = depth (+z faces
 * the default camera).
 */
import { mix, shade } from './colour.js';

export type Vec3 = readonly [number, number, number];
export type FaceTag = 'top' | 'bottom' | 'front' | 'back' | 'left' | 'right' | 'side' | 'cap';
export type Finish =
  'matte' | 'wood' | 'fabric' | 'leather' | 'metal' | 'glass' | 'emissive' | 'ceramic';

export interface Material {
  colour: string;
  finish: Finish;
  /** Rounded-edge radius in cm (soft upholstery). The mesh must already be inset by it. */
  soft?: number;
  opacity?: number;
}

export type Decor =
  | { type: 'grain'; faces: FaceTag[]; lines: number; seed: number; along?: 'u' | 'v' }
  | { type: 'weave'; faces: FaceTag[]; n: number }
  | { type: 'channels'; faces: FaceTag[]; n: number; along: 'u' | 'v' }
  | { type: 'buttons'; faces: FaceTag[]; nu: number; nv: number; margin?: number }
  | {
      type: 'band';
      faces: FaceTag[];
      from: number;
      to: number;
      along: 'u' | 'v';
      colour: string;
      opacity?: number;
    }
  | { type: 'speckle'; faces: FaceTag[]; n: number; colours: string[]; seed: number; size?: number }
  | { type: 'quilt'; faces: FaceTag[]; n: number }
  | { type: 'knit'; faces: FaceTag[]; rows: number; cols: number }
  | { type: 'fringe'; faces: FaceTag[]; n: number; length: number };

export interface Face {
  pts: Vec3[];
  tag: FaceTag;
  normal: Vec3;
}

interface PrimBase {
  mat: Material;
  min: Vec3;
  max: Vec3;
  /** Skipped by the contact-shadow pass (e.g. wall-mounted or hanging parts). */
  noShadow?: boolean;
  /** Ignored when framing the camera (ceiling roses, long cords). */
  noFit?: boolean;
}
export interface MeshPrim extends PrimBase {
  kind: 'mesh';
  faces: Face[];
  decor: Decor[];
  /** Surfaces of revolution: the first rows*cols faces form a grid, painted as smooth strips. */
  grid?: { rows: number; cols: number };
}
export interface SpherePrim extends PrimBase {
  kind: 'sphere';
  c: Vec3;
  r: number;
}
export interface LinePrim extends PrimBase {
  kind: 'line';
  pts: Vec3[];
  width: number;
}
export type Prim = MeshPrim | SpherePrim | LinePrim;

// ---------------------------------------------------------------- vector math
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, k: number): Vec3 => [a[0] * k, a[1] * k, a[2] * k];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const len = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
export const norm = (a: Vec3): Vec3 => {
  const l = len(a) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};
export const lerp3 = (a: Vec3, b: Vec3, t: number): Vec3 => [
  a[0] + (b[0] - a[0]) * t,
  a[1] + (b[1] - a[1]) * t,
  a[2] + (b[2] - a[2]) * t,
];
export const rad = (deg: number): number => (deg * Math.PI) / 180;

function at<T>(list: readonly T[], i: number): T {
  const v = list[((i % list.length) + list.length) % list.length];
  if (v === undefined) throw new Error('index out of range');
  return v;
}

function bounds(points: readonly Vec3[]): { min: Vec3; max: Vec3 } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const p of points) {
    for (let i = 0; i < 3; i++) {
      min[i] = Math.min(min[i] ?? Infinity, p[i] ?? 0);
      max[i] = Math.max(max[i] ?? -Infinity, p[i] ?? 0);
    }
  }
  return { min: min as unknown as Vec3, max: max as unknown as Vec3 };
}

function centroid(points: readonly Vec3[]): Vec3 {
  let c: Vec3 = [0, 0, 0];
  for (const p of points) c = add(c, p);
  return scale(c, 1 / Math.max(1, points.length));
}

/** Builds a convex mesh; normals are oriented away from the mesh centroid. */
function mesh(
  rawFaces: { pts: Vec3[]; tag: FaceTag }[],
  mat: Material,
  decor: Decor[] = [],
): MeshPrim {
  const all = rawFaces.flatMap((f) => f.pts);
  const mc = centroid(all);
  const faces: Face[] = [];
  for (const f of rawFaces) {
    // Newell normal (robust for degenerate quads, e.g. cone tips).
    let n: Vec3 = [0, 0, 0];
    for (let i = 0; i < f.pts.length; i++) {
      const a = at(f.pts, i);
      const b = at(f.pts, i + 1);
      n = add(n, [
        (a[1] - b[1]) * (a[2] + b[2]),
        (a[2] - b[2]) * (a[0] + b[0]),
        (a[0] - b[0]) * (a[1] + b[1]),
      ]);
    }
    if (len(n) < 1e-9) continue;
    n = norm(n);
    if (dot(n, sub(centroid(f.pts), mc)) < 0) n = scale(n, -1);
    faces.push({ pts: f.pts, tag: f.tag, normal: n });
  }
  const b = bounds(all);
  return { kind: 'mesh', faces, mat, decor, min: b.min, max: b.max };
}

// ----------------------------------------------------------------- primitives
export interface BoxOpts {
  decor?: Decor[];
}

/** Axis-aligned box from ranges. Quad vertex order is p00, p10, p11, p01 in face (u, v). */
export function box(
  x: readonly [number, number],
  y: readonly [number, number],
  z: readonly [number, number],
  mat: Material,
  opts: BoxOpts = {},
): MeshPrim {
  const r = mat.soft ?? 0;
  const [x0, x1] = [Math.min(...x) + r, Math.max(...x) - r];
  const [y0, y1] = [Math.min(...y) + r, Math.max(...y) - r];
  const [z0, z1] = [Math.min(...z) + r, Math.max(...z) - r];
  return mesh(
    [
      {
        tag: 'front',
        pts: [
          [x0, y0, z1],
          [x1, y0, z1],
          [x1, y1, z1],
          [x0, y1, z1],
        ],
      },
      {
        tag: 'back',
        pts: [
          [x1, y0, z0],
          [x0, y0, z0],
          [x0, y1, z0],
          [x1, y1, z0],
        ],
      },
      {
        tag: 'left',
        pts: [
          [x0, y0, z0],
          [x0, y0, z1],
          [x0, y1, z1],
          [x0, y1, z0],
        ],
      },
      {
        tag: 'right',
        pts: [
          [x1, y0, z1],
          [x1, y0, z0],
          [x1, y1, z0],
          [x1, y1, z1],
        ],
      },
      {
        tag: 'top',
        pts: [
          [x0, y1, z1],
          [x1, y1, z1],
          [x1, y1, z0],
          [x0, y1, z0],
        ],
      },
      {
        tag: 'bottom',
        pts: [
          [x0, y0, z0],
          [x1, y0, z0],
          [x1, y0, z1],
          [x0, y0, z1],
        ],
      },
    ],
    mat,
    opts.decor,
  );
}

/** Box given by centre (x, z), bottom y, and sizes. */
export function boxAt(
  cx: number,
  cz: number,
  y0: number,
  w: number,
  h: number,
  d: number,
  mat: Material,
  opts: BoxOpts = {},
): MeshPrim {
  return box([cx - w / 2, cx + w / 2], [y0, y0 + h], [cz - d / 2, cz + d / 2], mat, opts);
}

export interface CylOpts {
  seg?: number;
  phase?: number;
  decor?: Decor[];
  /** Squash horizontally: radius multiplier along x and z. */
  sx?: number;
  sz?: number;
}

/** Vertical frustum (cylinder when r0 === r1, cone when one radius is 0). */
export function cyl(
  cx: number,
  cz: number,
  y0: number,
  y1: number,
  r0: number,
  r1: number,
  mat: Material,
  opts: CylOpts = {},
): MeshPrim {
  const seg = opts.seg ?? 28;
  const phase = opts.phase ?? 0;
  const sx = opts.sx ?? 1;
  const sz = opts.sz ?? 1;
  const soft = mat.soft ?? 0;
  const ring = (y: number, r: number): Vec3[] =>
    Array.from({ length: seg }, (_, i) => {
      const a = phase + (i / seg) * Math.PI * 2;
      const rr = Math.max(0, r - soft);
      return [cx + Math.cos(a) * rr * sx, y, cz + Math.sin(a) * rr * sz] as Vec3;
    });
  const bottom = ring(y0 + soft, r0);
  const top = ring(y1 - soft, r1);
  const faces: { pts: Vec3[]; tag: FaceTag }[] = [];
  for (let i = 0; i < seg; i++) {
    faces.push({
      tag: 'side',
      pts: [at(bottom, i), at(bottom, i + 1), at(top, i + 1), at(top, i)],
    });
  }
  if (r1 > soft) faces.push({ tag: 'top', pts: [...top].reverse() });
  if (r0 > soft) faces.push({ tag: 'bottom', pts: bottom });
  return mesh(faces, mat, opts.decor);
}

/**
 * Surface of revolution around a vertical axis from a convex profile of
 * [radius, y] pairs (bottom to top). Produces a single convex mesh.
 */
export function lathe(
  cx: number,
  cz: number,
  profile: readonly (readonly [number, number])[],
  mat: Material,
  opts: CylOpts = {},
): MeshPrim {
  const seg = opts.seg ?? 32;
  const rings = profile.map(([r, y]) =>
    Array.from({ length: seg }, (_, i) => {
      const a = (i / seg) * Math.PI * 2;
      return [
        cx + Math.cos(a) * r * (opts.sx ?? 1),
        y,
        cz + Math.sin(a) * r * (opts.sz ?? 1),
      ] as Vec3;
    }),
  );
  const faces: { pts: Vec3[]; tag: FaceTag }[] = [];
  for (let k = 0; k < rings.length - 1; k++) {
    const lo = at(rings, k);
    const hi = at(rings, k + 1);
    for (let i = 0; i < seg; i++) {
      faces.push({ tag: 'side', pts: [at(lo, i), at(lo, i + 1), at(hi, i + 1), at(hi, i)] });
    }
  }
  const first = profile[0];
  const last = profile[profile.length - 1];
  if (first && first[0] > 0.01) faces.push({ tag: 'bottom', pts: at(rings, 0) });
  if (last && last[0] > 0.01) faces.push({ tag: 'top', pts: [...at(rings, -1)].reverse() });
  const m = mesh(faces, mat, opts.decor);
  // Degenerate faces are dropped by mesh(); only keep the grid when it is intact.
  if (m.faces.length === faces.length) m.grid = { rows: rings.length - 1, cols: seg };
  return m;
}

/** Frustum between two arbitrary points (legs, arms, rods). */
export function tube(a: Vec3, b: Vec3, r0: number, r1: number, mat: Material, seg = 12): MeshPrim {
  const axis = norm(sub(b, a));
  const helper: Vec3 = Math.abs(axis[1]) > 0.9 ? [1, 0, 0] : [0, 1, 0];
  const u = norm(cross(axis, helper));
  const v = cross(axis, u);
  const ring = (c: Vec3, r: number): Vec3[] =>
    Array.from({ length: seg }, (_, i) => {
      const t = (i / seg) * Math.PI * 2;
      return add(c, add(scale(u, Math.cos(t) * r), scale(v, Math.sin(t) * r)));
    });
  const ra = ring(a, r0);
  const rb = ring(b, r1);
  const faces: { pts: Vec3[]; tag: FaceTag }[] = [];
  for (let i = 0; i < seg; i++) {
    faces.push({ tag: 'side', pts: [at(ra, i), at(ra, i + 1), at(rb, i + 1), at(rb, i)] });
  }
  if (r0 > 0) faces.push({ tag: 'cap', pts: ra });
  if (r1 > 0) faces.push({ tag: 'cap', pts: rb });
  return mesh(faces, mat);
}

/** Square-section member between two points (slats, rails, splayed legs). */
export function beam(
  a: Vec3,
  b: Vec3,
  w: number,
  d: number,
  mat: Material,
  decor: Decor[] = [],
): MeshPrim {
  const axis = norm(sub(b, a));
  const helper: Vec3 = Math.abs(axis[1]) > 0.9 ? [0, 0, 1] : [0, 1, 0];
  const u = scale(norm(cross(axis, helper)), w / 2);
  const v = scale(norm(cross(axis, norm(cross(axis, helper)))), d / 2);
  const c = (p: Vec3, su: number, sv: number): Vec3 => add(p, add(scale(u, su), scale(v, sv)));
  const a00 = c(a, -1, -1),
    a10 = c(a, 1, -1),
    a11 = c(a, 1, 1),
    a01 = c(a, -1, 1);
  const b00 = c(b, -1, -1),
    b10 = c(b, 1, -1),
    b11 = c(b, 1, 1),
    b01 = c(b, -1, 1);
  return mesh(
    [
      { tag: 'side', pts: [a00, a10, b10, b00] },
      { tag: 'side', pts: [a10, a11, b11, b10] },
      { tag: 'side', pts: [a11, a01, b01, b11] },
      { tag: 'side', pts: [a01, a00, b00, b01] },
      { tag: 'cap', pts: [a00, a10, a11, a01] },
      { tag: 'cap', pts: [b00, b10, b11, b01] },
    ],
    mat,
    decor,
  );
}

export function sphere(c: Vec3, r: number, mat: Material): SpherePrim {
  return { kind: 'sphere', c, r, mat, min: sub(c, [r, r, r]), max: add(c, [r, r, r]) };
}

export function line(pts: Vec3[], width: number, mat: Material): LinePrim {
  const b = bounds(pts);
  const h = width / 2;
  return { kind: 'line', pts, width, mat, min: sub(b.min, [h, h, h]), max: add(b.max, [h, h, h]) };
}

/** Applies a point transform (rotations, translations) to primitives. */
export function transform(prims: readonly Prim[], fn: (p: Vec3) => Vec3): Prim[] {
  return prims.map((p): Prim => {
    if (p.kind === 'sphere') {
      const c = fn(p.c);
      return { ...p, c, min: sub(c, [p.r, p.r, p.r]), max: add(c, [p.r, p.r, p.r]) };
    }
    if (p.kind === 'line') {
      const pts = p.pts.map(fn);
      const b = bounds(pts);
      const h = p.width / 2;
      return { ...p, pts, min: sub(b.min, [h, h, h]), max: add(b.max, [h, h, h]) };
    }
    const faces = p.faces.map((f) => ({ ...f, pts: f.pts.map(fn) }));
    const m = mesh(faces, p.mat, p.decor);
    const grid = p.grid && m.faces.length === p.faces.length ? p.grid : undefined;
    return { ...m, noShadow: p.noShadow, noFit: p.noFit, ...(grid ? { grid } : {}) };
  });
}

export const translate =
  (d: Vec3) =>
  (p: Vec3): Vec3 =>
    add(p, d);

/** Rotation about the vertical axis through `pivot` (x, z). */
export const rotateY =
  (deg: number, pivot: Vec3 = [0, 0, 0]) =>
  (p: Vec3): Vec3 => {
    const a = rad(deg);
    const x = p[0] - pivot[0];
    const z = p[2] - pivot[2];
    return [
      pivot[0] + x * Math.cos(a) + z * Math.sin(a),
      p[1],
      pivot[2] - x * Math.sin(a) + z * Math.cos(a),
    ];
  };

/** Rotation about an x-parallel axis through `pivot` (tilts backrests: positive leans back). */
export const rotateX =
  (deg: number, pivot: Vec3 = [0, 0, 0]) =>
  (p: Vec3): Vec3 => {
    const a = rad(deg);
    const y = p[1] - pivot[1];
    const z = p[2] - pivot[2];
    return [
      p[0],
      pivot[1] + y * Math.cos(a) + z * Math.sin(a),
      pivot[2] - y * Math.sin(a) + z * Math.cos(a),
    ];
  };

/** Rotation about a z-parallel axis through `pivot`. */
export const rotateZ =
  (deg: number, pivot: Vec3 = [0, 0, 0]) =>
  (p: Vec3): Vec3 => {
    const a = rad(deg);
    const x = p[0] - pivot[0];
    const y = p[1] - pivot[1];
    return [
      pivot[0] + x * Math.cos(a) - y * Math.sin(a),
      pivot[1] + x * Math.sin(a) + y * Math.cos(a),
      p[2],
    ];
  };

// --------------------------------------------------------------------- camera
export interface Camera {
  pos: Vec3;
  f: Vec3;
  r: Vec3;
  u: Vec3;
  s: number;
  ox: number;
  oy: number;
  /** Direction towards the key light (world space). */
  light: Vec3;
}

export function makeCamera(target: Vec3, dist: number, yawDeg: number, elevDeg: number): Camera {
  const yaw = rad(yawDeg);
  const el = rad(elevDeg);
  const pos: Vec3 = [
    target[0] + dist * Math.cos(el) * Math.sin(yaw),
    target[1] + dist * Math.sin(el),
    target[2] + dist * Math.cos(el) * Math.cos(yaw),
  ];
  const f = norm(sub(target, pos));
  const r = norm(cross(f, [0, 1, 0]));
  const u = cross(r, f);
  // Key light: upper left, slightly in front of the subject.
  const light = norm(add(add(scale(r, -0.55), [0, 0.85, 0]), scale(f, -0.45)));
  return { pos, f, r, u, s: 1, ox: 0, oy: 0, light };
}

export interface P2 {
  x: number;
  y: number;
  z: number;
}

export function project(cam: Camera, p: Vec3): P2 {
  const d = sub(p, cam.pos);
  const z = Math.max(1e-3, dot(d, cam.f));
  return { x: cam.ox + (cam.s * dot(d, cam.r)) / z, y: cam.oy - (cam.s * dot(d, cam.u)) / z, z };
}

/** Pixels per centimetre at a world point. */
export function pxPerCm(cam: Camera, p: Vec3): number {
  return cam.s / Math.max(1e-3, dot(sub(p, cam.pos), cam.f));
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export function primPoints(prims: readonly Prim[]): Vec3[] {
  const pts: Vec3[] = [];
  for (const p of prims) {
    if (p.noFit) continue;
    if (p.kind === 'mesh') for (const f of p.faces) pts.push(...f.pts);
    else if (p.kind === 'line') pts.push(...p.pts);
    else {
      for (const d of [
        [1, 0, 0],
        [-1, 0, 0],
        [0, 1, 0],
        [0, -1, 0],
        [0, 0, 1],
        [0, 0, -1],
      ] as const) {
        pts.push(add(p.c, scale(d, p.r)));
      }
    }
  }
  return pts;
}

/**
 * Scales/offsets the camera so `points` fit inside `rect`.
 * alignY: 0 = top, 0.5 = centre, 1 = bottom of the rect.
 */
export function fitCamera(cam: Camera, points: readonly Vec3[], rect: Rect, alignY = 0.5): Camera {
  const raw: Camera = { ...cam, s: 1, ox: 0, oy: 0 };
  let minX = Infinity,
    maxX = -Infinity,
    minY = Infinity,
    maxY = -Infinity;
  for (const p of points) {
    const q = project(raw, p);
    minX = Math.min(minX, q.x);
    maxX = Math.max(maxX, q.x);
    minY = Math.min(minY, q.y);
    maxY = Math.max(maxY, q.y);
  }
  const s = Math.min(rect.w / Math.max(1e-6, maxX - minX), rect.h / Math.max(1e-6, maxY - minY));
  const ox = rect.x + rect.w / 2 - ((minX + maxX) / 2) * s;
  const freeY = rect.h - (maxY - minY) * s;
  const oy = rect.y + freeY * alignY - minY * s;
  return { ...cam, s, ox, oy };
}

/** Zooms an already-fitted camera by `k` around the projection of `focus`, placing it at (cx, cy). */
export function zoomCamera(cam: Camera, focus: Vec3, k: number, cx: number, cy: number): Camera {
  const q = project(cam, focus);
  const s = cam.s * k;
  return { ...cam, s, ox: cx - (q.x - cam.ox) * k, oy: cy - (q.y - cam.oy) * k };
}

// ------------------------------------------------------------------ painting
export interface SvgOut {
  defs: string[];
  body: string[];
}

const f1 = (n: number): string => (Math.round(n * 10) / 10).toString();
const ptsAttr = (ps: readonly P2[]): string => ps.map((p) => `${f1(p.x)},${f1(p.y)}`).join(' ');

let uid = 0;
/** Restarts SVG id numbering so each document is identical regardless of call order. */
export function resetIds(): void {
  uid = 0;
}
function nextId(prefix: string): string {
  uid += 1;
  return `${prefix}${uid.toString(36)}`;
}

function intensity(cam: Camera, n: Vec3, finish: Finish, at3?: Vec3): number {
  const lambert = Math.max(0, dot(n, cam.light));
  const sky = 0.5 + 0.5 * n[1];
  // Blinn-Phong highlight for glossy finishes.
  const view = at3 ? norm(sub(cam.pos, at3)) : scale(cam.f, -1);
  const h = norm(add(cam.light, view));
  const nh = Math.max(0, dot(n, h));
  switch (finish) {
    case 'metal':
      return 0.42 + 0.5 * lambert + 0.12 * sky + 0.7 * Math.pow(nh, 14);
    case 'ceramic':
    case 'glass':
      return 0.55 + 0.42 * lambert + 0.1 * sky + 0.4 * Math.pow(nh, 30);
    case 'leather':
      return 0.55 + 0.42 * lambert + 0.1 * sky + 0.14 * Math.pow(nh, 8);
    case 'fabric':
      return 0.62 + 0.36 * lambert + 0.08 * sky;
    case 'emissive':
      return 0.95 + 0.07 * lambert;
    default:
      return 0.55 + 0.45 * lambert + 0.1 * sky + 0.05 * Math.pow(nh, 10);
  }
}

function convexHull(points: P2[]): P2[] {
  const ps = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (ps.length < 3) return ps;
  const crossZ = (o: P2, a: P2, b: P2): number =>
    (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: P2[] = [];
  for (const p of ps) {
    while (lower.length >= 2 && crossZ(at(lower, -2), at(lower, -1), p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: P2[] = [];
  for (const p of [...ps].reverse()) {
    while (upper.length >= 2 && crossZ(at(upper, -2), at(upper, -1), p) <= 0) upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

function bilinear(q: readonly P2[], u: number, v: number): P2 {
  const [p00, p10, p11, p01] = [at(q, 0), at(q, 1), at(q, 2), at(q, 3)];
  const w00 = (1 - u) * (1 - v),
    w10 = u * (1 - v),
    w11 = u * v,
    w01 = (1 - u) * v;
  return {
    x: p00.x * w00 + p10.x * w10 + p11.x * w11 + p01.x * w01,
    y: p00.y * w00 + p10.y * w10 + p11.y * w11 + p01.y * w01,
    z: p00.z * w00 + p10.z * w10 + p11.z * w11 + p01.z * w01,
  };
}

function decorate(out: SvgOut, d: Decor, q: P2[], base: string, ppc: number): void {
  const dark = shade(base, 0.62);
  const light = shade(base, 1.25);
  const sw = Math.max(0.6, ppc * 0.35);
  const poly = (ps: P2[]): string => `M${ps.map((p) => `${f1(p.x)},${f1(p.y)}`).join('L')}`;
  const isQuad = q.length === 4;
  switch (d.type) {
    case 'grain': {
      if (!isQuad) return;
      let seed = d.seed;
      const rnd = (): number => {
        seed = (seed * 16807) % 2147483647;
        return seed / 2147483647;
      };
      const paths: string[] = [];
      for (let i = 0; i < d.lines; i++) {
        const c = (i + 0.5 + (rnd() - 0.5) * 0.8) / d.lines;
        const amp = 0.004 + rnd() * 0.012;
        const ph = rnd() * 6;
        const ps: P2[] = [];
        for (let t = 0; t <= 24; t++) {
          const s = t / 24;
          const off = c + Math.sin(s * 7 + ph) * amp + Math.sin(s * 17 + ph * 2) * amp * 0.4;
          ps.push(d.along === 'v' ? bilinear(q, off, s) : bilinear(q, s, off));
        }
        paths.push(poly(ps));
      }
      out.body.push(
        `<path d="${paths.join('')}" fill="none" stroke="${dark}" stroke-opacity="0.28" stroke-width="${f1(sw * 0.9)}"/>`,
      );
      return;
    }
    case 'weave': {
      if (!isQuad) return;
      const paths: string[] = [];
      for (let i = 1; i < d.n; i++) {
        const t = i / d.n;
        paths.push(poly([bilinear(q, t, 0), bilinear(q, t, 1)]));
        paths.push(poly([bilinear(q, 0, t), bilinear(q, 1, t)]));
      }
      out.body.push(
        `<path d="${paths.join('')}" fill="none" stroke="${dark}" stroke-opacity="0.4" stroke-width="${f1(sw * 1.4)}"/>`,
      );
      return;
    }
    case 'channels': {
      if (!isQuad) return;
      const paths: string[] = [];
      for (let i = 1; i < d.n; i++) {
        const t = i / d.n;
        paths.push(
          d.along === 'u'
            ? poly([bilinear(q, 0, t), bilinear(q, 1, t)])
            : poly([bilinear(q, t, 0.02), bilinear(q, t, 0.98)]),
        );
      }
      out.body.push(
        `<path d="${paths.join('')}" fill="none" stroke="${dark}" stroke-opacity="0.55" stroke-width="${f1(sw * 2.2)}" stroke-linecap="round"/>`,
      );
      return;
    }
    case 'buttons': {
      if (!isQuad) return;
      const m = d.margin ?? 0.12;
      const dots: string[] = [];
      for (let j = 0; j < d.nv; j++) {
        const odd = j % 2 === 1;
        const count = odd ? d.nu - 1 : d.nu;
        for (let i = 0; i < count; i++) {
          const u = m + ((i + (odd ? 1 : 0.5)) / d.nu) * (1 - 2 * m);
          const v = m + ((j + 0.5) / d.nv) * (1 - 2 * m);
          const p = bilinear(q, u, v);
          const r = Math.max(0.8, ppc * 0.9);
          dots.push(
            `<circle cx="${f1(p.x)}" cy="${f1(p.y)}" r="${f1(r * 1.8)}" fill="${dark}" fill-opacity="0.12"/>` +
              `<circle cx="${f1(p.x)}" cy="${f1(p.y)}" r="${f1(r)}" fill="${dark}" fill-opacity="0.7"/>` +
              `<circle cx="${f1(p.x - r * 0.3)}" cy="${f1(p.y - r * 0.3)}" r="${f1(r * 0.35)}" fill="${light}" fill-opacity="0.6"/>`,
          );
        }
      }
      out.body.push(...dots);
      return;
    }
    case 'band': {
      if (!isQuad) return;
      const ps =
        d.along === 'u'
          ? [
              bilinear(q, d.from, 0),
              bilinear(q, d.to, 0),
              bilinear(q, d.to, 1),
              bilinear(q, d.from, 1),
            ]
          : [
              bilinear(q, 0, d.from),
              bilinear(q, 1, d.from),
              bilinear(q, 1, d.to),
              bilinear(q, 0, d.to),
            ];
      out.body.push(
        `<polygon points="${ptsAttr(ps)}" fill="${d.colour}" fill-opacity="${d.opacity ?? 1}"/>`,
      );
      return;
    }
    case 'speckle': {
      let seed = d.seed;
      const rnd = (): number => {
        seed = (seed * 16807) % 2147483647;
        return seed / 2147483647;
      };
      const c: P2 = {
        x: q.reduce((s, p) => s + p.x, 0) / q.length,
        y: q.reduce((s, p) => s + p.y, 0) / q.length,
        z: 0,
      };
      const dots: string[] = [];
      for (let i = 0; i < d.n; i++) {
        const k = Math.floor(rnd() * q.length);
        const a = at(q, k);
        const b = at(q, k + 1);
        const s = rnd();
        const t = Math.sqrt(rnd()) * 0.92;
        const x = c.x + (a.x + (b.x - a.x) * s - c.x) * t;
        const y = c.y + (a.y + (b.y - a.y) * s - c.y) * t;
        const r = Math.max(0.7, ppc * (d.size ?? 0.7) * (0.5 + rnd()));
        dots.push(
          `<ellipse cx="${f1(x)}" cy="${f1(y)}" rx="${f1(r)}" ry="${f1(r * 0.7)}" fill="${at(d.colours, i)}"/>`,
        );
      }
      out.body.push(...dots);
      return;
    }
    case 'quilt': {
      if (!isQuad) return;
      const paths: string[] = [];
      for (let i = -d.n; i <= d.n; i++) {
        const t = i / d.n;
        paths.push(
          poly([
            bilinear(q, Math.max(0, t), Math.max(0, -t)),
            bilinear(q, Math.min(1, 1 + t), Math.min(1, 1 - t)),
          ]),
        );
        paths.push(
          poly([
            bilinear(q, Math.max(0, t), Math.min(1, 1 + t)),
            bilinear(q, Math.min(1, 1 + t), Math.max(0, t)),
          ]),
        );
      }
      out.body.push(
        `<path d="${paths.join('')}" fill="none" stroke="${dark}" stroke-opacity="0.25" stroke-width="${f1(sw)}"/>`,
      );
      return;
    }
    case 'knit': {
      if (!isQuad) return;
      const paths: string[] = [];
      for (let i = 0; i < d.cols; i++) {
        for (let j = 0; j < d.rows; j++) {
          const u0 = i / d.cols,
            u1 = (i + 0.5) / d.cols,
            u2 = (i + 1) / d.cols;
          const v0 = j / d.rows,
            v1 = (j + 1) / d.rows;
          paths.push(poly([bilinear(q, u0, v1), bilinear(q, u1, v0), bilinear(q, u2, v1)]));
        }
      }
      out.body.push(
        `<path d="${paths.join('')}" fill="none" stroke="${dark}" stroke-opacity="0.35" stroke-width="${f1(sw * 1.6)}" stroke-linejoin="round"/>`,
        `<path d="${paths.join('')}" fill="none" stroke="${light}" stroke-opacity="0.35" stroke-width="${f1(sw * 0.7)}" stroke-linejoin="round" transform="translate(0 ${f1(-sw)})"/>`,
      );
      return;
    }
    case 'fringe': {
      if (!isQuad) return;
      const paths: string[] = [];
      for (let i = 0; i <= d.n; i++) {
        const p = bilinear(q, i / d.n, 0);
        paths.push(`M${f1(p.x)},${f1(p.y)}l0,${f1(d.length * ppc)}`);
      }
      out.body.push(
        `<path d="${paths.join('')}" fill="none" stroke="${shade(base, 0.85)}" stroke-width="${f1(sw * 1.3)}" stroke-linecap="round"/>`,
      );
      return;
    }
  }
}

function polyArea(q: readonly P2[]): number {
  let a = 0;
  for (let i = 0; i < q.length; i++) {
    const p = at(q, i);
    const n = at(q, i + 1);
    a += p.x * n.y - n.x * p.y;
  }
  return Math.abs(a) / 2;
}

/** Faces smaller than this (px²) get flat fills: gradients are costly to rasterise and invisible there. */
const GRADIENT_MIN_AREA = 2500;

function faceFill(
  out: SvgOut,
  cam: Camera,
  face: Face,
  q: P2[],
  mat: Material,
): { fill: string; stroke: string } {
  const k = intensity(cam, face.normal, mat.finish, centroid(face.pts));
  const base = shade(mat.colour, k);
  const flat = { fill: base, stroke: base };
  if (mat.finish === 'emissive') return flat;
  // Curved surfaces (cylinder sides) are flat-shaded per facet; per-facet gradients would stripe.
  // Soft (upholstered) faces are widened by a rounded stroke; a gradient fill
  // would not match the flat stroke band, so keep them flat.
  if (
    q.length !== 4 ||
    face.tag === 'side' ||
    (mat.soft ?? 0) > 0 ||
    polyArea(q) < GRADIENT_MIN_AREA
  )
    return flat;
  const id = nextId('g');
  const vertical = Math.abs(face.normal[1]) < 0.5;
  if (mat.finish === 'metal' || mat.finish === 'glass') {
    // Anisotropic highlight band across the face.
    const a = bilinear(q, 0, 0.5);
    const b = bilinear(q, 1, 0.5);
    out.defs.push(
      `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${f1(a.x)}" y1="${f1(a.y)}" x2="${f1(b.x)}" y2="${f1(b.y)}">` +
        `<stop offset="0" stop-color="${shade(mat.colour, k * 0.8)}"/>` +
        `<stop offset="0.38" stop-color="${shade(mat.colour, k * 1.35)}"/>` +
        `<stop offset="0.62" stop-color="${shade(mat.colour, k)}"/>` +
        `<stop offset="1" stop-color="${shade(mat.colour, k * 0.75)}"/></linearGradient>`,
    );
    return { fill: `url(#${id})`, stroke: base };
  }
  const a = bilinear(q, 0.5, 0);
  const b = bilinear(q, 0.5, 1);
  const g0 = vertical ? (face.tag === 'cap' ? 0.97 : 0.9) : 1.04;
  const g1 = vertical ? 1.05 : 0.95;
  out.defs.push(
    `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${f1(a.x)}" y1="${f1(a.y)}" x2="${f1(b.x)}" y2="${f1(b.y)}">` +
      `<stop offset="0" stop-color="${shade(mat.colour, k * g0)}"/>` +
      `<stop offset="1" stop-color="${shade(mat.colour, k * g1)}"/></linearGradient>`,
  );
  return { fill: `url(#${id})`, stroke: base };
}

function paintMesh(out: SvgOut, cam: Camera, p: MeshPrim): void {
  const soft = p.mat.soft ?? 0;
  const visible = p.faces
    .map((f) => ({ f, facing: dot(f.normal, norm(sub(cam.pos, at(f.pts, 0)))) }))
    .filter((x) => x.facing > 1e-4)
    .sort((a, b) => a.facing - b.facing);
  if (visible.length === 0) return;
  const c = centroid(visible.flatMap((v) => v.f.pts));
  const ppc = pxPerCm(cam, c);
  const softPx = soft * ppc * 2;
  const opacity = p.mat.opacity ?? 1;
  const group: string[] = [];
  const projected = visible.map((v) => ({ ...v, q: v.f.pts.map((pt) => project(cam, pt)) }));
  if (p.mat.finish !== 'emissive' && p.mat.finish !== 'glass') {
    const hull = convexHull(projected.flatMap((v) => v.q));
    const edge = shade(p.mat.colour, 0.5);
    group.push(
      `<polygon points="${ptsAttr(hull)}" fill="${edge}" stroke="${edge}" stroke-opacity="0.7" stroke-width="${f1(softPx + Math.max(1, ppc * 0.25))}" stroke-linejoin="round"/>`,
    );
  }
  const body: SvgOut = { defs: out.defs, body: [] };
  const gridCount = p.grid ? p.grid.rows * p.grid.cols : 0;
  if (p.grid && p.mat.finish !== 'emissive') paintStrips(body, cam, p, p.grid);
  for (const v of projected) {
    if (gridCount > 0 && p.mat.finish !== 'emissive' && p.faces.indexOf(v.f) < gridCount) {
      for (const d of p.decor) {
        if (d.faces.includes(v.f.tag))
          decorate(
            body,
            d,
            v.q,
            shade(p.mat.colour, intensity(cam, v.f.normal, p.mat.finish, centroid(v.f.pts))),
            ppc,
          );
      }
      continue;
    }
    const paintStyle = faceFill(out, cam, v.f, v.q, p.mat);
    body.body.push(
      `<polygon points="${ptsAttr(v.q)}" fill="${paintStyle.fill}" stroke="${paintStyle.stroke}" stroke-width="${f1(Math.max(0.7, softPx))}" stroke-linejoin="round"/>`,
    );
    for (const d of p.decor) {
      if (d.faces.includes(v.f.tag)) {
        decorate(
          body,
          d,
          v.q,
          shade(p.mat.colour, intensity(cam, v.f.normal, p.mat.finish, centroid(v.f.pts))),
          ppc,
        );
      }
    }
  }
  group.push(...body.body);
  out.body.push(opacity < 1 ? `<g opacity="${opacity}">${group.join('')}</g>` : group.join(''));
}

/** Smoothly shaded columns for surfaces of revolution (gradient along each column). */
function paintStrips(
  out: SvgOut,
  cam: Camera,
  p: MeshPrim,
  grid: { rows: number; cols: number },
): void {
  const face = (k: number, i: number): Face | undefined => p.faces[k * grid.cols + i];
  const visible = (f: Face): boolean => dot(f.normal, norm(sub(cam.pos, at(f.pts, 0)))) > 1e-4;
  for (let i = 0; i < grid.cols; i++) {
    let k0 = -1;
    let k1 = -1;
    for (let k = 0; k < grid.rows; k++) {
      const f = face(k, i);
      if (f && visible(f)) {
        if (k0 < 0) k0 = k;
        k1 = k;
      }
    }
    if (k0 < 0) continue;
    const left: Vec3[] = [];
    const right: Vec3[] = [];
    const ks: number[] = [];
    for (let k = k0; k <= k1; k++) {
      const f = face(k, i);
      if (!f) continue;
      left.push(at(f.pts, 0));
      right.push(at(f.pts, 1));
      ks.push(intensity(cam, f.normal, p.mat.finish, centroid(f.pts)));
      if (k === k1) {
        left.push(at(f.pts, 3));
        right.push(at(f.pts, 2));
      }
    }
    const poly = [...left, ...[...right].reverse()].map((pt) => project(cam, pt));
    const mids = left.map((l, j) => project(cam, lerp3(l, at(right, j), 0.5)));
    const a = at(mids, 0);
    const b = at(mids, -1);
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const L2 = dx * dx + dy * dy || 1;
    const stops: string[] = [];
    for (let j = 0; j < mids.length; j++) {
      const m = at(mids, j);
      const t = Math.max(0, Math.min(1, ((m.x - a.x) * dx + (m.y - a.y) * dy) / L2));
      const kk =
        j === 0 ? at(ks, 0) : j === mids.length - 1 ? at(ks, -1) : (at(ks, j - 1) + at(ks, j)) / 2;
      stops.push(
        `<stop offset="${(Math.round(t * 1000) / 1000).toString()}" stop-color="${shade(p.mat.colour, kk)}"/>`,
      );
    }
    const id = nextId('l');
    out.defs.push(
      `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${f1(a.x)}" y1="${f1(a.y)}" x2="${f1(b.x)}" y2="${f1(b.y)}">${stops.join('')}</linearGradient>`,
    );
    out.body.push(
      `<polygon points="${ptsAttr(poly)}" fill="url(#${id})" stroke="${shade(p.mat.colour, at(ks, Math.floor(ks.length / 2)))}" stroke-width="0.8" stroke-linejoin="round"/>`,
    );
  }
}

function paintSphere(out: SvgOut, cam: Camera, p: SpherePrim): void {
  const q = project(cam, p.c);
  const r = p.r * pxPerCm(cam, p.c);
  const id = nextId('s');
  const col = p.mat.colour;
  if (p.mat.finish === 'emissive') {
    out.defs.push(
      `<radialGradient id="${id}" cx="0.45" cy="0.42" r="0.6"><stop offset="0" stop-color="#fffdf6"/><stop offset="0.55" stop-color="${mix(col, '#fff8e6', 0.6)}"/><stop offset="1" stop-color="${shade(col, 0.95)}"/></radialGradient>`,
    );
  } else {
    const hi =
      p.mat.finish === 'metal' || p.mat.finish === 'glass' || p.mat.finish === 'ceramic'
        ? 1.6
        : 1.2;
    out.defs.push(
      `<radialGradient id="${id}" cx="0.5" cy="0.5" r="0.55" fx="0.34" fy="0.3"><stop offset="0" stop-color="${shade(col, hi)}"/><stop offset="0.5" stop-color="${shade(col, 0.95)}"/><stop offset="1" stop-color="${shade(col, 0.6)}"/></radialGradient>`,
    );
  }
  out.body.push(
    `<circle cx="${f1(q.x)}" cy="${f1(q.y)}" r="${f1(r)}" fill="url(#${id})"${p.mat.opacity !== undefined ? ` opacity="${p.mat.opacity}"` : ''}/>`,
  );
}

function paintLine(out: SvgOut, cam: Camera, p: LinePrim): void {
  const q = p.pts.map((pt) => project(cam, pt));
  const w = p.width * pxPerCm(cam, centroid(p.pts));
  const col = p.mat.finish === 'metal' ? shade(p.mat.colour, 1.05) : shade(p.mat.colour, 0.9);
  out.body.push(
    `<polyline points="${ptsAttr(q)}" fill="none" stroke="${col}" stroke-width="${f1(Math.max(0.8, w))}" stroke-linecap="round" stroke-linejoin="round"${p.mat.opacity !== undefined ? ` stroke-opacity="${p.mat.opacity}"` : ''}/>`,
  );
}

function projectedBox(cam: Camera, p: Prim): { x0: number; x1: number; y0: number; y1: number } {
  let x0 = Infinity,
    x1 = -Infinity,
    y0 = Infinity,
    y1 = -Infinity;
  for (let i = 0; i < 8; i++) {
    const v: Vec3 = [
      i & 1 ? p.max[0] : p.min[0],
      i & 2 ? p.max[1] : p.min[1],
      i & 4 ? p.max[2] : p.min[2],
    ];
    const q = project(cam, v);
    x0 = Math.min(x0, q.x);
    x1 = Math.max(x1, q.x);
    y0 = Math.min(y0, q.y);
    y1 = Math.max(y1, q.y);
  }
  return { x0, x1, y0, y1 };
}

/** -1: a before b, 1: b before a, 0: unknown (use distance). */
function order(cam: Camera, a: Prim, b: Prim): number {
  const eps = 0.05;
  for (let i = 0; i < 3; i++) {
    const amax = a.max[i] ?? 0,
      amin = a.min[i] ?? 0,
      bmax = b.max[i] ?? 0,
      bmin = b.min[i] ?? 0;
    const c = cam.pos[i] ?? 0;
    if (amax <= bmin + eps) return c > (amax + bmin) / 2 ? -1 : 1;
    if (bmax <= amin + eps) return c > (bmax + amin) / 2 ? 1 : -1;
  }
  return 0;
}

function distance(cam: Camera, p: Prim): number {
  return len(sub(lerp3(p.min, p.max, 0.5), cam.pos));
}

/** Orders primitives back-to-front (topological sort on pairwise separating planes). */
export function sortPrims(cam: Camera, prims: readonly Prim[]): Prim[] {
  const n = prims.length;
  const boxes = prims.map((p) => projectedBox(cam, p));
  const dist = prims.map((p) => distance(cam, p));
  const before: number[][] = prims.map(() => []); // before[j] = indices that must be painted before j
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const bi = boxes[i],
        bj = boxes[j];
      if (!bi || !bj) continue;
      if (bi.x1 < bj.x0 || bj.x1 < bi.x0 || bi.y1 < bj.y0 || bj.y1 < bi.y0) continue;
      const pi = prims[i],
        pj = prims[j];
      if (!pi || !pj) continue;
      let o = order(cam, pi, pj);
      if (o === 0) o = (dist[i] ?? 0) >= (dist[j] ?? 0) ? -1 : 1;
      if (o < 0) before[j]?.push(i);
      else before[i]?.push(j);
    }
  }
  const done = new Array<boolean>(n).fill(false);
  const result: Prim[] = [];
  for (let step = 0; step < n; step++) {
    let pick = -1;
    for (let i = 0; i < n; i++) {
      if (done[i]) continue;
      if ((before[i] ?? []).every((j) => done[j])) {
        if (pick < 0 || (dist[i] ?? 0) > (dist[pick] ?? 0)) pick = i;
      }
    }
    if (pick < 0) {
      // Cycle: fall back to the farthest remaining primitive.
      for (let i = 0; i < n; i++) {
        if (!done[i] && (pick < 0 || (dist[i] ?? 0) > (dist[pick] ?? 0))) pick = i;
      }
    }
    done[pick] = true;
    const p = prims[pick];
    if (p) result.push(p);
  }
  return result;
}

export function paint(out: SvgOut, cam: Camera, prims: readonly Prim[]): void {
  for (const p of sortPrims(cam, prims)) {
    if (p.kind === 'mesh') paintMesh(out, cam, p);
    else if (p.kind === 'sphere') paintSphere(out, cam, p);
    else paintLine(out, cam, p);
  }
}

/** Projects a polygon lying in 3D (e.g. on the floor) to an SVG points attribute. */
export function polygonAttr(cam: Camera, pts: readonly Vec3[]): string {
  return ptsAttr(pts.map((p) => project(cam, p)));
}

export function projectedPath(cam: Camera, pts: readonly Vec3[], close = true): string {
  const q = pts.map((p) => project(cam, p));
  return `M${q.map((p) => `${f1(p.x)},${f1(p.y)}`).join('L')}${close ? 'Z' : ''}`;
}

export { f1 };
