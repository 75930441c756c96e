/**
 * Scene composition: backgrounds (room, studio, colour-block, luxe), props,
 * shadows, glows and camera framing around a furniture model.
 */
import type { PhotoSet } from '@showroom/contracts/product-images';
import { luminance, mix, shade } from './colour.js';
import type { CatalogDepartment, CatalogProduct } from './catalog.js';
import {
  BRASS,
  buildModel,
  propDiningChair,
  supportProps,
  type Glow,
  type Model,
} from './furniture.js';
import { createRng, type Rng } from './rng.js';
import {
  add,
  cyl,
  dot,
  lathe,
  line,
  sphere,
  f1,
  fitCamera,
  makeCamera,
  paint,
  primPoints,
  project,
  pxPerCm,
  resetIds,
  sub,
  transform,
  translate,
  zoomCamera,
  type Camera,
  type Prim,
  type Rect,
  type SvgOut,
  type Vec3,
} from './render3d.js';

type Style = 'room' | 'studio' | 'pop' | 'pop-room' | 'luxe' | 'luxe-studio';

// ------------------------------------------------------------------ palettes
const WALLS = ['#ece6dc', '#e4ded4', '#dde2d8', '#dfe2e4', '#ecdcd1', '#dcd5c7', '#e9e2cf'];
const FLOORS = ['#c9a67d', '#b08660', '#dcc6a3', '#bdb6ab', '#a98b6b'];
const RUGS = ['#d9d0c1', '#c7b9a5', '#b9c0b4', '#cdb5a3', '#aab3bd', '#e2d8c8'];
const POP = [
  '#f3a58f',
  '#f5d789',
  '#a8d5bf',
  '#a9c6e6',
  '#c8b5e3',
  '#f6c49d',
  '#9fd0d6',
  '#f0b6c6',
];
const LUXE_DARK = ['#233a31', '#1f2a3b', '#3b2329', '#2b2f36'];
const ART = ['#c8643f', '#2f4a5e', '#d8b26a', '#8aa08a', '#1f1f22', '#e7c4b4', '#6a7fa8'];

// ------------------------------------------------------------ 3D→2D helpers
const NEAR = 20;

function depth(cam: Camera, p: Vec3): number {
  return dot(sub(p, cam.pos), cam.f);
}

/** Clips a planar polygon against the camera near plane and projects it. */
function clipPath(cam: Camera, pts: readonly Vec3[]): string {
  const out: Vec3[] = [];
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i];
    const b = pts[(i + 1) % pts.length];
    if (!a || !b) continue;
    const da = depth(cam, a) - NEAR;
    const db = depth(cam, b) - NEAR;
    if (da >= 0) out.push(a);
    if (da >= 0 !== db >= 0) {
      const t = da / (da - db);
      out.push([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]);
    }
  }
  if (out.length < 3) return '';
  return `M${out
    .map((p) => project(cam, p))
    .map((q) => `${f1(q.x)},${f1(q.y)}`)
    .join('L')}Z`;
}

function clipSeg(cam: Camera, a: Vec3, b: Vec3): string {
  let p = a;
  let q = b;
  const da = depth(cam, p) - NEAR;
  const db = depth(cam, q) - NEAR;
  if (da < 0 && db < 0) return '';
  if (da < 0) p = add(p, scaleV(sub(q, p), da / (da - db)));
  if (db < 0) q = add(q, scaleV(sub(p, q), db / (db - da)));
  const s = project(cam, p);
  const e = project(cam, q);
  return `M${f1(s.x)},${f1(s.y)}L${f1(e.x)},${f1(e.y)}`;
}

const scaleV = (v: Vec3, k: number): Vec3 => [v[0] * k, v[1] * k, v[2] * k];
const r2 = (n: number): number => Math.round(n * 100) / 100;

/** Affine SVG matrix mapping the 100×100 unit square onto a small planar 3D quad. */
function quadMatrixPrecise(cam: Camera, origin: Vec3, uEnd: Vec3, vEnd: Vec3): string {
  const o = project(cam, origin);
  const u = project(cam, uEnd);
  const v = project(cam, vEnd);
  const r = (n: number): string => (Math.round(n * 10000) / 10000).toString();
  return `matrix(${r((u.x - o.x) / 100)} ${r((u.y - o.y) / 100)} ${r((v.x - o.x) / 100)} ${r((v.y - o.y) / 100)} ${f1(o.x)} ${f1(o.y)})`;
}

interface Bounds3 {
  min: Vec3;
  max: Vec3;
}

function primBounds(prims: readonly Prim[]): Bounds3 {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const p of prims) {
    for (let i = 0; i < 3; i++) {
      min[i] = Math.min(min[i] ?? 0, p.min[i] ?? 0);
      max[i] = Math.max(max[i] ?? 0, p.max[i] ?? 0);
    }
  }
  return { min: min as unknown as Vec3, max: max as unknown as Vec3 };
}

// ---------------------------------------------------------------- scene spec
interface SceneSpec {
  W: number;
  H: number;
  style: Style;
  rng: Rng;
  wall: string;
  floor: string;
  floorKind: 'planks' | 'concrete' | 'sweep';
  dusk: boolean;
  /** Props and rugs toggles. */
  props: boolean;
  /** Framed artwork on the wall (default true when props are on). */
  art?: boolean;
}

interface Placed {
  prims: Prim[];
  glows: Glow[];
  mount: Model['mount'];
  /** Points used for framing (no cords). */
  fitPoints: Vec3[];
  /** Heights at which contact shadows are cast (floor, support tops). */
  grounds: number[];
  zWall: number;
  ceilingY: number | null;
  rug: boolean;
  focus: Vec3;
}

const CEILING = 255;

function placeModel(
  m: Model,
  opts: { support: boolean; podium: string | null; room: boolean },
  rng: Rng,
): Placed {
  let prims = [...m.prims];
  let glows = [...m.glows];
  let focus = m.focus;
  let offset: Vec3 = [0, 0, 0];
  if (opts.room && m.roomProps) prims.push(...m.roomProps);
  const grounds = [0];
  const extras: Prim[] = [];
  let ceilingY: number | null = null;
  const fitOnly = (ps: Prim[]): Vec3[] =>
    primPoints(ps.filter((p) => p.kind !== 'line' || p.pts.length > 4));

  const shift = (d: Vec3): void => {
    prims = transform(prims, translate(d));
    glows = glows.map((g) => ({ ...g, c: add(g.c, d) }));
    focus = add(focus, d);
    offset = add(offset, d);
  };

  if (m.mount === 'wall') {
    shift([0, 165, 0]);
  } else if (m.mount === 'ceiling') {
    const b = primBounds(prims);
    if (opts.room) {
      ceilingY = CEILING;
      shift([0, CEILING - b.max[1], 0]);
    } else {
      shift([0, 150 - b.min[1], 0]);
    }
  } else if (opts.support && m.support !== 'none') {
    const s = supportProps(m.support, rng);
    extras.push(...s.prims);
    grounds.push(s.top);
    shift([0, s.top, 0]);
  } else if (opts.podium) {
    const b = primBounds(prims);
    const r = Math.max(b.max[0] - b.min[0], b.max[2] - b.min[2]) * 0.72 + 6;
    const h = 14;
    extras.push(cyl(0, 0, 0, h, r, r, { colour: opts.podium, finish: 'matte' }, { seg: 56 }));
    grounds.push(h);
    shift([0, h, 0]);
  }
  const all = [...extras, ...prims];
  const b = primBounds(all);
  let fitPoints: Vec3[];
  if (m.fitBox) {
    const { min, max } = m.fitBox;
    fitPoints = [];
    for (let i = 0; i < 8; i++) {
      fitPoints.push(
        add([i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]], offset),
      );
    }
  } else if (m.mount === 'ceiling') {
    fitPoints = fitOnly(prims.filter((p) => p.kind !== 'line'));
  } else {
    fitPoints = fitOnly(all);
  }
  return {
    prims: all,
    glows,
    mount: m.mount,
    fitPoints,
    grounds,
    zWall: m.mount === 'wall' ? 0 : b.min[2] - (opts.room ? 35 : 60),
    ceilingY,
    rug: m.rug,
    focus,
  };
}

// ---------------------------------------------------------------- background
function gradientDefs(
  out: SvgOut,
  id: string,
  stops: [number, string, number?][],
  vertical = true,
): void {
  out.defs.push(
    `<linearGradient id="${id}" x1="0" y1="0" x2="${vertical ? 0 : 1}" y2="${vertical ? 1 : 0}">${stops
      .map(
        ([o, c, a]) =>
          `<stop offset="${o}" stop-color="${c}"${a !== undefined ? ` stop-opacity="${a}"` : ''}/>`,
      )
      .join('')}</linearGradient>`,
  );
}

function drawRoom(out: SvgOut, cam: Camera, s: SceneSpec, pl: Placed, subject: Bounds3): void {
  const { W, H, rng } = s;
  const zw = pl.zWall;
  const wall = s.dusk ? shade(mix(s.wall, '#d9b48a', 0.18), 0.8) : s.wall;
  const floor = s.dusk ? shade(s.floor, 0.8) : s.floor;
  gradientDefs(out, 'wallG', [
    [0, shade(wall, 0.93)],
    [1, shade(wall, 1.03)],
  ]);
  out.body.push(`<rect width="${W}" height="${H}" fill="url(#wallG)"/>`);
  const X = 4000;
  // Ceiling (pendants/chandeliers in room scenes).
  if (pl.ceilingY !== null) {
    const cy = pl.ceilingY;
    out.body.push(
      `<path d="${clipPath(cam, [
        [-X, cy, zw],
        [X, cy, zw],
        [X, cy, zw + X],
        [-X, cy, zw + X],
      ])}" fill="${shade(wall, 1.08)}"/>`,
    );
    out.body.push(
      `<path d="${clipSeg(cam, [-X, cy - 4, zw + 0.5], [X, cy - 4, zw + 0.5])}" stroke="${shade(wall, 1.12)}" stroke-width="${f1(Math.max(2, pxPerCm(cam, [0, cy, zw]) * 5))}"/>`,
    );
  }
  // Wall panelling for the luxe look.
  if (s.style === 'luxe') {
    const line = luminance(wall) > 0.5 ? shade(wall, 0.86) : shade(wall, 1.25);
    const paths: string[] = [];
    for (let i = -8; i <= 8; i++) {
      const x0 = i * 80 + 8;
      paths.push(
        clipPath(cam, [
          [x0, 14, zw],
          [x0 + 64, 14, zw],
          [x0 + 64, 86, zw],
          [x0, 86, zw],
        ]),
      );
    }
    paths.push(clipSeg(cam, [-X, 96, zw], [X, 96, zw]));
    out.body.push(
      `<path d="${paths.join('')}" fill="none" stroke="${line}" stroke-width="${f1(Math.max(1.2, pxPerCm(cam, [0, 50, zw]) * 0.9))}" opacity="0.8"/>`,
    );
  }
  // Window with daylight, on the side away from the subject centre.
  const side = rng.chance(0.5) ? -1 : 1;
  const subjectW = subject.max[0] - subject.min[0];
  if (s.props && s.style !== 'luxe' && pl.mount !== 'wall') {
    const wx =
      side < 0 ? subject.min[0] - 150 - subjectW * 0.1 : subject.max[0] + 40 + subjectW * 0.1;
    const ww = 110;
    const wy0 = 70;
    const wy1 = 235;
    const frame = '#f7f5f1';
    const sky = s.dusk ? '#8592a8' : '#dfe9f1';
    out.body.push(
      `<path d="${clipPath(cam, [
        [wx - 6, wy0 - 6, zw],
        [wx + ww + 6, wy0 - 6, zw],
        [wx + ww + 6, wy1 + 6, zw],
        [wx - 6, wy1 + 6, zw],
      ])}" fill="${frame}"/>`,
    );
    out.body.push(
      `<path d="${clipPath(cam, [
        [wx, wy0, zw],
        [wx + ww, wy0, zw],
        [wx + ww, wy1, zw],
        [wx, wy1, zw],
      ])}" fill="${sky}"/>`,
    );
    if (!s.dusk) {
      out.body.push(
        `<path d="${clipPath(cam, [
          [wx, wy0, zw],
          [wx + ww * 0.6, wy0, zw],
          [wx + ww, wy1 * 0.8, zw],
          [wx + ww, wy1, zw],
          [wx, wy1, zw],
        ])}" fill="#ffffff" opacity="0.35"/>`,
      );
    }
    out.body.push(
      `<path d="${clipSeg(cam, [wx + ww / 2, wy0, zw], [wx + ww / 2, wy1, zw])}${clipSeg(cam, [wx, (wy0 + wy1) / 2, zw], [wx + ww, (wy0 + wy1) / 2, zw])}" stroke="${frame}" stroke-width="${f1(pxPerCm(cam, [wx, 150, zw]) * 3)}"/>`,
    );
  }
  // Framed artwork above the subject.
  if (s.props && s.art !== false && pl.mount !== 'wall' && pl.ceilingY === null) {
    const top = subject.max[1];
    const ah = 60 + rng.int(0, 20);
    const aw = ah * rng.pick([0.75, 1, 1.33]);
    const ay = Math.max(top + 28, 110);
    const ax = (subject.min[0] + subject.max[0]) / 2 + (side < 0 ? 30 : -30) - aw / 2;
    const frameCol = s.style === 'luxe' ? BRASS : rng.pick(['#1f1f22', '#c49a6c', '#f4f2ee']);
    const m = quadMatrixPrecise(cam, [ax, ay + ah, zw], [ax + aw, ay + ah, zw], [ax, ay, zw]);
    const [c1, c2, c3] = [rng.pick(ART), rng.pick(ART), rng.pick(ART)];
    const bg = s.style === 'luxe' ? '#efe7d8' : rng.pick(['#f3efe8', '#efe4d6', '#e7ebe8']);
    const motif = rng.int(0, 2);
    const art =
      motif === 0
        ? `<circle cx="38" cy="44" r="22" fill="${c1}"/><rect x="46" y="40" width="34" height="44" fill="${c2}" opacity="0.85"/>`
        : motif === 1
          ? `<path d="M22 86V52a28 28 0 0 1 56 0v34z" fill="${c1}"/><circle cx="68" cy="26" r="9" fill="${c3}"/>`
          : `<path d="M10 72C30 40 50 84 90 46V90H10z" fill="${c2}"/><path d="M10 84C40 62 60 92 90 70V90H10z" fill="${c1}" opacity="0.9"/>`;
    out.body.push(
      `<g transform="${m}"><rect x="-4" y="-4" width="108" height="108" fill="${frameCol}"/><rect x="0" y="0" width="100" height="100" fill="#fbfaf7"/><rect x="10" y="10" width="80" height="80" fill="${bg}"/><g transform="translate(10 10) scale(0.8)">${art}</g></g>`,
    );
  }
  // Floor.
  const floorPath = clipPath(cam, [
    [-X, 0, zw],
    [X, 0, zw],
    [X, 0, zw + X],
    [-X, 0, zw + X],
  ]);
  gradientDefs(out, 'floorG', [
    [0, shade(floor, 0.86)],
    [1, shade(floor, 1.04)],
  ]);
  out.body.push(`<path d="${floorPath}" fill="url(#floorG)"/>`);
  if (s.floorKind === 'planks') {
    const pw = s.style === 'luxe' ? 12 : 18;
    const lines: string[] = [];
    for (let i = -100; i <= 100; i++)
      lines.push(clipSeg(cam, [i * pw, 0, zw], [i * pw, 0, zw + 1500]));
    const joints: string[] = [];
    const jr = createRng(7);
    for (let i = -60; i <= 60; i++) {
      for (let k = 0; k < 8; k++) {
        const z = zw + jr.range(0, 900);
        joints.push(clipSeg(cam, [i * pw, 0, z], [(i + 1) * pw, 0, z]));
      }
    }
    out.body.push(
      `<path d="${lines.join('')}${joints.join('')}" stroke="${shade(floor, 0.72)}" stroke-width="1" opacity="0.45" fill="none"/>`,
    );
  }
  // Baseboard.
  out.body.push(
    `<path d="${clipPath(cam, [
      [-X, 0, zw],
      [X, 0, zw],
      [X, 10, zw],
      [-X, 10, zw],
    ])}" fill="${s.style === 'luxe' && luminance(wall) < 0.4 ? shade(wall, 0.85) : mix(wall, '#ffffff', 0.55)}"/>`,
  );
  out.body.push(
    `<path d="${clipSeg(cam, [-X, 10, zw], [X, 10, zw])}" stroke="${shade(wall, 0.8)}" stroke-width="1" opacity="0.6"/>`,
  );
  // Daylight patch on the floor.
  if (s.props && !s.dusk && s.style !== 'luxe') {
    const lx = side < 0 ? subject.min[0] - 150 : subject.max[0] + 40;
    const patch = clipPath(cam, [
      [lx + 30, 0, zw + 40],
      [lx + 140, 0, zw + 40],
      [lx + 230, 0, zw + 240],
      [lx + 120, 0, zw + 240],
    ]);
    out.body.push(`<path d="${patch}" fill="#ffffff" opacity="0.13"/>`);
  }
  // Rug under floor furniture.
  if (pl.rug && s.props && pl.mount === 'floor') {
    const rc = rng.pick(RUGS);
    const mx = (subject.max[0] - subject.min[0]) * 0.22 + 30;
    const mz = (subject.max[2] - subject.min[2]) * 0.35 + 30;
    const x0 = subject.min[0] - mx,
      x1 = subject.max[0] + mx;
    const z0 = subject.min[2] - mz * 0.4,
      z1 = subject.max[2] + mz;
    out.body.push(
      `<path d="${clipPath(cam, [
        [x0, 0.3, z0],
        [x1, 0.3, z0],
        [x1, 0.3, z1],
        [x0, 0.3, z1],
      ])}" fill="${rc}"/>`,
    );
    const i = 9;
    out.body.push(
      `<path d="${clipPath(cam, [
        [x0 + i, 0.4, z0 + i],
        [x1 - i, 0.4, z0 + i],
        [x1 - i, 0.4, z1 - i],
        [x0 + i, 0.4, z1 - i],
      ])}" fill="none" stroke="${shade(rc, 0.78)}" stroke-width="${f1(Math.max(1.5, pxPerCm(cam, [0, 0, z1]) * 2.2))}"/>`,
    );
  }
}

function drawSweep(
  out: SvgOut,
  cam: Camera,
  s: SceneSpec,
  pl: Placed,
  base: string,
  arch: boolean,
  subject: Bounds3,
): void {
  const { W, H } = s;
  const zw = pl.zWall;
  // Horizon: where the floor meets the backdrop; blended softly (seamless sweep).
  const h0 = project(cam, [0, 0, zw]);
  const hy = Math.max(H * 0.25, Math.min(H * 0.92, h0.y));
  const top = shade(base, 0.94);
  const floor = shade(base, 0.9);
  out.defs.push(
    `<linearGradient id="sweepG" x1="0" y1="0" x2="0" y2="${H}" gradientUnits="userSpaceOnUse">` +
      `<stop offset="0" stop-color="${top}"/>` +
      `<stop offset="${f1(Math.max(0, hy - H * 0.12) / H)}" stop-color="${shade(base, 1.02)}"/>` +
      `<stop offset="${f1(Math.min(1, hy + H * 0.06) / H)}" stop-color="${shade(base, 0.97)}"/>` +
      `<stop offset="1" stop-color="${floor}"/></linearGradient>`,
  );
  out.body.push(`<rect width="${W}" height="${H}" fill="url(#sweepG)"/>`);
  if (pl.mount === 'wall') return;
  if (arch) {
    const oh = Math.max(subject.max[1], 40);
    const ow = subject.max[0] - subject.min[0];
    const w = Math.max(70, Math.min(200, oh * 1.1 + 30));
    const h = oh * 1.5 + 70;
    const cx = (subject.min[0] + subject.max[0]) / 2 - ow * 0.22;
    const m = quadMatrixPrecise(cam, [cx - w / 2, h, zw], [cx + w / 2, h, zw], [cx - w / 2, 0, zw]);
    const ry = Math.min(100, (50 * w) / h);
    out.body.push(
      `<g transform="${m}"><path d="M0 100V${f1(ry)}A50 ${f1(ry)} 0 0 1 100 ${f1(ry)}V100z" fill="${shade(base, 1.12)}"/></g>`,
    );
  }
  // Hard window-light stripes.
  const stripes: string[] = [];
  for (let i = 0; i < 3; i++) {
    const x = W * (0.02 + i * 0.1);
    stripes.push(
      `M${f1(x)},0L${f1(x + W * 0.06)},0L${f1(x + W * 0.36)},${H}L${f1(x + W * 0.3)},${H}Z`,
    );
  }
  out.body.push(`<path d="${stripes.join('')}" fill="#ffffff" opacity="0.16"/>`);
}

function drawStudio(out: SvgOut, s: SceneSpec, cam: Camera, pl: Placed, dark: boolean): void {
  const { W, H } = s;
  const base = dark ? '#2d2b2a' : '#efece7';
  const h0 = project(cam, [0, 0, pl.zWall]);
  const hy = Math.max(H * 0.3, Math.min(H * 0.9, h0.y));
  out.defs.push(
    `<linearGradient id="studioG" x1="0" y1="0" x2="0" y2="${H}" gradientUnits="userSpaceOnUse">` +
      `<stop offset="0" stop-color="${shade(base, dark ? 0.8 : 0.95)}"/>` +
      `<stop offset="${f1((hy - H * 0.15) / H)}" stop-color="${shade(base, dark ? 1 : 1.02)}"/>` +
      `<stop offset="${f1(Math.min(1, hy + H * 0.1) / H)}" stop-color="${shade(base, dark ? 0.95 : 0.98)}"/>` +
      `<stop offset="1" stop-color="${shade(base, dark ? 0.7 : 0.9)}"/></linearGradient>`,
    `<radialGradient id="spotG" cx="0.5" cy="0.55" r="0.5"><stop offset="0" stop-color="#ffffff" stop-opacity="${dark ? 0.22 : 0.5}"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient>`,
  );
  out.body.push(`<rect width="${W}" height="${H}" fill="url(#studioG)"/>`);
  out.body.push(
    `<ellipse cx="${W / 2}" cy="${f1(hy)}" rx="${W * 0.48}" ry="${H * 0.42}" fill="url(#spotG)"/>`,
  );
}

// -------------------------------------------------------------------- shadows
// Shadows avoid SVG blur filters (they dominate render time): soft shadows are
// radial-gradient ellipses, contact shadows are stacked translucent strokes.
let shadowSeq = 0;

function beginDocument(): void {
  resetIds();
  shadowSeq = 0;
}

function softEllipse(
  out: SvgOut,
  pts: { x: number; y: number }[],
  opacity: number,
  grow: number,
): void {
  if (pts.length === 0) return;
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const x0 = Math.min(...xs),
    x1 = Math.max(...xs),
    y0 = Math.min(...ys),
    y1 = Math.max(...ys);
  const id = `sh${(shadowSeq += 1)}`;
  out.defs.push(
    `<radialGradient id="${id}"><stop offset="0" stop-color="#000" stop-opacity="${r2(opacity)}"/><stop offset="0.55" stop-color="#000" stop-opacity="${r2(opacity * 0.55)}"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>`,
  );
  out.body.push(
    `<ellipse cx="${f1((x0 + x1) / 2)}" cy="${f1((y0 + y1) / 2)}" rx="${f1(((x1 - x0) / 2) * grow + 4)}" ry="${f1(((y1 - y0) / 2) * grow * 1.15 + 4)}" fill="url(#${id})"/>`,
  );
}

function drawShadows(out: SvgOut, cam: Camera, pl: Placed, W: number, dark: boolean): void {
  const alpha = dark ? 0.55 : 0.32;
  if (pl.mount === 'wall') {
    const b = primBounds(pl.prims);
    const c: Vec3 = [(b.min[0] + b.max[0]) / 2 + 6, (b.min[1] + b.max[1]) / 2 - 8, pl.zWall];
    const q = project(cam, c);
    const r = (b.max[0] - b.min[0]) * 0.7 * pxPerCm(cam, c);
    softEllipse(
      out,
      [
        { x: q.x - r, y: q.y - r },
        { x: q.x + r, y: q.y + r },
      ],
      alpha * 0.5,
      1,
    );
    return;
  }
  if (pl.mount === 'ceiling') return;
  const blur = Math.max(2, W * 0.004);
  for (const g of pl.grounds) {
    const onGround = pl.prims.filter((p) => Math.abs(p.min[1] - g) < 1.5 && !p.noShadow);
    if (onGround.length === 0) continue;
    const b = primBounds(pl.prims.filter((p) => p.min[1] >= g - 1.5 && !p.noShadow && !p.noFit));
    const h = Math.max(10, b.max[1] - g);
    const foot: Vec3[] = [
      [b.min[0], g, b.min[2]],
      [b.max[0], g, b.min[2]],
      [b.max[0], g, b.max[2]],
      [b.min[0], g, b.max[2]],
    ];
    const fp = foot.map((p) => project(cam, p));
    softEllipse(out, fp, alpha * 0.9, 1.05);
    const sh: Vec3 = [h * 0.22, 0, -h * 0.3];
    softEllipse(out, foot.map((p) => project(cam, add(p, sh))).concat(fp), alpha * 0.45, 0.95);
    const contacts: string[] = [];
    for (const p of onGround) {
      let pts: Vec3[];
      if (p.kind === 'mesh') {
        const bottom = p.faces.find(
          (f) => f.tag === 'bottom' && Math.abs((f.pts[0]?.[1] ?? 99) - p.min[1]) < 1.5,
        );
        pts = bottom
          ? bottom.pts.map((v): Vec3 => [v[0], g, v[2]])
          : [
              [p.min[0], g, p.min[2]],
              [p.max[0], g, p.min[2]],
              [p.max[0], g, p.max[2]],
              [p.min[0], g, p.max[2]],
            ];
      } else {
        const r = (p.max[0] - p.min[0]) / 2;
        const c: Vec3 = [(p.min[0] + p.max[0]) / 2, g, (p.min[2] + p.max[2]) / 2];
        pts = Array.from({ length: 12 }, (_, i): Vec3 => [
          c[0] + Math.cos((i / 12) * Math.PI * 2) * r,
          g,
          c[2] + Math.sin((i / 12) * Math.PI * 2) * r,
        ]);
      }
      contacts.push(clipPath(cam, pts));
    }
    const d = contacts.join('');
    const k = dark ? 0.75 : 0.62;
    out.body.push(
      `<path d="${d}" fill="#000" fill-opacity="${r2(k * 0.3)}" stroke="#000" stroke-opacity="${r2(k * 0.12)}" stroke-width="${f1(blur * 3)}" stroke-linejoin="round"/>` +
        `<path d="${d}" fill="#000" fill-opacity="${r2(k * 0.4)}" stroke="#000" stroke-opacity="${r2(k * 0.2)}" stroke-width="${f1(blur * 1.4)}" stroke-linejoin="round"/>`,
    );
  }
}

function drawGlows(
  out: SvgOut,
  cam: Camera,
  glows: readonly Glow[],
  layer: 'back' | 'front',
  dusk: boolean,
): void {
  glows.forEach((g, i) => {
    const id = `glow${layer}${i}`;
    const q = project(cam, g.c);
    const r = g.r * pxPerCm(cam, g.c) * (layer === 'back' ? 1 : 0.6);
    const k = g.strength * (layer === 'back' ? (dusk ? 1 : 0.75) : 0.35);
    out.defs.push(
      `<radialGradient id="${id}"><stop offset="0" stop-color="${g.colour}" stop-opacity="${r2(k)}"/><stop offset="0.4" stop-color="${g.colour}" stop-opacity="${r2(k * 0.4)}"/><stop offset="1" stop-color="${g.colour}" stop-opacity="0"/></radialGradient>`,
    );
    out.body.push(`<circle cx="${f1(q.x)}" cy="${f1(q.y)}" r="${f1(r)}" fill="url(#${id})"/>`);
  });
}

function drawPlant(cam: Camera, x: number, z: number, rng: Rng, out: SvgOut, k = 1): void {
  const pot = cyl(
    x,
    z,
    0,
    34 * k,
    15 * k,
    19 * k,
    { colour: rng.pick(['#e9e3d9', '#b8674a', '#3f4a45', '#d2c2ab']), finish: 'ceramic' },
    { seg: 28 },
  );
  paint(out, cam, [pot]);
  const leaves: string[] = [];
  const greens = ['#4f6b45', '#5d7d4f', '#3f5a3a', '#6b8a58'];
  const base: Vec3 = [x, 32 * k, z];
  const n = 14;
  const items: { d: number; s: string }[] = [];
  for (let i = 0; i < n; i++) {
    const a = rng.range(0, Math.PI * 2);
    const lean = rng.range(0.25, 0.95);
    const L = rng.range(45, 85) * k;
    const tip: Vec3 = [
      x + Math.cos(a) * L * lean,
      32 * k + L * (1 - lean * 0.45),
      z + Math.sin(a) * L * lean,
    ];
    const p0 = project(cam, base);
    const p1 = project(cam, tip);
    const dx = p1.x - p0.x;
    const dy = p1.y - p0.y;
    const w = Math.hypot(dx, dy) * 0.22;
    const nx = (-dy / (Math.hypot(dx, dy) || 1)) * w;
    const ny = (dx / (Math.hypot(dx, dy) || 1)) * w;
    const mx = p0.x + dx * 0.55;
    const my = p0.y + dy * 0.55;
    const col = rng.pick(greens);
    items.push({
      d: depth(cam, tip),
      s: `<path d="M${f1(p0.x)},${f1(p0.y)}Q${f1(mx + nx)},${f1(my + ny)} ${f1(p1.x)},${f1(p1.y)}Q${f1(mx - nx)},${f1(my - ny)} ${f1(p0.x)},${f1(p0.y)}Z" fill="${col}"/><path d="M${f1(p0.x)},${f1(p0.y)}L${f1(p1.x)},${f1(p1.y)}" stroke="${shade(col, 0.7)}" stroke-width="1"/>`,
    });
  }
  items.sort((a, b) => b.d - a.d);
  leaves.push(...items.map((i) => i.s));
  out.body.push(leaves.join(''));
}

/**
 * Photographic vignette. Only a ring around the edges is painted (even-odd
 * path with an elliptical hole): full-canvas gradients are slow to rasterise.
 */
function overlay(out: SvgOut, W: number, H: number, strength: number): void {
  const rx = W * 0.36;
  const ry = H * 0.34;
  const cx = W / 2;
  const cy = H * 0.48;
  out.defs.push(
    `<radialGradient id="vig" gradientUnits="userSpaceOnUse" cx="${cx}" cy="${f1(cy)}" r="${f1(Math.hypot(W, H) * 0.5)}" gradientTransform="translate(${cx} ${f1(cy)}) scale(1 ${r2((H / W) * 1.15)}) translate(${-cx} ${f1(-cy)})"><stop offset="${r2(rx / (Math.hypot(W, H) * 0.5))}" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="${strength}"/></radialGradient>`,
  );
  out.body.push(
    `<path fill-rule="evenodd" fill="url(#vig)" d="M0,0H${W}V${H}H0Z M${f1(cx - rx)},${f1(cy)}a${f1(rx)},${f1(ry)} 0 1,0 ${f1(rx * 2)},0a${f1(rx)},${f1(ry)} 0 1,0 ${f1(-rx * 2)},0Z"/>`,
  );
}

// ------------------------------------------------------------------- framing
function cameraFor(
  pl: Placed,
  W: number,
  H: number,
  yaw: number,
  elev: number,
  rect: Rect,
  alignY: number,
): Camera {
  const b = primBounds(pl.prims.filter((p) => p.kind !== 'line' || pl.mount !== 'ceiling'));
  const target: Vec3 = [
    (b.min[0] + b.max[0]) / 2,
    (b.min[1] + b.max[1]) / 2,
    (b.min[2] + b.max[2]) / 2,
  ];
  const size = Math.max(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2], 60);
  const cam = makeCamera(target, size * 3.6 + 150, yaw, elev);
  void W;
  void H;
  return fitCamera(cam, pl.fitPoints, rect, alignY);
}

function svgDoc(W: number, H: number, out: SvgOut): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}"><defs>${out.defs.join('')}</defs>${out.body.join('')}</svg>`;
}

// ------------------------------------------------------------------- products
export interface ProductShot {
  product: CatalogProduct;
  set: PhotoSet;
  view: number;
  /** Camera yaw in degrees instead of the set's own (the video's turntable turns it). */
  yaw?: number;
}

function seedFor(id: number, set: PhotoSet): number {
  return id * 97 + (set === 'std' ? 1 : set === 'new' ? 2 : 3);
}

export function renderProductSvg(shot: ProductShot, W = 1200, H = 900): string {
  beginDocument();
  const { product: p, set, view } = shot;
  const rng = createRng(seedFor(p.id, set));
  const colour = set === 'se' ? p.specialEdition.colour : p.colour;
  const model = buildModel({
    id: p.id,
    kind: p.kind,
    widthCm: p.dimensions.widthCm,
    depthCm: p.dimensions.depthCm,
    heightCm: p.dimensions.heightCm,
    colour,
    special: set === 'se',
    altPose: set === 'new',
    rng: createRng(p.id * 31),
  });
  const isLighting = model.glows.length > 0;
  const styleFor = (): Style => {
    if (set === 'std') return view === 1 ? 'studio' : 'room';
    if (set === 'new') return view === 1 ? 'pop' : 'pop-room';
    return view === 1 ? 'luxe-studio' : 'luxe';
  };
  const style = styleFor();
  const seLightWall = luminance(colour) < 0.33;
  const spec: SceneSpec = {
    W,
    H,
    style,
    rng,
    wall: style === 'luxe' ? (seLightWall ? '#e9e1d3' : rng.pick(LUXE_DARK)) : rng.pick(WALLS),
    floor: style === 'luxe' ? '#5e4330' : rng.pick(FLOORS),
    floorKind:
      style === 'room' || style === 'luxe'
        ? rng.chance(0.8) || style === 'luxe'
          ? 'planks'
          : 'concrete'
        : 'sweep',
    dusk: isLighting && (style === 'room' || style === 'luxe'),
    props: view === 0,
  };
  const pop = rng.pick(POP);
  const roomLike = style === 'room' || style === 'luxe';
  const small =
    model.mount === 'floor' && primBounds(model.prims).max[1] < 70 && model.support === 'none';
  const pl = placeModel(
    model,
    {
      support: roomLike && view !== 1,
      podium: style === 'pop-room' && (small || model.support !== 'none') ? shade(pop, 0.92) : null,
      room: roomLike,
    },
    rng,
  );

  // Camera per set/view.
  let yaw = model.yaw + rng.range(-5, 5);
  let elev = model.elev;
  if (style === 'studio') yaw = model.studioYaw ?? model.yaw * 0.3;
  if (style === 'pop-room') {
    yaw = -model.yaw - 8;
    elev += 6;
  }
  if (style === 'pop') yaw = -model.yaw;
  if (style === 'luxe-studio') yaw = -model.yaw * 0.6;
  if (shot.yaw !== undefined) yaw = shot.yaw;
  if (model.mount === 'wall') yaw = Math.max(-30, Math.min(30, yaw));
  let rect: Rect;
  let alignY = 1;
  if (model.mount === 'wall') {
    rect = { x: W * 0.3, y: H * 0.2, w: W * 0.4, h: H * 0.52 };
    alignY = 0.5;
  } else if (model.mount === 'ceiling') {
    rect = roomLike
      ? { x: W * 0.24, y: H * 0.2, w: W * 0.52, h: H * 0.55 }
      : { x: W * 0.2, y: H * 0.18, w: W * 0.6, h: H * 0.62 };
    alignY = 0.5;
  } else if (roomLike) {
    rect = { x: W * 0.18, y: H * 0.17, w: W * 0.64, h: H * 0.62 };
  } else {
    rect = { x: W * 0.14, y: H * 0.13, w: W * 0.72, h: H * 0.68 };
    alignY = 0.85;
  }
  let cam = cameraFor(pl, W, H, yaw, elev, rect, alignY);
  if (view === 2) cam = zoomCamera(cam, pl.focus, model.detailZoom, W * 0.5, H * 0.52);

  const out: SvgOut = { defs: [], body: [] };
  const subject = primBounds(pl.prims);
  const darkStudio = style === 'luxe-studio';
  if (style === 'room' || style === 'luxe') {
    drawRoom(out, cam, spec, pl, subject);
  } else if (style === 'studio' || style === 'luxe-studio') {
    if (model.mount === 'wall')
      drawRoom(
        out,
        cam,
        {
          ...spec,
          props: false,
          floorKind: 'concrete',
          wall: darkStudio ? '#3a3735' : '#ece8e2',
          floor: '#cfc8bd',
        },
        pl,
        subject,
      );
    else drawStudio(out, spec, cam, pl, darkStudio);
  } else {
    drawSweep(out, cam, spec, pl, pop, style === 'pop-room' && view === 0, subject);
  }
  if (view === 0 && roomLike && spec.props && model.mount === 'floor') {
    const side = subject.max[0] - subject.min[0];
    const k = Math.max(0.45, Math.min(1.1, subject.max[1] / 95));
    const gap = 40 + side * 0.12 + 25 * k;
    const px = rng.chance(0.5) ? subject.max[0] + gap : subject.min[0] - gap;
    if (rng.chance(0.75)) drawPlant(cam, px, pl.zWall + 25 * k, rng, out, k);
  }
  drawGlows(out, cam, pl.glows, 'back', spec.dusk);
  drawShadows(out, cam, pl, W, darkStudio || (spec.dusk && roomLike));
  paint(out, cam, pl.prims);
  drawGlows(out, cam, pl.glows, 'front', spec.dusk);
  overlay(out, W, H, style === 'luxe' || darkStudio ? 0.35 : view === 2 ? 0.22 : 0.16);
  return svgDoc(W, H, out);
}

// ---------------------------------------------------------------- hero/banners
/** Wide dining scene for the landing page: the hero table with chairs and pendants. */
export function renderHeroSvg(table: CatalogProduct, W = 1920, H = 1080): string {
  beginDocument();
  const rng = createRng(4242);
  const model = buildModel({
    id: table.id,
    kind: table.kind,
    widthCm: table.dimensions.widthCm,
    depthCm: table.dimensions.depthCm,
    heightCm: table.dimensions.heightCm,
    colour: table.colour,
    special: false,
    altPose: false,
    rng: createRng(table.id * 31),
  });
  const tw = table.dimensions.widthCm;
  const td = table.dimensions.depthCm;
  const prims: Prim[] = [...model.prims];
  const chair = propDiningChair(createRng(5), '#2e2b29');
  // Chairs behind the table face the camera; end chairs face inwards.
  const n = Math.max(2, Math.round(tw / 80));
  for (let i = 0; i < n; i++) {
    const cx = -tw / 2 + ((i + 0.5) * tw) / n;
    prims.push(...transform(chair.prims, translate([cx, 0, -td / 2 - 4])));
  }
  const pendants: Prim[] = [];
  const glows: Glow[] = [];
  // Centrepiece on the table.
  const th = table.dimensions.heightCm;
  prims.push(
    cyl(tw * 0.12, 0, th, th + 22, 6, 4.5, { colour: '#ece6dc', finish: 'ceramic' }, { seg: 28 }),
  );
  for (const [dx, dz, hgt] of [
    [-10, 0, 40],
    [7, 3, 48],
    [2, -5, 34],
  ] as const) {
    pendants.push(
      line(
        [
          [tw * 0.12, th + 20, 0],
          [tw * 0.12 + dx, th + 20 + hgt, dz],
        ],
        0.6,
        { colour: '#5e6f4a', finish: 'matte' },
      ),
    );
    pendants.push(
      sphere([tw * 0.12 + dx, th + 20 + hgt, dz], 2.6, { colour: '#e9dcc3', finish: 'matte' }),
    );
  }
  for (const bx of [-tw * 0.18, -tw * 0.12]) {
    prims.push(cyl(bx, 4, th, th + 2, 4, 4, { colour: BRASS, finish: 'metal' }, { seg: 20 }));
    prims.push(
      cyl(bx, 4, th + 2, th + 24, 1.3, 1.3, { colour: '#f4efe6', finish: 'matte' }, { seg: 12 }),
    );
  }
  const domeProfile: [number, number][] = [];
  for (let i = 0; i <= 14; i++) {
    const t = (i / 14) * (Math.PI / 2);
    domeProfile.push([Math.max(2.5, Math.cos(t) * 24), 168 + Math.sin(t) * 20]);
  }
  for (const px of [-tw * 0.25, tw * 0.25]) {
    pendants.push(
      ...transform(
        [lathe(0, 0, domeProfile, { colour: '#26302c', finish: 'metal' }, { seg: 48 })],
        translate([px, 0, 0]),
      ),
    );
    pendants.push(
      cyl(px, 0, 167.6, 168, 23.5, 23.5, { colour: '#fff6e0', finish: 'emissive' }, { seg: 40 }),
    );
    glows.push({ c: [px, 162, 0], r: 85, colour: '#fff2d6', strength: 0.5 });
  }
  const pl: Placed = {
    prims: [...prims, ...pendants],
    glows,
    mount: 'floor',
    fitPoints: primPoints(prims),
    grounds: [0],
    zWall: -td / 2 - 90,
    ceilingY: null,
    rug: true,
    focus: model.focus,
  };
  const spec: SceneSpec = {
    W,
    H,
    style: 'room',
    rng,
    wall: '#e7e0d5',
    floor: '#c4a27c',
    floorKind: 'planks',
    dusk: false,
    props: true,
    art: false,
  };
  const cam0 = makeCamera([0, 60, 0], 650, 14, 13);
  // Table sits right of centre so the page can overlay a headline on the left.
  const cam = fitCamera(
    cam0,
    pl.fitPoints,
    { x: W * 0.36, y: H * 0.3, w: W * 0.58, h: H * 0.56 },
    1,
  );
  const out: SvgOut = { defs: [], body: [] };
  const subject = primBounds(prims);
  drawRoom(out, cam, spec, pl, subject);
  // Line up lines of pendants cords to the top of the frame.
  for (const px of [-tw * 0.25, tw * 0.25]) {
    const a = project(cam, [px, 188, 0]);
    const b = project(cam, [px, 400, 0]);
    out.body.push(
      `<path d="M${f1(a.x)},${f1(a.y)}L${f1(b.x)},${f1(b.y)}" stroke="#222" stroke-width="2"/>`,
    );
  }
  drawGlows(out, cam, glows, 'back', false);
  drawShadows(out, cam, { ...pl, prims }, W, false);
  paint(out, cam, pl.prims);
  drawGlows(out, cam, glows, 'front', false);
  overlay(out, W, H, 0.18);
  return svgDoc(W, H, out);
}

const DEPT_POP: Record<string, string> = {
  tables: '#f1c9a5',
  chairs: '#a9c6e6',
  sofas: '#c8d8b8',
  bedding: '#e8c8cf',
  lighting: '#2f3540',
};

/** Small banner per department: two of its products side by side on a colour-block set. */
export function renderDepartmentSvg(
  dept: CatalogDepartment,
  products: readonly CatalogProduct[],
  W = 800,
  H = 600,
): string {
  beginDocument();
  const rng = createRng(dept.slug.length * 131 + (dept.slug.charCodeAt(0) || 0));
  const picks = products.filter((p) => p.department === dept.slug);
  const preferred: Record<string, string[]> = {
    tables: ['dining-table', 'side-table'],
    chairs: ['armchair', 'dining-chair'],
    sofas: ['sofa', 'ottoman'],
    bedding: ['bed', 'nightstand'],
    lighting: ['floor-lamp', 'pendant'],
  };
  const kinds = preferred[dept.slug] ?? [];
  const chosen: CatalogProduct[] = [];
  for (const k of kinds) {
    const p = picks.find((x) => x.kind === k);
    if (p) chosen.push(p);
  }
  if (chosen.length === 0 && picks[0]) chosen.push(picks[0]);
  const prims: Prim[] = [];
  const glows: Glow[] = [];
  let cursor = 0;
  let mountCeiling = false;
  chosen.forEach((p, i) => {
    const m = buildModel({
      id: p.id,
      kind: p.kind,
      widthCm: p.dimensions.widthCm,
      depthCm: p.dimensions.depthCm,
      heightCm: p.dimensions.heightCm,
      colour: p.colour,
      special: false,
      altPose: false,
      rng: createRng(p.id * 31),
    });
    const b = primBounds(m.prims);
    const w = b.max[0] - b.min[0];
    let dy = 0;
    if (m.mount === 'ceiling') {
      dy = 230 - b.max[1];
      mountCeiling = true;
    }
    const dx = i === 0 ? -b.min[0] : cursor + 35 - b.min[0];
    const d: Vec3 = [dx, dy, i === 0 ? 0 : 15];
    prims.push(
      ...transform(
        m.prims.filter((q) => !(m.mount === 'ceiling' && q.kind === 'line' && q.pts.length === 2)),
        translate(d),
      ),
    );
    glows.push(...m.glows.map((g) => ({ ...g, c: add(g.c, d) })));
    cursor = dx + b.max[0] + (i === 0 ? 0 : 0);
    void w;
  });
  const b0 = primBounds(prims);
  const centre = (b0.min[0] + b0.max[0]) / 2;
  const centred = transform(prims, translate([-centre, 0, 0]));
  const cg = glows.map((g) => ({ ...g, c: add(g.c, [-centre, 0, 0]) }));
  const pl: Placed = {
    prims: centred,
    glows: cg,
    mount: 'floor',
    fitPoints: primPoints(centred),
    grounds: [0],
    zWall: primBounds(centred).min[2] - 60,
    ceilingY: null,
    rug: false,
    focus: [0, 0, 0],
  };
  const base = DEPT_POP[dept.slug] ?? rng.pick(POP);
  const dark = luminance(base) < 0.3;
  const spec: SceneSpec = {
    W,
    H,
    style: 'pop',
    rng,
    wall: base,
    floor: base,
    floorKind: 'sweep',
    dusk: dark,
    props: false,
  };
  const bb = primBounds(centred);
  const cam0 = makeCamera([0, (bb.min[1] + bb.max[1]) / 2, 0], 700, 18, mountCeiling ? 6 : 14);
  const cam = fitCamera(
    cam0,
    pl.fitPoints,
    { x: W * 0.1, y: H * 0.12, w: W * 0.8, h: H * 0.72 },
    0.9,
  );
  const out: SvgOut = { defs: [], body: [] };
  drawSweep(out, cam, spec, pl, base, true, bb);
  if (mountCeiling) {
    for (const p of centred) {
      if (p.kind === 'mesh' && p.max[1] > 180 && p.min[1] > 100) {
        const c: Vec3 = [(p.min[0] + p.max[0]) / 2, p.max[1], (p.min[2] + p.max[2]) / 2];
        const a = project(cam, c);
        out.body.push(
          `<path d="M${f1(a.x)},${f1(a.y)}L${f1(a.x)},-10" stroke="#1d1d1f" stroke-width="1.5"/>`,
        );
        break;
      }
    }
  }
  drawGlows(out, cam, cg, 'back', dark);
  drawShadows(out, cam, pl, W, dark);
  paint(out, cam, centred);
  drawGlows(out, cam, cg, 'front', dark);
  overlay(out, W, H, 0.14);
  return svgDoc(W, H, out);
}

export { seedFor as _seedFor };
