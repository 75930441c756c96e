/**
 * Furniture models, one builder per catalog `kind`.
 *
 * Kinds in use (catalog.json) — every one of them must have a builder here:
 *   tables:   dining-table, coffee-table, side-table, desk, console-table, round-table
 *   chairs:   dining-chair, armchair, lounge-chair, office-chair, stool, rocking-chair
 *   sofas:    sofa, loveseat, sectional, chaise, sofa-bed, ottoman
 *   bedding:  bed, duvet, pillow-set, throw-blanket, nightstand, mattress
 *   lighting: floor-lamp, table-lamp, pendant, wall-sconce, desk-lamp, chandelier
 *
 * Each department lists every kind twice; the first product of a kind uses
 * variant 0 and the second variant 1 (e.g. slatted vs upholstered bed), and
 * the per-product RNG varies smaller details (legs, cushion counts, knobs).
 * Special editions swap in the special colour and brass hardware.
 */
import { luminance, mix, shade } from './colour.js';
import type { Rng } from './rng.js';
import {
  box,
  boxAt,
  beam,
  cyl,
  lathe,
  line,
  rotateX,
  rotateY,
  rotateZ,
  sphere,
  transform,
  translate,
  tube,
  type Decor,
  type Material,
  type Prim,
  type Vec3,
} from './render3d.js';

export interface Glow {
  c: Vec3;
  /** Radius in cm. */
  r: number;
  colour: string;
  strength: number;
}

export type Mount = 'floor' | 'wall' | 'ceiling';
export type Support = 'none' | 'side-table' | 'desk' | 'sideboard';

export interface Model {
  prims: Prim[];
  glows: Glow[];
  /** Close-up point for the detail view. */
  focus: Vec3;
  detailZoom: number;
  yaw: number;
  elev: number;
  mount: Mount;
  /** What the object stands on in room scenes. */
  support: Support;
  rug: boolean;
  /** Optional framing box (defaults to the whole model). */
  fitBox?: { min: Vec3; max: Vec3 };
  /** Styling props shown only in room scenes (never used for framing). */
  roomProps?: Prim[];
  /** Camera yaw for the plain studio view (default: mostly frontal). */
  studioYaw?: number;
}

export interface BuildInput {
  id: number;
  kind: string;
  widthCm: number;
  depthCm: number;
  heightCm: number;
  colour: string;
  special: boolean;
  /** Alternative pose for the "new" photo set (e.g. sofa bed unfolded). */
  altPose: boolean;
  rng: Rng;
}

interface Ctx {
  id: number;
  W: number;
  D: number;
  H: number;
  c: string;
  v: 0 | 1;
  se: boolean;
  alt: boolean;
  rng: Rng;
  /** Leg/hardware metal: brass for special editions. */
  metal: Material;
  /** Small hardware (knobs, caps). */
  hw: Material;
}

// ------------------------------------------------------------------ materials
export const BRASS = '#c9a045';
const BLACK = '#2a2a2c';
const CHROME = '#c3c7cc';
const OAK = '#c49a6c';
const WALNUT = '#6e4a30';
const LINEN = '#ebe5da';
const BED_WHITE = '#f4f1eb';
const WARM_LIGHT = '#fff2d6';

const wood = (c: string): Material => ({ colour: c, finish: 'wood' });
const fabric = (c: string, soft = 0): Material => ({ colour: c, finish: 'fabric', soft });
const leather = (c: string, soft = 0): Material => ({ colour: c, finish: 'leather', soft });
const metal = (c: string): Material => ({ colour: c, finish: 'metal' });
const matte = (c: string, soft = 0): Material => ({ colour: c, finish: 'matte', soft });
const ceramic = (c: string): Material => ({ colour: c, finish: 'ceramic' });
const lit = (c: string): Material => ({ colour: c, finish: 'emissive' });
const glass = (c: string, opacity = 0.55): Material => ({ colour: c, finish: 'glass', opacity });

const grain = (seed: number, lines = 9, faces: Decor['faces'] = ['top']): Decor => ({
  type: 'grain',
  faces,
  lines,
  seed: seed * 7919 + 17,
});

/** Seat/upholstery material depending on the colour (velvet reads slightly glossier). */
function upholstery(c: string, soft: number, finish: 'fabric' | 'leather' = 'fabric'): Material {
  return finish === 'leather' ? leather(c, soft) : fabric(c, soft);
}

// ----------------------------------------------------------------- leg helpers
type LegStyle = 'tapered' | 'round' | 'block' | 'splayed' | 'hairpin' | 'turned';

function leg(
  x: number,
  z: number,
  h: number,
  t: number,
  style: LegStyle,
  mat: Material,
  ctx: Ctx,
  outward: readonly [number, number] = [0, 0],
): Prim[] {
  const out: Prim[] = [];
  switch (style) {
    case 'tapered':
      out.push(cyl(x, z, 0, h, t * 0.42, t * 0.72, mat, { seg: 4, phase: Math.PI / 4 }));
      break;
    case 'round':
      out.push(cyl(x, z, 0, h, t * 0.38, t * 0.52, mat, { seg: 14 }));
      break;
    case 'block':
      out.push(boxAt(x, z, 0, t, h, t, mat));
      break;
    case 'turned': {
      const r = t * 0.5;
      out.push(cyl(x, z, 0, h * 0.18, r * 0.55, r * 0.75, mat, { seg: 14 }));
      out.push(cyl(x, z, h * 0.18, h * 0.24, r * 0.75, r * 0.95, mat, { seg: 14 }));
      out.push(cyl(x, z, h * 0.24, h * 0.8, r * 0.62, r * 0.8, mat, { seg: 14 }));
      out.push(cyl(x, z, h * 0.8, h, r * 0.95, r * 0.95, mat, { seg: 14 }));
      break;
    }
    case 'splayed': {
      const [ox, oz] = outward;
      out.push(tube([x + ox, 0, z + oz], [x, h, z], t * 0.36, t * 0.5, mat, 10));
      break;
    }
    case 'hairpin': {
      const m = ctx.se ? metal(BRASS) : metal(BLACK);
      out.push(tube([x, 0.6, z], [x - t, h, z], 0.6, 0.6, m, 6));
      out.push(tube([x, 0.6, z], [x + t, h, z], 0.6, 0.6, m, 6));
      break;
    }
  }
  if (ctx.se && style !== 'hairpin' && h > 6) {
    // Brass sabots on special editions.
    out.push(
      cyl(
        x + outward[0] * 0.95,
        z + outward[1] * 0.95,
        0,
        Math.min(5, h * 0.15),
        t * 0.46,
        t * 0.46,
        metal(BRASS),
        { seg: 12 },
      ),
    );
  }
  return out;
}

function fourLegs(
  w: number,
  d: number,
  h: number,
  t: number,
  style: LegStyle,
  mat: Material,
  ctx: Ctx,
  splay = 0,
): Prim[] {
  const out: Prim[] = [];
  for (const sx of [-1, 1]) {
    for (const sz of [-1, 1]) {
      out.push(...leg((sx * w) / 2, (sz * d) / 2, h, t, style, mat, ctx, [sx * splay, sz * splay]));
    }
  }
  return out;
}

function knob(x: number, y: number, z: number, ctx: Ctx, r = 1.3): Prim {
  return sphere([x, y, z + r * 0.6], r, ctx.se ? metal(BRASS) : ctx.hw);
}

function drawerFront(
  x0: number,
  x1: number,
  y0: number,
  y1: number,
  zFront: number,
  mat: Material,
  ctx: Ctx,
  pull: 'knob' | 'bar' = 'knob',
): Prim[] {
  const gap = 0.5;
  const out: Prim[] = [box([x0 + gap, x1 - gap], [y0 + gap, y1 - gap], [zFront, zFront + 1], mat)];
  const cy = (y0 + y1) / 2;
  if (pull === 'knob') out.push(knob((x0 + x1) / 2, cy, zFront + 1, ctx));
  else {
    const w = Math.min(14, (x1 - x0) * 0.35);
    out.push(
      box(
        [(x0 + x1) / 2 - w / 2, (x0 + x1) / 2 + w / 2],
        [cy - 0.6, cy + 0.6],
        [zFront + 1, zFront + 2.4],
        ctx.se ? metal(BRASS) : ctx.hw,
      ),
    );
  }
  return out;
}

// ---------------------------------------------------------------- base model
function model(prims: Prim[], focus: Vec3, extra: Partial<Model> = {}): Model {
  return {
    prims,
    glows: [],
    focus,
    detailZoom: 2.3,
    yaw: 22,
    elev: 16,
    mount: 'floor',
    support: 'none',
    rug: true,
    ...extra,
  };
}

// ==================================================================== TABLES
/** Chairs tucked behind a table plus a pendant above it, for room scenes. */
function diningProps(
  x: Ctx,
  spanW: number,
  depthBack: number,
  topY: number,
  round: boolean,
): Prim[] {
  const chairColour = x.rng.pick(['#2b2a29', OAK, '#e9e4dc', WALNUT]);
  const chair = propDiningChair(x.rng, chairColour === x.c ? BLACK : chairColour);
  const n = round ? 2 : Math.max(2, Math.min(4, Math.round(spanW / 70)));
  const props: Prim[] = [];
  for (let i = 0; i < n; i++) {
    const cx = round ? (i === 0 ? -1 : 1) * spanW * 0.3 : -spanW / 2 + ((i + 0.5) * spanW) / n;
    props.push(...transform(chair.prims, translate([cx, 0, -depthBack + 2])));
  }
  const shadeCol = x.rng.pick(['#1f2422', '#e9e4dc', BRASS, '#3d4a44']);
  const prof: [number, number][] = [];
  for (let i = 0; i <= 12; i++) {
    const t = (i / 12) * (Math.PI / 2);
    prof.push([Math.max(2.5, Math.cos(t) * 22), topY + 88 + Math.sin(t) * 18]);
  }
  props.push(lathe(0, 0, prof, { colour: shadeCol, finish: 'metal' }, { seg: 40 }));
  props.push(cyl(0, 0, topY + 87.6, topY + 88, 21.5, 21.5, lit('#fff6e2'), { seg: 40 }));
  props.push(
    line(
      [
        [0, topY + 106, 0],
        [0, topY + 400, 0],
      ],
      0.6,
      matte('#222222'),
    ),
  );
  // Centrepiece: a vase with a few stems.
  props.push(cyl(spanW * 0.08, 0, topY, topY + 18, 5, 4, ceramic('#efe9df'), { seg: 24 }));
  for (const [dx, dz, hgt] of [
    [-8, 0, 34],
    [6, 2, 40],
    [1, -4, 30],
  ] as const) {
    props.push(
      line(
        [
          [spanW * 0.08, topY + 16, 0],
          [spanW * 0.08 + dx, topY + 16 + hgt, dz],
        ],
        0.5,
        matte('#5e6f4a'),
      ),
    );
    props.push(sphere([spanW * 0.08 + dx, topY + 16 + hgt, dz], 2.2, matte('#e6d9c0')));
  }
  return props.map((p) => ({ ...p, noFit: true }));
}

function diningTable(x: Ctx): Model {
  const { W, D, H, c } = x;
  const hero = W >= 220;
  const t = hero ? 7 : 4;
  const top = wood(c);
  const prims: Prim[] = [
    box([-W / 2, W / 2], [H - t, H], [-D / 2, D / 2], top, {
      decor: [grain(x.id, hero ? 16 : 10), grain(x.id + 3, hero ? 4 : 2, ['front'])],
    }),
  ];
  if (hero) {
    // Sled legs in blackened steel (brass on the special edition).
    const steel = x.se ? metal(BRASS) : metal('#303033');
    for (const sx of [-1, 1]) {
      const lx = sx * (W / 2 - 30);
      const zs = D / 2 - 12;
      prims.push(box([lx - 3.5, lx + 3.5], [0, 4], [-zs - 3, zs + 3], steel));
      prims.push(box([lx - 3.5, lx + 3.5], [H - t - 4, H - t], [-zs - 3, zs + 3], steel));
      for (const sz of [-1, 1])
        prims.push(box([lx - 3.5, lx + 3.5], [4, H - t - 4], [sz * zs - 3, sz * zs + 3], steel));
    }
    prims.push(box([-W / 2 + 33, W / 2 - 33], [H - t - 6, H - t], [-3, 3], steel));
    return model(prims, [W / 2 - 25, H - 6, D / 2 - 10], {
      yaw: 24,
      elev: 20,
      detailZoom: 2.6,
      roomProps: diningProps(x, W * 0.8, D / 2, H, false),
    });
  }
  const style = x.rng.pick<LegStyle>(['tapered', 'tapered', 'round', 'block']);
  const inset = 8;
  prims.push(
    box(
      [-W / 2 + inset, W / 2 - inset],
      [H - t - 9, H - t],
      [-D / 2 + inset, D / 2 - inset],
      wood(shade(c, 0.92)),
    ),
  );
  prims.push(...fourLegs(W - inset * 2 - 3, D - inset * 2 - 3, H - t, 6, style, wood(c), x));
  return model(prims, [W / 2 - 8, H - 8, D / 2 - 8], {
    yaw: 22,
    elev: 20,
    roomProps: diningProps(x, W * 0.8, D / 2, H, false),
  });
}

function coffeeTable(x: Ctx): Model {
  const { W, D, H, c } = x;
  const chunky = x.v === 1;
  const t = chunky ? 6 : 3.5;
  const lt = chunky ? 11 : 4.5;
  const prims: Prim[] = [
    box([-W / 2, W / 2], [H - t, H], [-D / 2, D / 2], wood(c), { decor: [grain(x.id, 8)] }),
  ];
  const lw = W - (chunky ? lt : 10);
  const ld = D - (chunky ? lt : 10);
  prims.push(
    ...fourLegs(
      lw,
      ld,
      H - t,
      lt,
      chunky ? 'block' : x.rng.pick<LegStyle>(['tapered', 'round']),
      wood(shade(c, 0.97)),
      x,
    ),
  );
  if (!chunky) {
    prims.push(
      box([-lw / 2 + 2, lw / 2 - 2], [9, 11], [-ld / 2 + 2, ld / 2 - 2], wood(c), {
        decor: [grain(x.id + 5, 5)],
      }),
    );
  }
  // A couple of books and a bowl for scale.
  prims.push(boxAt(-W * 0.22, 4, H, 26, 3, 19, matte('#d9cfc0')));
  prims.push(boxAt(-W * 0.22 + 1, 3, H + 3, 22, 2.5, 16, matte('#5b6b73')));
  prims.push(cyl(W * 0.22, -3, H, H + 6, 6, 11, ceramic('#efe9df'), { seg: 24 }));
  return model(prims, [W / 2 - 6, H - 4, D / 2 - 6], { elev: 22, yaw: 20 });
}

function sideTable(x: Ctx): Model {
  const { W, D, H, c } = x;
  const r = Math.min(W, D) / 2;
  const prims: Prim[] = [];
  if (x.v === 0) {
    // Terrazzo top on a steel pedestal.
    prims.push(
      cyl(0, 0, H - 3, H, r, r, ceramic(x.se ? '#e9d5cf' : '#e7e2da'), {
        seg: 40,
        decor: [
          {
            type: 'speckle',
            faces: ['top'],
            n: 70,
            colours: [c, shade(c, 0.7), '#b9a48a', '#8d8d88'],
            seed: x.id,
            size: 0.9,
          },
        ],
      }),
    );
    const base = x.se ? metal(BRASS) : metal(c);
    prims.push(cyl(0, 0, 4, H - 3, 2.6, 2.6, base, { seg: 16 }));
    prims.push(cyl(0, 0, 0, 4, r * 0.62, r * 0.55, base, { seg: 36 }));
  } else {
    // Lacquered tripod with a lower tray.
    prims.push(cyl(0, 0, H - 3, H, r, r, matte(c), { seg: 40 }));
    prims.push(cyl(0, 0, 16, 18.5, r * 0.8, r * 0.8, matte(c), { seg: 36 }));
    for (let i = 0; i < 3; i++) {
      const a = (i / 3) * Math.PI * 2 + 0.5;
      const fx = Math.cos(a) * r * 0.82;
      const fz = Math.sin(a) * r * 0.82;
      prims.push(tube([fx, 0, fz], [fx * 0.75, H - 3, fz * 0.75], 1.3, 1.7, wood(OAK), 10));
    }
    if (x.se) prims.push(cyl(0, 0, 18.5, 19.5, r * 0.8, r * 0.8, metal(BRASS), { seg: 36 }));
  }
  // A small vase on top.
  prims.push(cyl(r * 0.3, 0, H, H + 13, 3.5, 2.2, ceramic('#f0ebe3'), { seg: 20 }));
  return model(prims, [r * 0.6, H - 2, r * 0.6], { elev: 22, yaw: 18, detailZoom: 2 });
}

function desk(x: Ctx): Model {
  const { W, D, H, c } = x;
  const prims: Prim[] = [];
  if (x.v === 0) {
    prims.push(
      box([-W / 2, W / 2], [H - 3, H], [-D / 2, D / 2], wood(c), { decor: [grain(x.id, 9)] }),
    );
    const ax = W / 2 - 6;
    prims.push(box([-ax, ax], [H - 15, H - 3], [-D / 2 + 5, D / 2 - 5], wood(shade(c, 0.95))));
    prims.push(...drawerFront(-ax + 6, -2, H - 14, H - 4, D / 2 - 5, wood(shade(c, 1.04)), x));
    prims.push(...drawerFront(2, ax - 6, H - 14, H - 4, D / 2 - 5, wood(shade(c, 1.04)), x));
    prims.push(...fourLegs(W - 14, D - 12, H - 15, 5.5, 'tapered', wood(c), x, 2));
    // Laptop and mug.
    prims.push(boxAt(-W * 0.12, 2, H, 32, 1.2, 22, metal('#b8bcc2')));
    prims.push(cyl(W * 0.3, 4, H, H + 9, 4, 4, ceramic('#f2eee8'), { seg: 18 }));
    return model(prims, [-2, H - 9, D / 2], { elev: 18, yaw: 20 });
  }
  // Sit-stand desk on a T-leg frame.
  prims.push(box([-W / 2, W / 2], [H - 2.5, H], [-D / 2, D / 2], matte(c)));
  const frame = x.se ? metal(BRASS) : metal('#3a3c40');
  for (const sx of [-1, 1]) {
    const lx = sx * (W / 2 - 18);
    prims.push(box([lx - 4, lx + 4], [0, 3.5], [-D / 2 + 6, D / 2 - 6], frame));
    prims.push(box([lx - 3.5, lx + 3.5], [3.5, H * 0.55], [-3, 3], frame));
    prims.push(box([lx - 2.8, lx + 2.8], [H * 0.55, H - 6], [-2.4, 2.4], frame));
    prims.push(box([lx - 3, lx + 3], [H - 6, H - 2.5], [-D / 2 + 8, D / 2 - 8], frame));
  }
  prims.push(box([-W / 2 + 21, W / 2 - 21], [H - 8, H - 3], [-D / 2 + 10, -D / 2 + 14], frame));
  prims.push(boxAt(W / 2 - 20, D / 2 - 6, H - 5, 12, 2.5, 5, matte('#26282b')));
  if (x.se)
    prims.push(
      box([-W / 2, W / 2], [H - 2.5, H], [-D / 2, D / 2], wood(c), { decor: [grain(x.id, 10)] }),
    );
  // Monitor.
  prims.push(boxAt(0, -D / 2 + 18, H, 20, 1.5, 14, metal('#3a3c40')));
  prims.push(boxAt(0, -D / 2 + 18, H + 1.5, 3, 14, 2, metal('#3a3c40')));
  prims.push(boxAt(0, -D / 2 + 20, H + 12, 60, 35, 2, matte('#1d1f22')));
  return model(prims, [W / 2 - 20, H - 4, D / 2 - 6], { elev: 18, yaw: 20 });
}

function consoleTable(x: Ctx): Model {
  const { W, D, H, c } = x;
  const prims: Prim[] = [];
  if (x.v === 0) {
    prims.push(
      box([-W / 2, W / 2], [H - 3, H], [-D / 2, D / 2], wood(c), { decor: [grain(x.id, 5)] }),
    );
    prims.push(
      box([-W / 2 + 4, W / 2 - 4], [H - 10, H - 3], [-D / 2 + 3, D / 2 - 3], wood(shade(c, 0.93))),
    );
    prims.push(
      box([-W / 2 + 4, W / 2 - 4], [14, 16.5], [-D / 2 + 3, D / 2 - 3], wood(c), {
        decor: [grain(x.id + 1, 4)],
      }),
    );
    prims.push(...fourLegs(W - 8, D - 6, H - 3, 4.5, 'tapered', wood(c), x));
    if (x.se)
      prims.push(
        box([-W / 2 + 4, W / 2 - 4], [16.5, 17.3], [D / 2 - 3.4, D / 2 - 2.6], metal(BRASS)),
      );
  } else {
    // Marble slab on a slim frame.
    prims.push(
      box([-W / 2, W / 2], [H - 3, H], [-D / 2, D / 2], ceramic(c), {
        decor: [{ type: 'grain', faces: ['top', 'front'], lines: 5, seed: x.id * 13 }],
      }),
    );
    const frame = x.se ? metal(BRASS) : metal(BLACK);
    for (const sx of [-1, 1]) {
      const lx = sx * (W / 2 - 6);
      for (const sz of [-1, 1])
        prims.push(
          box(
            [lx - 1.2, lx + 1.2],
            [0, H - 3],
            [sz * (D / 2 - 4) - 1.2, sz * (D / 2 - 4) + 1.2],
            frame,
          ),
        );
      prims.push(box([lx - 1.2, lx + 1.2], [0, 2.4], [-D / 2 + 3, D / 2 - 3], frame));
    }
    prims.push(box([-W / 2 + 6, W / 2 - 6], [H - 5.5, H - 3], [-D / 2 + 3, -D / 2 + 5.4], frame));
    prims.push(box([-W / 2 + 6, W / 2 - 6], [H - 5.5, H - 3], [D / 2 - 5.4, D / 2 - 3], frame));
  }
  // Decor: a stack of books, a vase with stems.
  prims.push(boxAt(-W * 0.28, 0, H, 24, 3, 17, matte('#c9bca6')));
  prims.push(boxAt(-W * 0.28, 0, H + 3, 21, 2.5, 15, matte('#7b4f3a')));
  prims.push(cyl(W * 0.28, 0, H, H + 22, 5, 3, ceramic('#3d4a44'), { seg: 20 }));
  prims.push(
    line(
      [
        [W * 0.28, H + 20, 0],
        [W * 0.28 - 6, H + 45, 0],
      ],
      0.5,
      matte('#6b7d5a'),
    ),
  );
  prims.push(
    line(
      [
        [W * 0.28, H + 20, 0],
        [W * 0.28 + 7, H + 42, 1],
      ],
      0.5,
      matte('#6b7d5a'),
    ),
  );
  return model(prims, [W / 2 - 6, H - 4, D / 2 - 4], { elev: 14, yaw: 20, detailZoom: 2.4 });
}

function roundTable(x: Ctx): Model {
  const { W, H, c } = x;
  const r = W / 2;
  const prims: Prim[] = [];
  if (x.v === 0) {
    prims.push(
      cyl(0, 0, H - 4, H, r, r, ceramic(c), {
        seg: 48,
        decor: [
          {
            type: 'speckle',
            faces: ['top'],
            n: 60,
            colours: [shade(c, 0.85), shade(c, 0.9)],
            seed: x.id,
            size: 1.4,
          },
        ],
      }),
    );
    const ped = wood(x.se ? '#4a3426' : OAK);
    prims.push(cyl(0, 0, 8, H - 4, 11, 15, ped, { seg: 28 }));
    prims.push(cyl(0, 0, 0, 8, 30, 24, ped, { seg: 36 }));
    if (x.se) prims.push(cyl(0, 0, H - 12, H - 8, 14.6, 15, metal(BRASS), { seg: 28 }));
  } else {
    prims.push(cyl(0, 0, H - 2.5, H, r, r, matte(c), { seg: 44 }));
    prims.push(
      cyl(0, 0, H - 4, H - 2.5, r * 0.3, r * 0.3, metal(x.se ? BRASS : BLACK), { seg: 20 }),
    );
    const m = x.se ? metal(BRASS) : metal(BLACK);
    prims.push(cyl(0, 0, 2, H - 4, 2.8, 2.8, m, { seg: 16 }));
    prims.push(cyl(0, 0, 0, 2, r * 0.55, r * 0.5, m, { seg: 36 }));
    if (x.se) prims.push(cyl(0, 0, H - 2.6, H - 2.4, r + 0.4, r + 0.4, metal(BRASS), { seg: 44 }));
  }
  // Fruit bowl.
  prims.push(cyl(-r * 0.15, 0, H, H + 7, 7, 13, ceramic('#f1ece3'), { seg: 28 }));
  prims.push(sphere([-r * 0.15 - 3, H + 8, 0], 4, matte('#d98a3a')));
  prims.push(sphere([-r * 0.15 + 4, H + 8, 2], 3.8, matte('#b5382b')));
  return model(prims, [r * 0.65, H - 3, r * 0.65], {
    elev: 20,
    yaw: 15,
    detailZoom: 2.1,
    roomProps: diningProps(x, W, r * 0.75, H, true),
  });
}

// ==================================================================== CHAIRS
function diningChair(x: Ctx, ox = 0): Model {
  const { W, D, H, c } = x;
  const prims: Prim[] = [];
  const seatH = 45;
  if (x.v === 0) {
    const m = wood(c);
    prims.push(
      box([-W / 2, W / 2], [seatH - 3, seatH], [-D / 2 + 2, D / 2], m, { decor: [grain(x.id, 5)] }),
    );
    prims.push(...leg(-W / 2 + 3, D / 2 - 3, seatH - 3, 4, 'tapered', m, x));
    prims.push(...leg(W / 2 - 3, D / 2 - 3, seatH - 3, 4, 'tapered', m, x));
    // Rear legs continue as back posts, leaning back slightly.
    for (const sx of [-1, 1]) {
      prims.push(
        beam(
          [sx * (W / 2 - 3), 0, -D / 2 + 4],
          [sx * (W / 2 - 3), seatH - 3, -D / 2 + 4],
          3.6,
          3.6,
          m,
        ),
      );
      prims.push(
        beam(
          [sx * (W / 2 - 3), seatH, -D / 2 + 4],
          [sx * (W / 2 - 3.5), H, -D / 2 - 2],
          3.2,
          3.2,
          m,
        ),
      );
    }
    prims.push(
      beam([-(W / 2 - 2), H - 6, -D / 2 - 1.4], [W / 2 - 2, H - 6, -D / 2 - 1.4], 9, 2.4, m),
    );
    prims.push(
      beam(
        [-(W / 2 - 3), seatH + 14, -D / 2 + 1.3],
        [W / 2 - 3, seatH + 14, -D / 2 + 1.3],
        4,
        2,
        m,
      ),
    );
    prims.push(
      box(
        [-W / 2 + 4, W / 2 - 4],
        [seatH - 9, seatH - 3],
        [D / 2 - 4.5, D / 2 - 2.5],
        wood(shade(c, 0.94)),
      ),
    );
    if (x.se)
      prims.push(
        box(
          [-W / 2 + 3, W / 2 - 3],
          [seatH, seatH + 2.5],
          [-D / 2 + 4, D / 2 - 2],
          leather('#6a4a33', 1),
        ),
      );
  } else {
    const up = upholstery(c, 2.5);
    const lm = wood(x.se ? '#3b2f2a' : OAK);
    prims.push(...fourLegs(W - 10, D - 10, seatH - 6, 3.6, 'tapered', lm, x, 1.5));
    prims.push(box([-W / 2, W / 2], [seatH - 6, seatH + 4], [-D / 2 + 5, D / 2], up));
    prims.push(
      ...transform(
        [box([-W / 2 + 1, W / 2 - 1], [seatH + 2, H], [-D / 2, -D / 2 + 7], upholstery(c, 3.2))],
        rotateX(-8, [0, seatH, -D / 2 + 4]),
      ),
    );
  }
  const out = ox !== 0 ? transform(prims, translate([ox, 0, 0])) : prims;
  return model(out, [W / 2 - 3, seatH, D / 2 - 3], { yaw: 28, elev: 14 });
}

function armchair(x: Ctx): Model {
  const { W, D, H, c } = x;
  const prims: Prim[] = [];
  if (x.v === 0) {
    // Wingback.
    const up = upholstery(c, 2.5);
    const legH = 14;
    const armW = 13;
    const lm = wood(x.se ? '#2c2420' : WALNUT);
    prims.push(...fourLegs(W - 14, D - 14, legH, 5, 'turned', lm, x));
    prims.push(box([-W / 2 + 3, W / 2 - 3], [legH, legH + 26], [-D / 2 + 6, D / 2 - 1], up));
    prims.push(
      box(
        [-W / 2 + armW, W / 2 - armW],
        [legH + 26, legH + 38],
        [-D / 2 + 22, D / 2],
        upholstery(c, 5),
      ),
    );
    prims.push(
      ...transform(
        [
          box(
            [-W / 2 + armW - 2, W / 2 - armW + 2],
            [legH + 20, H],
            [-D / 2, -D / 2 + 18],
            upholstery(c, 4),
          ),
        ],
        rotateX(-5, [0, legH, -D / 2]),
      ),
    );
    for (const sx of [-1, 1]) {
      const ax0 = sx < 0 ? -W / 2 : W / 2 - armW;
      prims.push(box([ax0, ax0 + armW], [legH, legH + 50], [-D / 2 + 10, D / 2], up));
      prims.push(
        tube(
          [ax0 + armW / 2 + sx * 1.5, legH + 50, D / 2 - 2],
          [ax0 + armW / 2 + sx * 1.5, legH + 50, -D / 2 + 14],
          armW * 0.58,
          armW * 0.58,
          fabric(c),
          14,
        ),
      );
      prims.push(
        box(
          [sx < 0 ? -W / 2 + 1 : W / 2 - armW - 1, sx < 0 ? -W / 2 + armW + 1 : W / 2 - 1],
          [legH + 52, H - 8],
          [-D / 2 + 2, -D / 2 + 34],
          upholstery(c, 4),
        ),
      );
    }
    return model(prims, [W / 2 - 8, legH + 50, D / 2 - 4], { yaw: 26, elev: 12 });
  }
  // Tub chair in bouclé.
  const up: Material = fabric(c, 7);
  const legH = 10;
  prims.push(...fourLegs(W - 22, D - 22, legH, 5, 'round', wood(x.se ? BRASS : OAK), x, 0));
  if (x.se)
    prims.push(
      box([-W / 2 + 8, W / 2 - 8], [legH - 2, legH], [-D / 2 + 8, D / 2 - 8], metal(BRASS)),
    );
  prims.push(box([-W / 2 + 4, W / 2 - 4], [legH, legH + 28], [-D / 2 + 4, D / 2 - 2], up));
  prims.push(
    box(
      [-W / 2 + 16, W / 2 - 16],
      [legH + 28, legH + 40],
      [-D / 2 + 20, D / 2],
      fabric(shade(c, 1.03), 6),
    ),
  );
  prims.push(box([-W / 2 + 2, W / 2 - 2], [legH + 20, H], [-D / 2, -D / 2 + 22], up));
  for (const sx of [-1, 1]) {
    const ax0 = sx < 0 ? -W / 2 : W / 2 - 17;
    prims.push(box([ax0, ax0 + 17], [legH + 20, H - 10], [-D / 2 + 8, D / 2 - 2], up));
  }
  return model(prims, [W / 2 - 12, H - 16, D / 2 - 6], { yaw: 24, elev: 14, detailZoom: 2.1 });
}

function loungeChair(x: Ctx): Model {
  const { W, D, H, c } = x;
  const prims: Prim[] = [];
  if (x.v === 0) {
    // Leather sling on an oak frame.
    const fw = wood(x.se ? '#3a2b20' : OAK);
    const armY = 52;
    for (const sx of [-1, 1]) {
      const fx = sx * (W / 2 - 3);
      prims.push(beam([fx, 0, D / 2 - 6], [fx, armY, D / 2 - 8], 4, 4, fw));
      prims.push(beam([fx, 0, -D / 2 + 4], [fx, armY - 2, -D / 2 + 22], 4, 4, fw));
      prims.push(beam([fx, armY, D / 2 - 2], [fx, armY - 2, -D / 2 + 18], 6, 3.2, fw));
      prims.push(beam([fx, 18, D / 2 - 6], [fx, 18, -D / 2 + 10], 3.2, 3.2, fw));
      if (x.se) prims.push(sphere([fx + sx * 2.2, armY - 1, D / 2 - 8], 1.2, metal(BRASS)));
    }
    const lt = leather(c, 3);
    prims.push(
      ...transform(
        [box([-W / 2 + 6, W / 2 - 6], [24, 36], [-D / 2 + 18, D / 2 - 4], lt)],
        rotateX(7, [0, 30, 0]),
      ),
    );
    prims.push(
      ...transform(
        [box([-W / 2 + 6, W / 2 - 6], [30, H + 4], [-D / 2 + 6, -D / 2 + 18], leather(c, 4))],
        rotateX(-24, [0, 30, -D / 2 + 18]),
      ),
    );
    prims.push(
      ...transform(
        [
          box(
            [-W / 2 + 8, W / 2 - 8],
            [H - 14, H + 2],
            [-D / 2 - 2, -D / 2 + 10],
            leather(shade(c, 1.03), 5),
          ),
        ],
        rotateX(-24, [0, 30, -D / 2 + 18]),
      ),
    );
    return model(prims, [W / 2 - 3, armY - 4, D / 2 - 6], { yaw: 30, elev: 14 });
  }
  // Rattan barrel chair with a linen cushion.
  const weave: Decor = { type: 'weave', faces: ['front', 'left', 'right', 'top', 'back'], n: 14 };
  const rat = wood(c);
  prims.push(
    box([-W / 2 + 4, W / 2 - 4], [8, 34], [-D / 2 + 6, D / 2 - 4], rat, { decor: [weave] }),
  );
  prims.push(...fourLegs(W - 14, D - 16, 8, 4, 'round', wood(shade(c, 0.8)), x));
  prims.push(box([-W / 2 + 2, W / 2 - 2], [30, H], [-D / 2, -D / 2 + 10], rat, { decor: [weave] }));
  for (const sx of [-1, 1]) {
    const ax0 = sx < 0 ? -W / 2 : W / 2 - 10;
    prims.push(
      box([ax0, ax0 + 10], [30, H - 18], [-D / 2 + 4, D / 2 - 4], rat, { decor: [weave] }),
    );
    prims.push(
      tube(
        [ax0 + 5, H - 18, D / 2 - 4],
        [ax0 + 5, H - 18, -D / 2 + 6],
        5.5,
        5.5,
        wood(shade(c, 1.05)),
        12,
      ),
    );
  }
  const cushion = x.se ? '#b4583a' : mix(c, LINEN, 0.82);
  prims.push(
    box([-W / 2 + 10, W / 2 - 10], [34, 46], [-D / 2 + 10, D / 2 - 2], fabric(cushion, 4)),
  );
  prims.push(
    ...transform(
      [box([-W / 2 + 12, W / 2 - 12], [44, H + 2], [-D / 2 + 9, -D / 2 + 22], fabric(cushion, 5))],
      rotateX(-10, [0, 44, -D / 2 + 10]),
    ),
  );
  return model(prims, [W / 2 - 6, H - 20, D / 2 - 8], { yaw: 24, elev: 14, detailZoom: 2.4 });
}

function officeChair(x: Ctx): Model {
  const { W, H, c } = x;
  const prims: Prim[] = [];
  const base = x.se ? metal(x.v === 0 ? CHROME : BRASS) : metal(x.v === 0 ? '#8d9196' : BLACK);
  const dark = matte('#2a2b2d');
  for (let i = 0; i < 5; i++) {
    const a = (i / 5) * Math.PI * 2 + Math.PI / 2;
    const ex = Math.cos(a) * 31;
    const ez = Math.sin(a) * 31;
    prims.push(beam([0, 9, 0], [ex, 7, ez], 4, 3, base));
    prims.push(sphere([ex, 3.2, ez], 3.2, matte('#1e1e20')));
  }
  prims.push(cyl(0, 0, 9, 40, 2.4, 2.4, metal(x.se && x.v === 1 ? BRASS : CHROME), { seg: 14 }));
  prims.push(cyl(0, 0, 7, 14, 4, 3.5, dark, { seg: 14 }));
  prims.push(boxAt(0, 0, 40, 22, 4, 22, dark));
  const sw = W * 0.78;
  prims.push(box([-sw / 2, sw / 2], [44, 52], [-22, 24], fabric(x.v === 0 ? shade(c, 1.1) : c, 3)));
  const backTop = x.v === 0 ? H - 12 : H;
  prims.push(beam([0, 44, -20], [0, 62, -30], 6, 2, dark));
  const back =
    x.v === 0
      ? box(
          [-sw / 2 + 2, sw / 2 - 2],
          [58, backTop],
          [-31, -28],
          { colour: c, finish: 'fabric', soft: 1 },
          { decor: [{ type: 'weave', faces: ['front', 'back'], n: 22 }] },
        )
      : box([-sw / 2 + 3, sw / 2 - 3], [58, backTop], [-32, -26], fabric(c, 3));
  prims.push(...transform([back], rotateX(-10, [0, 58, -28])));
  if (x.v === 0) {
    prims.push(
      ...transform(
        [box([-sw / 2 + 2, sw / 2 - 2], [58, 64], [-31, -27.5], dark)],
        rotateX(-10, [0, 58, -28]),
      ),
    );
    prims.push(
      ...transform(
        [box([-12, 12], [H - 9, H], [-35, -28], fabric(c, 2))],
        rotateX(-12, [0, 58, -28]),
      ),
    );
    for (const sx of [-1, 1]) {
      const ax = sx * (sw / 2 + 1);
      prims.push(beam([ax, 46, -8], [ax, 64, -8], 2.5, 3, dark));
      prims.push(box([ax - 3.5, ax + 3.5], [64, 67], [-18, 8], fabric('#2f3133', 1)));
    }
  }
  return model(prims, [sw / 2 - 4, 58, -10], { yaw: 28, elev: 12, rug: false, detailZoom: 2.2 });
}

function stool(x: Ctx): Model {
  const { W, H, c } = x;
  const prims: Prim[] = [];
  const r = W / 2;
  if (x.v === 0) {
    prims.push(cyl(0, 0, H - 4, H, r - 2, r, wood(c), { seg: 36, decor: [] }));
    const fm = x.se ? metal(BRASS) : metal('#303134');
    const legPts: Vec3[] = [];
    for (let i = 0; i < 4; i++) {
      const a = (i / 4) * Math.PI * 2 + Math.PI / 4;
      const top: Vec3 = [Math.cos(a) * r * 0.55, H - 4, Math.sin(a) * r * 0.55];
      const bot: Vec3 = [Math.cos(a) * r * 0.95, 0, Math.sin(a) * r * 0.95];
      prims.push(tube(bot, top, 1.2, 1.2, fm, 8));
      legPts.push([bot[0] + (top[0] - bot[0]) * 0.38, H * 0.38, bot[2] + (top[2] - bot[2]) * 0.38]);
    }
    for (let i = 0; i < 4; i++) {
      const a = legPts[i];
      const b = legPts[(i + 1) % 4];
      if (a && b) prims.push(tube(a, b, 1, 1, fm, 8));
    }
    return model(prims, [r * 0.7, H - 3, r * 0.7], { yaw: 20, elev: 18, detailZoom: 2 });
  }
  const fm = metal(c);
  prims.push(cyl(0, 0, H - 3.5, H, r - 4, r - 3, wood(x.se ? WALNUT : OAK), { seg: 36 }));
  prims.push(cyl(0, 0, H - 6, H - 3.5, r - 6, r - 6, fm, { seg: 28 }));
  const feet: Vec3[] = [];
  for (let i = 0; i < 4; i++) {
    const a = (i / 4) * Math.PI * 2 + Math.PI / 4;
    const bot: Vec3 = [Math.cos(a) * r, 0, Math.sin(a) * r];
    prims.push(tube(bot, [Math.cos(a) * (r - 6), H - 6, Math.sin(a) * (r - 6)], 1.3, 1.3, fm, 8));
    feet.push([Math.cos(a) * (r - 2.2), 28, Math.sin(a) * (r - 2.2)]);
  }
  const ring = x.se ? metal(BRASS) : fm;
  for (let i = 0; i < 4; i++) {
    const a = feet[i];
    const b = feet[(i + 1) % 4];
    if (a && b) prims.push(tube(a, b, 1, 1, ring, 8));
  }
  return model(prims, [r * 0.6, 28, r * 0.6], { yaw: 20, elev: 16, detailZoom: 2.1 });
}

function rockingChair(x: Ctx): Model {
  const { W, D, H, c } = x;
  const prims: Prim[] = [];
  const m = wood(c);
  const seatH = 42;
  const R = 150;
  // Runners: arc of beams along z.
  for (const sx of [-1, 1]) {
    const rx = sx * (W / 2 - 5);
    const pts: Vec3[] = [];
    for (let i = 0; i <= 8; i++) {
      const t = -0.62 + (i / 8) * 1.24;
      const z = Math.sin((t * (D * 0.62)) / R) * R;
      pts.push([rx, R - Math.cos((t * (D * 0.62)) / R) * R + 2, z]);
    }
    for (let i = 0; i < pts.length - 1; i++) {
      const a = pts[i];
      const b = pts[i + 1];
      if (a && b) prims.push(beam(a, b, 2.6, 3.5, x.se && x.v === 1 ? metal(BRASS) : m));
    }
    prims.push(beam([rx, 3, D * 0.28], [rx, seatH - 3, D * 0.26], 3.2, 3.2, m));
    prims.push(beam([rx, 3, -D * 0.24], [rx, seatH - 3, -D * 0.22], 3.2, 3.2, m));
  }
  if (x.v === 0) {
    prims.push(box([-W / 2 + 2, W / 2 - 2], [seatH - 4, seatH], [-D * 0.3, D * 0.34], m));
    const cushion = x.se ? '#efe8dc' : LINEN;
    prims.push(
      box([-W / 2 + 5, W / 2 - 5], [seatH, seatH + 7], [-D * 0.24, D * 0.33], fabric(cushion, 3)),
    );
    const back = [
      ...[-1, 1].map((sx) =>
        beam(
          [sx * (W / 2 - 4), seatH - 4, -D * 0.27],
          [sx * (W / 2 - 4), H, -D * 0.27],
          3.4,
          3.4,
          m,
        ),
      ),
      box([-W / 2 + 5.5, W / 2 - 5.5], [seatH + 4, H - 2], [-D * 0.27 - 1.2, -D * 0.27 + 1.2], m, {
        decor: [grain(x.id, 6, ['front'])],
      }),
      box(
        [-W / 2 + 8, W / 2 - 8],
        [seatH + 8, H - 8],
        [-D * 0.27 + 1.2, -D * 0.27 + 7],
        fabric(cushion, 3),
      ),
    ];
    prims.push(...transform(back, rotateX(-14, [0, seatH, -D * 0.27])));
    for (const sx of [-1, 1]) {
      prims.push(
        beam(
          [sx * (W / 2 - 3), seatH + 22, D * 0.32],
          [sx * (W / 2 - 3), seatH + 24, -D * 0.3],
          6,
          2.6,
          m,
        ),
      );
      prims.push(
        beam(
          [sx * (W / 2 - 3), seatH, D * 0.28],
          [sx * (W / 2 - 3), seatH + 22, D * 0.28],
          2.8,
          2.8,
          m,
        ),
      );
    }
    return model(prims, [W / 2 - 4, seatH + 8, D * 0.3], { yaw: 42, elev: 12, studioYaw: 68 });
  }
  // Shaker ladder-back with a woven tape seat.
  const tape = x.se ? '#efe6d2' : '#e2d3b4';
  prims.push(
    box([-W / 2 + 2, W / 2 - 2], [seatH - 3, seatH], [-D * 0.26, D * 0.3], fabric(tape, 0.5), {
      decor: [{ type: 'weave', faces: ['top'], n: 12 }],
    }),
  );
  const back: Prim[] = [];
  for (const sx of [-1, 1]) {
    back.push(
      tube(
        [sx * (W / 2 - 4), seatH, -D * 0.24],
        [sx * (W / 2 - 4), H - 3, -D * 0.24],
        1.8,
        1.8,
        m,
        10,
      ),
    );
    back.push(sphere([sx * (W / 2 - 4), H - 1.5, -D * 0.24], 2.4, m));
  }
  for (let i = 0; i < 4; i++) {
    const y = seatH + 16 + i * ((H - seatH - 24) / 3);
    back.push(beam([-(W / 2 - 4), y, -D * 0.24], [W / 2 - 4, y, -D * 0.24], 6, 1.4, m));
  }
  prims.push(...transform(back, rotateX(-8, [0, seatH, -D * 0.24])));
  for (const sx of [-1, 1]) {
    prims.push(
      tube(
        [sx * (W / 2 - 4), seatH, D * 0.28],
        [sx * (W / 2 - 4), seatH + 20, D * 0.28],
        1.7,
        1.7,
        m,
        10,
      ),
    );
    prims.push(
      beam(
        [sx * (W / 2 - 2), seatH + 21, D * 0.33],
        [sx * (W / 2 - 3), seatH + 21, -D * 0.22],
        5,
        2,
        m,
      ),
    );
  }
  return model(prims, [W / 2 - 4, seatH + 20, D * 0.3], { yaw: 44, elev: 12, studioYaw: 68 });
}

// ===================================================================== SOFAS
interface SofaOpts {
  seats: number;
  armW: number;
  armH: number;
  legH: number;
  legStyle: LegStyle;
  backCushions: boolean;
  rolledArms: boolean;
  tufted: boolean;
  leather: boolean;
  channel: boolean;
  drawer: boolean;
  width?: number;
  depth?: number;
}

function sofaBody(x: Ctx, o: SofaOpts): Prim[] {
  const W = o.width ?? x.W;
  const D = o.depth ?? x.D;
  const H = x.H;
  const c = x.c;
  const fin = o.leather ? 'leather' : 'fabric';
  const prims: Prim[] = [];
  const lm = x.se ? metal(BRASS) : wood(o.leather ? '#3a2a20' : shade(OAK, 0.8));
  prims.push(...fourLegs(W - 16, D - 16, o.legH, 5, o.legStyle, lm, x, 0));
  const baseTop = o.legH + 22;
  prims.push(
    box(
      [-W / 2 + o.armW - 1, W / 2 - o.armW + 1],
      [o.legH, baseTop],
      [-D / 2 + 8, D / 2],
      upholstery(c, 2, fin),
      {
        decor: o.drawer
          ? [
              {
                type: 'band',
                faces: ['front'],
                from: 0.45,
                to: 0.5,
                along: 'v',
                colour: shade(c, 0.6),
                opacity: 0.6,
              },
            ]
          : [],
      },
    ),
  );
  const backDecor: Decor[] = [];
  if (o.tufted)
    backDecor.push({
      type: 'buttons',
      faces: ['front'],
      nu: Math.round(W / 22),
      nv: 3,
      margin: 0.08,
    });
  if (o.channel)
    backDecor.push({ type: 'channels', faces: ['front'], n: Math.round(W / 18), along: 'v' });
  prims.push(
    ...transform(
      [
        box(
          [-W / 2 + o.armW - 2, W / 2 - o.armW + 2],
          [o.legH, H],
          [-D / 2, -D / 2 + 20],
          upholstery(c, o.tufted ? 3 : 4, fin),
          { decor: backDecor },
        ),
      ],
      rotateX(o.backCushions ? 0 : -4, [0, o.legH, -D / 2]),
    ),
  );
  for (const sx of [-1, 1]) {
    const ax0 = sx < 0 ? -W / 2 : W / 2 - o.armW;
    prims.push(
      box(
        [ax0, ax0 + o.armW],
        [o.legH, o.armH],
        [-D / 2 + 2, D / 2],
        upholstery(c, o.rolledArms ? 2 : 4, fin),
        {
          decor: o.tufted
            ? [{ type: 'buttons', faces: [sx < 0 ? 'right' : 'left'], nu: 3, nv: 2, margin: 0.15 }]
            : [],
        },
      ),
    );
    if (o.rolledArms) {
      const r = o.armW * 0.62;
      prims.push(
        tube(
          [ax0 + o.armW / 2 + sx * 2, o.armH, D / 2 - 1],
          [ax0 + o.armW / 2 + sx * 2, o.armH, -D / 2 + 8],
          r,
          r,
          upholstery(shade(c, 1.02), 0, fin),
          16,
        ),
      );
    }
  }
  const inner = W - o.armW * 2;
  const sw = inner / o.seats;
  for (let i = 0; i < o.seats; i++) {
    const x0 = -inner / 2 + i * sw;
    prims.push(
      box(
        [x0 + 0.6, x0 + sw - 0.6],
        [baseTop, baseTop + 14],
        [-D / 2 + 18, D / 2 + 1],
        upholstery(shade(c, 1.03), 5, fin),
      ),
    );
    if (o.backCushions) {
      prims.push(
        ...transform(
          [
            box(
              [x0 + 1, x0 + sw - 1],
              [baseTop + 10, H + 4],
              [-D / 2 + 12, -D / 2 + 30],
              upholstery(shade(c, 1.05), 7, fin),
            ),
          ],
          rotateX(-12, [0, baseTop + 10, -D / 2 + 20]),
        ),
      );
    }
  }
  return prims;
}

function throwPillow(
  cx: number,
  cy: number,
  cz: number,
  size: number,
  colour: string,
  tilt = -20,
  yaw = 0,
): Prim[] {
  const p = box(
    [cx - size / 2, cx + size / 2],
    [cy, cy + size],
    [cz - 6, cz + 6],
    fabric(colour, 5),
  );
  return transform(transform([p], rotateX(tilt, [cx, cy, cz])), rotateY(yaw, [cx, cy, cz]));
}

function pillowColours(x: Ctx): [string, string] {
  const l = luminance(x.c);
  return l > 0.6 ? [shade(x.c, 0.7), '#c9a37a'] : [mix(x.c, '#f2ece2', 0.65), '#d7b98f'];
}

function sofa(x: Ctx): Model {
  const chesterfield = x.v === 1;
  const seats = chesterfield ? 3 : x.rng.pick([2, 3, 3]);
  const prims = sofaBody(x, {
    seats,
    armW: chesterfield ? 18 : 20,
    armH: chesterfield ? x.H : 60,
    legH: chesterfield ? 8 : 13,
    legStyle: chesterfield ? 'turned' : x.rng.pick<LegStyle>(['tapered', 'block', 'round']),
    backCushions: !chesterfield,
    rolledArms: chesterfield,
    tufted: chesterfield,
    leather: chesterfield,
    channel: false,
    drawer: false,
  });
  if (!chesterfield) {
    const [a, b] = pillowColours(x);
    const y = 13 + 22 + 12;
    prims.push(...throwPillow(-x.W / 2 + 40, y, -x.D / 2 + 34, 42, a, -18, 12));
    prims.push(...throwPillow(x.W / 2 - 40, y, -x.D / 2 + 34, 42, b, -18, -12));
  }
  return model(prims, [x.W / 2 - 14, 58, x.D / 2 - 6], { yaw: 20, elev: 14 });
}

function loveseat(x: Ctx): Model {
  const slim = x.v === 1;
  const prims = sofaBody(x, {
    seats: 2,
    armW: slim ? 11 : 18,
    armH: slim ? 56 : 58,
    legH: slim ? 18 : 12,
    legStyle: slim ? 'tapered' : 'round',
    backCushions: true,
    rolledArms: !slim,
    tufted: false,
    leather: false,
    channel: false,
    drawer: false,
  });
  const [a] = pillowColours(x);
  prims.push(...throwPillow(-x.W / 2 + 36, 18 + 22 + 12, -x.D / 2 + 34, 40, a, -18, 14));
  return model(prims, [x.W / 2 - 10, 56, x.D / 2 - 6], { yaw: 22, elev: 14 });
}

function sectional(x: Ctx): Model {
  const { W, D: fullD, H, c } = x;
  const modular = x.v === 1;
  const D = 95;
  const legH = modular ? 4 : 10;
  const armW = modular ? 0 : 18;
  const prims: Prim[] = [];
  const lm = x.se ? metal(BRASS) : wood(shade(OAK, 0.75));
  const baseTop = legH + 22;
  const chaiseW = 95;
  // Legs / plinth.
  if (modular) {
    prims.push(
      box(
        [-W / 2 + 4, W / 2 - 4],
        [0, legH],
        [-D / 2 + 4, D / 2 - 4],
        x.se ? metal(BRASS) : matte(shade(c, 0.5)),
      ),
    );
    prims.push(
      box(
        [W / 2 - chaiseW + 4, W / 2 - 4],
        [0, legH],
        [D / 2 - 4, fullD - D / 2 - 4],
        x.se ? metal(BRASS) : matte(shade(c, 0.5)),
      ),
    );
  } else {
    prims.push(...leg(-W / 2 + 8, -D / 2 + 8, legH, 5, 'block', lm, x));
    prims.push(...leg(-W / 2 + 8, D / 2 - 8, legH, 5, 'block', lm, x));
    prims.push(...leg(W / 2 - 8, -D / 2 + 8, legH, 5, 'block', lm, x));
    prims.push(...leg(W / 2 - 8, fullD - D / 2 - 8, legH, 5, 'block', lm, x));
    prims.push(...leg(W / 2 - chaiseW + 8, fullD - D / 2 - 8, legH, 5, 'block', lm, x));
  }
  const up = (soft: number, k = 1): Material => fabric(shade(c, k), soft);
  prims.push(box([-W / 2 + armW, W / 2], [legH, baseTop], [-D / 2 + 8, D / 2], up(2)));
  prims.push(box([W / 2 - chaiseW, W / 2], [legH, baseTop], [D / 2, fullD - D / 2], up(2)));
  prims.push(box([-W / 2 + armW - 2, W / 2], [legH, H], [-D / 2, -D / 2 + 18], up(4)));
  if (!modular) {
    prims.push(box([-W / 2, -W / 2 + armW], [legH, 60], [-D / 2 + 2, D / 2], up(4)));
  }
  // Seat cushions: main run + chaise.
  const mainW = W - armW - chaiseW;
  const n = modular ? 2 : 2;
  for (let i = 0; i < n; i++) {
    const x0 = -W / 2 + armW + (i * mainW) / n;
    prims.push(
      box(
        [x0 + 0.6, x0 + mainW / n - 0.6],
        [baseTop, baseTop + 13],
        [-D / 2 + 18, D / 2 + 1],
        up(5, 1.03),
      ),
    );
  }
  prims.push(
    box(
      [W / 2 - chaiseW + 0.6, W / 2 - 0.6],
      [baseTop, baseTop + 13],
      [-D / 2 + 18, fullD - D / 2 + 1],
      up(5, 1.03),
    ),
  );
  const backs = modular ? 3 : 3;
  const bw = (W - armW) / backs;
  for (let i = 0; i < backs; i++) {
    const x0 = -W / 2 + armW + i * bw;
    prims.push(
      ...transform(
        [
          box(
            [x0 + 1, x0 + bw - 1],
            [baseTop + 10, H + (modular ? 0 : 6)],
            [-D / 2 + 12, -D / 2 + 30],
            up(modular ? 4 : 7, 1.06),
          ),
        ],
        rotateX(-10, [0, baseTop + 10, -D / 2 + 20]),
      ),
    );
  }
  const [a, b] = pillowColours(x);
  prims.push(...throwPillow(-W / 2 + armW + 30, baseTop + 12, -D / 2 + 34, 42, a, -18, 12));
  prims.push(...throwPillow(W / 2 - 40, baseTop + 12, -D / 2 + 34, 42, b, -18, -14));
  // Centre the footprint.
  const shifted = transform(prims, translate([0, 0, -(fullD - D) / 2]));
  return model(shifted, [W / 2 - 30, baseTop + 12, fullD / 2 - 4], { yaw: 16, elev: 22 });
}

function chaise(x: Ctx): Model {
  const { W, D, H, c } = x;
  const prims: Prim[] = [];
  if (x.v === 0) {
    // Scroll-end chaise longue.
    const legH = 14;
    prims.push(
      ...fourLegs(W - 16, D - 14, legH, 4.6, 'turned', wood(x.se ? WALNUT : shade(OAK, 0.85)), x),
    );
    prims.push(box([-W / 2 + 2, W / 2], [legH, legH + 20], [-D / 2, D / 2], fabric(c, 2)));
    prims.push(
      box(
        [-W / 2 + 14, W / 2 - 1],
        [legH + 20, legH + 32],
        [-D / 2 + 1, D / 2 - 1],
        fabric(shade(c, 1.04), 5),
      ),
    );
    prims.push(
      ...transform(
        [box([-W / 2, -W / 2 + 16], [legH, H], [-D / 2, D / 2], fabric(c, 4))],
        rotateZ(14, [-W / 2 + 8, legH, 0]),
      ),
    );
    prims.push(
      ...transform(
        [
          tube(
            [-W / 2 + 8, H, D / 2 - 1],
            [-W / 2 + 8, H, -D / 2 + 1],
            9,
            9,
            fabric(shade(c, 1.03)),
            16,
          ),
        ],
        rotateZ(14, [-W / 2 + 8, legH, 0]),
      ),
    );
    prims.push(box([-W / 2 + 12, 0], [legH + 20, H - 18], [-D / 2, -D / 2 + 12], fabric(c, 4)));
    prims.push(box([0, W * 0.22], [legH + 20, H - 34], [-D / 2, -D / 2 + 12], fabric(c, 4)));
    prims.push(...throwPillow(-W / 2 + 34, legH + 32, 0, 34, pillowColours(x)[0], -60, 90));
    return model(prims, [-W / 2 + 12, H - 6, D / 2 - 2], { yaw: 18, elev: 16 });
  }
  // Mid-century channel-tufted chaise.
  const legH = 20;
  prims.push(...fourLegs(W - 20, D - 16, legH, 4, 'tapered', wood(shade(OAK, 0.8)), x, 2));
  prims.push(box([-W / 2, W / 2], [legH, legH + 16], [-D / 2 + 6, D / 2], fabric(c, 3)));
  prims.push(
    ...transform(
      [
        box([-W / 2, W / 2 - 40], [legH + 8, H], [-D / 2, -D / 2 + 14], fabric(shade(c, 1.04), 4), {
          decor: [{ type: 'channels', faces: ['front'], n: 8, along: 'v' }],
        }),
      ],
      rotateX(-12, [0, legH, -D / 2 + 8]),
    ),
  );
  prims.push(box([-W / 2, -W / 2 + 12], [legH + 10, legH + 38], [-D / 2 + 6, D / 2], fabric(c, 4)));
  return model(prims, [-W / 2 + 10, legH + 30, D / 2 - 4], { yaw: 20, elev: 16 });
}

function sofaBed(x: Ctx): Model {
  const storage = x.v === 1;
  const prims = sofaBody(x, {
    seats: storage ? 2 : 3,
    armW: storage ? 16 : 14,
    armH: 62,
    legH: storage ? 6 : 10,
    legStyle: storage ? 'block' : 'round',
    backCushions: true,
    rolledArms: false,
    tufted: false,
    leather: false,
    channel: false,
    drawer: storage,
  });
  if (x.alt) {
    // Unfolded: a made-up mattress pulled out in front of the seat.
    const y0 = 30;
    const w = x.W - 2 * (storage ? 16 : 14) - 6;
    prims.push(...leg(-w / 2 + 4, x.D / 2 + 118, y0, 2.4, 'round', metal(BLACK), x));
    prims.push(...leg(w / 2 - 4, x.D / 2 + 118, y0, 2.4, 'round', metal(BLACK), x));
    prims.push(
      box([-w / 2, w / 2], [y0, y0 + 12], [x.D / 2 - 4, x.D / 2 + 120], fabric(BED_WHITE, 3), {
        decor: [{ type: 'quilt', faces: ['top'], n: 6 }],
      }),
    );
    prims.push(
      box(
        [-w / 2 - 1, w / 2 + 1],
        [y0 + 6, y0 + 15],
        [x.D / 2 + 40, x.D / 2 + 121],
        fabric(mix(x.c, '#ffffff', 0.5), 4),
      ),
    );
    return model(transform(prims, translate([0, 0, -60])), [w / 2 - 10, y0 + 12, x.D / 2 + 50], {
      yaw: 26,
      elev: 26,
    });
  }
  return model(prims, [x.W / 2 - 10, 50, x.D / 2 - 4], { yaw: 20, elev: 14 });
}

function ottoman(x: Ctx): Model {
  const { W, D, H, c } = x;
  const prims: Prim[] = [];
  if (x.v === 0) {
    const r = W / 2;
    const hBase = x.se ? 4 : 0;
    if (x.se) prims.push(cyl(0, 0, 0, hBase, r * 0.8, r * 0.8, metal(BRASS), { seg: 40 }));
    const prof: [number, number][] = [];
    for (let i = 0; i <= 12; i++) {
      const t = -Math.PI / 2 + (i / 12) * Math.PI;
      prof.push([r * (0.8 + 0.2 * Math.cos(t)), hBase + ((Math.sin(t) + 1) / 2) * (H - hBase)]);
    }
    prims.push(lathe(0, 0, prof, fabric(c), { seg: 44 }));
    prims.push(cyl(0, 0, H, H + 0.4, r * 0.2, r * 0.2, fabric(shade(c, 0.8)), { seg: 20 }));
    prims.push(cyl(r * 0.25, r * 0.1, H + 0.4, H + 2.4, 11, 11, wood(OAK), { seg: 30 }));
    prims.push(cyl(r * 0.25, r * 0.1, H + 2.4, H + 10, 3.6, 3.6, ceramic('#f2ede5'), { seg: 18 }));
    return model(prims, [r * 0.6, H - 4, r * 0.6], { yaw: 10, elev: 22, detailZoom: 1.9 });
  }
  prims.push(...fourLegs(W - 10, D - 10, 14, 4.6, 'turned', wood(shade(OAK, 0.8)), x));
  prims.push(
    box([-W / 2, W / 2], [14, H], [-D / 2, D / 2], fabric(c, 4), {
      decor: [{ type: 'buttons', faces: ['top'], nu: 4, nv: 3, margin: 0.16 }],
    }),
  );
  return model(prims, [W / 2 - 6, H - 6, D / 2 - 4], { yaw: 22, elev: 22, detailZoom: 2 });
}

// =================================================================== BEDDING
interface BedOpts {
  frameColour: string;
  frameMat: 'wood' | 'fabric';
  headboard: 'slats' | 'panel';
  duvet: string;
  duvetDecor: Decor[];
  pillows: string;
  throwColour?: string;
  W: number;
  D: number;
  headH: number;
}

function bedBody(x: Ctx, o: BedOpts): Prim[] {
  const { W, D, headH } = o;
  const prims: Prim[] = [];
  const fm: Material = o.frameMat === 'wood' ? wood(o.frameColour) : fabric(o.frameColour, 2);
  const legs = x.se ? metal(BRASS) : wood(o.frameMat === 'wood' ? o.frameColour : shade(OAK, 0.8));
  prims.push(...fourLegs(W - 6, D - 6, 12, 5, 'block', legs, x));
  prims.push(
    box([-W / 2, W / 2], [12, 32], [-D / 2 + 4, D / 2], fm, {
      decor: o.frameMat === 'wood' ? [grain(x.id, 3, ['front', 'left', 'right'])] : [],
    }),
  );
  // Headboard.
  if (o.headboard === 'slats') {
    const posts = wood(o.frameColour);
    for (const sx of [-1, 1])
      prims.push(
        box(
          [(sx * W) / 2 - 3, (sx * W) / 2 + 3].sort((a, b) => a - b) as [number, number],
          [0, headH],
          [-D / 2 - 2, -D / 2 + 4],
          posts,
        ),
      );
    prims.push(box([-W / 2 + 3, W / 2 - 3], [headH - 9, headH], [-D / 2 - 1, -D / 2 + 3], posts));
    const n = Math.round(W / 14);
    for (let i = 0; i < n; i++) {
      const sx0 = -W / 2 + 6 + (i * (W - 12)) / n;
      prims.push(
        box([sx0 + 1.5, sx0 + (W - 12) / n - 1.5], [36, headH - 9], [-D / 2, -D / 2 + 2], posts),
      );
    }
    if (x.se)
      for (const sx of [-1, 1])
        prims.push(
          box(
            [(sx * W) / 2 - 3.3, (sx * W) / 2 + 3.3].sort((a, b) => a - b) as [number, number],
            [headH - 3, headH + 0.5],
            [-D / 2 - 2.3, -D / 2 + 4.3],
            metal(BRASS),
          ),
        );
  } else {
    prims.push(
      box(
        [-W / 2 - 4, W / 2 + 4],
        [12, headH],
        [-D / 2 - 6, -D / 2 + 6],
        fabric(o.frameColour, 4),
        {
          decor: [{ type: 'channels', faces: ['front'], n: Math.round(W / 20), along: 'v' }],
        },
      ),
    );
  }
  // Mattress, duvet, pillows.
  prims.push(box([-W / 2 + 3, W / 2 - 3], [30, 52], [-D / 2 + 5, D / 2 - 2], fabric(BED_WHITE, 3)));
  prims.push(
    box([-W / 2 + 1, W / 2 - 1], [34, 57], [-D / 2 + 58, D / 2 + 1], fabric(o.duvet, 4), {
      decor: o.duvetDecor,
    }),
  );
  prims.push(
    box(
      [-W / 2 + 1.5, W / 2 - 1.5],
      [50, 58],
      [-D / 2 + 48, -D / 2 + 64],
      fabric(shade(o.duvet, 1.05), 4),
    ),
  );
  const pw = Math.min(70, (W - 14) / 2);
  for (const sx of [-1, 1]) {
    const cx = sx * (pw / 2 + 3);
    prims.push(
      ...transform(
        [
          box(
            [cx - pw / 2, cx + pw / 2],
            [52, 66],
            [-D / 2 + 12, -D / 2 + 46],
            fabric(o.pillows, 6),
          ),
        ],
        rotateX(-28, [cx, 52, -D / 2 + 14]),
      ),
    );
  }
  if (o.throwColour) {
    prims.push(
      box(
        [-W / 2 - 1.5, W / 2 + 1.5],
        [44, 58.5],
        [D / 2 - 50, D / 2 - 14],
        fabric(o.throwColour, 2),
        {
          decor: [
            {
              type: 'band',
              faces: ['top'],
              from: 0.15,
              to: 0.22,
              along: 'v',
              colour: shade(o.throwColour, 0.7),
              opacity: 0.8,
            },
          ],
        },
      ),
    );
  }
  return prims;
}

function bed(x: Ctx): Model {
  const upholstered = x.v === 1;
  const prims = bedBody(x, {
    frameColour: x.c,
    frameMat: upholstered ? 'fabric' : 'wood',
    headboard: upholstered ? 'panel' : 'slats',
    duvet: x.rng.pick(['#efeae1', '#e6e1d8', '#f2eee8']),
    duvetDecor: [],
    pillows: '#f6f3ee',
    throwColour: x.rng.pick(['#b8643f', '#6f7f6a', '#c9a36a', '#5f6f86']),
    W: x.W,
    D: x.D,
    headH: x.H,
  });
  return model(prims, [x.W / 2 - 6, 28, x.D / 2 - 4], { yaw: 32, elev: 22, detailZoom: 2.4 });
}

function duvet(x: Ctx): Model {
  const linen = x.v === 1;
  const c = x.c;
  const decor: Decor[] = linen
    ? [{ type: 'grain', faces: ['top', 'front'], lines: 7, seed: x.id * 3, along: 'v' }]
    : [];
  if (x.se)
    decor.push({
      type: 'band',
      faces: ['top'],
      from: 0.9,
      to: 0.94,
      along: 'v',
      colour: linen ? '#f1ebe0' : '#c8ab72',
    });
  const prims = bedBody(x, {
    frameColour: linen ? '#b9a58d' : OAK,
    frameMat: linen ? 'fabric' : 'wood',
    headboard: linen ? 'panel' : 'slats',
    duvet: c,
    duvetDecor: decor,
    pillows: shade(c, 1.04),
    W: 160,
    D: 205,
    headH: 105,
  });
  return model(prims, [40, 56, 102], { yaw: 30, elev: 26, detailZoom: 2.6 });
}

function pillowSet(x: Ctx): Model {
  const c = x.c;
  if (x.v === 0) {
    // Sleeping pillows on a made bed, framed close on the pillows.
    const duvetColour = luminance(c) > 0.7 ? '#9eabb6' : '#efeae1';
    const prims = bedBody(x, {
      frameColour: '#b9a58d',
      frameMat: 'fabric',
      headboard: 'panel',
      duvet: duvetColour,
      duvetDecor: [],
      pillows: c,
      W: 160,
      D: 200,
      headH: 110,
    });
    // Extra pair lying flat in front of the standing pillows.
    for (const sx of [-1, 1]) {
      prims.push(
        box(
          [sx * 38 - 34, sx * 38 + 34],
          [55, 69],
          [-100 + 46, -100 + 92],
          fabric(shade(c, 1.03), 6.5),
        ),
      );
    }
    if (x.se)
      prims.push(box([-28, 28], [57, 71], [-100 + 94, -100 + 124], fabric(shade(c, 0.95), 5)));
    return model(prims, [40, 66, -30], {
      yaw: 20,
      elev: 24,
      detailZoom: 1.9,
      fitBox: { min: [-80, 30, -104], max: [80, 112, 40] },
    });
  }
  // Three cushions on a neutral sofa.
  const sofaCtx: Ctx = { ...x, W: 170, D: 88, H: 78, c: '#cfc8bd', se: false, rng: x.rng };
  const prims = sofaBody(sofaCtx, {
    seats: 2,
    armW: 14,
    armH: 58,
    legH: 14,
    legStyle: 'tapered',
    backCushions: false,
    rolledArms: false,
    tufted: false,
    leather: false,
    channel: false,
    drawer: false,
  });
  const cols = x.se ? [c, '#24407a', '#5b3a78'] : [c, shade(c, 0.78), mix(c, '#e8c9a0', 0.5)];
  const pos: [number, number, number][] = [
    [-46, 0, 12],
    [0, 3, 0],
    [46, 0, -12],
  ];
  pos.forEach(([px, pz, yaw], i) => {
    const col = cols[i] ?? c;
    const y0 = 14 + 22 + 12;
    const cushion = box([-22, 22], [y0, y0 + 44], [-8, 6], fabric(col, 6.5));
    prims.push(
      ...transform(transform([cushion], rotateX(-16, [0, y0, -8])), (p) =>
        rotateY(yaw)(translate([px, 0, pz - 14])(p)),
      ),
    );
    if (x.se) prims.push(sphere([px, y0 + 45, pz - 22], 1.1, metal(BRASS)));
  });
  return model(prims, [0, 70, -10], {
    yaw: 14,
    elev: 14,
    detailZoom: 2.1,
    fitBox: { min: [-85, 10, -44], max: [85, 92, 44] },
  });
}

function throwBlanket(x: Ctx): Model {
  const c = x.c;
  const prims: Prim[] = [];
  const bench = wood(shade(OAK, 0.95));
  prims.push(...fourLegs(100, 30, 40, 4, 'tapered', bench, x));
  prims.push(box([-55, 55], [40, 44], [-19, 19], bench, { decor: [grain(x.id, 4)] }));
  if (x.v === 0) {
    const stripe: Decor[] = [
      {
        type: 'band',
        faces: ['top', 'front'],
        from: 0.12,
        to: 0.16,
        along: 'u',
        colour: x.se ? '#c9a045' : shade(c, 0.75),
        opacity: 0.9,
      },
      {
        type: 'band',
        faces: ['top', 'front'],
        from: 0.84,
        to: 0.88,
        along: 'u',
        colour: x.se ? '#c9a045' : shade(c, 0.75),
        opacity: 0.9,
      },
    ];
    if (x.se) {
      stripe.push({ type: 'weave', faces: ['top', 'front'], n: 8 });
      stripe.push({
        type: 'band',
        faces: ['top', 'front'],
        from: 0.45,
        to: 0.55,
        along: 'u',
        colour: '#8a2c2c',
        opacity: 0.7,
      });
    }
    // Draped over the bench: top layer plus a fall down the front with fringe.
    prims.push(box([-26, 34], [44, 47.5], [-20, 21], fabric(c, 1.2), { decor: stripe }));
    prims.push(
      box([-26, 34], [6, 47], [20, 23.5], fabric(shade(c, 0.98), 1.2), {
        decor: [...stripe, { type: 'fringe', faces: ['front'], n: 34, length: 5 }],
      }),
    );
    prims.push(
      box([-24, 32], [47.5, 51], [-14, 10], fabric(shade(c, 1.04), 1.5), { decor: stripe }),
    );
    return model(prims, [4, 12, 22], { yaw: 20, elev: 16, detailZoom: 2.6 });
  }
  // Chunky knit: a thick folded stack.
  const layers = 4;
  for (let i = 0; i < layers; i++) {
    const y0 = 44 + i * 6;
    prims.push(
      box(
        [-34 + i * 0.8, 34 - i * 0.5],
        [y0, y0 + 6],
        [-16 + i * 0.4, 17 - i * 0.3],
        fabric(shade(c, 1 - i * 0.015), 2.6),
        {
          decor: [
            { type: 'knit', faces: ['front', 'top'], rows: i === layers - 1 ? 10 : 1, cols: 16 },
          ],
        },
      ),
    );
  }
  prims.push(
    box([-34, -28], [44, 68], [-16, 17], fabric(shade(c, 0.97), 2.6), {
      decor: [{ type: 'knit', faces: ['left', 'front'], rows: 4, cols: 1 }],
    }),
  );
  return model(prims, [20, 62, 16], { yaw: 22, elev: 18, detailZoom: 2.4 });
}

function nightstand(x: Ctx): Model {
  const { W, D, H, c } = x;
  const prims: Prim[] = [];
  const legH = 12;
  if (x.v === 0) {
    prims.push(...fourLegs(W - 8, D - 8, legH, 4, 'tapered', wood(c), x, 1.5));
    prims.push(
      box([-W / 2, W / 2], [legH, H], [-D / 2, D / 2], wood(shade(c, 0.95)), {
        decor: [grain(x.id, 5)],
      }),
    );
    const mid = legH + (H - legH) / 2;
    prims.push(
      ...drawerFront(-W / 2 + 1.5, W / 2 - 1.5, legH + 1.5, mid, D / 2, wood(c), x, 'bar'),
    );
    prims.push(...drawerFront(-W / 2 + 1.5, W / 2 - 1.5, mid, H - 1.5, D / 2, wood(c), x, 'bar'));
  } else {
    prims.push(...fourLegs(W - 12, D - 12, legH, 4, 'round', wood(x.se ? BRASS : OAK), x));
    prims.push(box([-W / 2, W / 2], [legH, H], [-D / 2, D / 2], matte(c, 3)));
    prims.push(
      box(
        [-W / 2 + 3, W / 2 - 3],
        [legH + 4, legH + (H - legH) * 0.5],
        [D / 2 - 1.4, D / 2 + 0.05],
        matte(shade(c, 0.62)),
      ),
    );
    prims.push(
      box(
        [-W / 2 + 3, W / 2 - 3],
        [legH + (H - legH) * 0.55, H - 4],
        [D / 2 - 1, D / 2 + 0.6],
        matte(shade(c, 1.03), 1),
      ),
    );
    prims.push(knob(0, legH + (H - legH) * 0.77, D / 2 + 0.6, x, 1.6));
    prims.push(boxAt(0, 0, legH + 4, W - 14, 4, D - 12, matte('#7b8a96')));
  }
  // Bedside props: book and a bud vase.
  prims.push(boxAt(-W * 0.15, 2, H, 15, 2.5, 21, matte('#3f5566')));
  prims.push(cyl(W * 0.24, -4, H, H + 12, 3.2, 1.8, ceramic('#e9e4db'), { seg: 18 }));
  prims.push(
    line(
      [
        [W * 0.24, H + 11, -4],
        [W * 0.24 - 4, H + 26, -4],
      ],
      0.4,
      matte('#6b7d5a'),
    ),
  );
  return model(prims, [W / 2 - 4, H - 8, D / 2], { yaw: 24, elev: 18, detailZoom: 2 });
}

function mattress(x: Ctx): Model {
  const { W, D, H, c } = x;
  const prims: Prim[] = [];
  const base = matte('#bfb8ad');
  prims.push(
    box([-W / 2 + 2, W / 2 - 2], [0, 14], [-D / 2 + 2, D / 2 - 2], fabric(shade(c, 0.8), 1)),
  );
  prims.push(...fourLegs(W - 12, D - 12, 0.5, 3, 'block', base, x));
  const border = x.v === 0 ? '#8f9aa5' : '#7d8c76';
  const y0 = 14;
  prims.push(
    box([-W / 2, W / 2], [y0, y0 + H], [-D / 2, D / 2], fabric(c, 3), {
      decor: [
        { type: 'quilt', faces: ['top'], n: x.v === 0 ? 9 : 12 },
        {
          type: 'band',
          faces: ['front', 'left', 'right'],
          from: 0.1,
          to: 0.16,
          along: 'v',
          colour: border,
          opacity: 0.7,
        },
        {
          type: 'band',
          faces: ['front', 'left', 'right'],
          from: 0.84,
          to: 0.9,
          along: 'v',
          colour: border,
          opacity: 0.7,
        },
        ...(x.v === 1
          ? [
              {
                type: 'band' as const,
                faces: ['front' as const, 'left' as const, 'right' as const],
                from: 0.62,
                to: 0.64,
                along: 'v' as const,
                colour: shade(c, 0.8),
                opacity: 0.6,
              },
            ]
          : []),
      ],
    }),
  );
  if (x.se)
    prims.push(
      box(
        [-W / 2 + 3, W / 2 - 3],
        [y0 + H - 1, y0 + H + 5],
        [-D / 2 + 3, D / 2 - 3],
        fabric(shade(c, 1.05), 2.4),
        { decor: [{ type: 'buttons', faces: ['top'], nu: 6, nv: 7 }] },
      ),
    );
  // Handles on the side.
  for (const hz of [-D / 4, D / 4])
    prims.push(
      box([W / 2, W / 2 + 1], [y0 + H * 0.45, y0 + H * 0.55], [hz - 7, hz + 7], matte(border)),
    );
  return model(prims, [W / 2 - 10, y0 + H - 4, D / 2 - 10], {
    yaw: 30,
    elev: 24,
    detailZoom: 2.6,
    rug: false,
  });
}

// ================================================================== LIGHTING
function shadeMat(c: string): Material {
  return lit(mix(c, WARM_LIGHT, luminance(c) > 0.5 ? 0.35 : 0.1));
}

function floorLamp(x: Ctx): Model {
  const { H, c } = x;
  const prims: Prim[] = [];
  const glows: Glow[] = [];
  if (x.v === 0) {
    prims.push(
      cyl(0, 0, 0, 4, 15, 14, ceramic('#ece9e4'), {
        seg: 36,
        decor: [{ type: 'grain', faces: ['side'], lines: 3, seed: 5 }],
      }),
    );
    prims.push(cyl(0, 0, 4, H - 26, 1.1, 1.1, metal(BRASS), { seg: 12 }));
    prims.push(cyl(0, 0, H - 30, H, 22, 22, shadeMat(c), { seg: 64 }));
    prims.push(
      cyl(0, 0, H - 30, H - 29, 22.3, 22.3, metal(x.se ? BRASS : shade(c, 0.7)), { seg: 36 }),
    );
    glows.push({ c: [0, H - 15, 0], r: 75, colour: WARM_LIGHT, strength: 0.55 });
    return model(prims, [0, H - 20, 22], { yaw: 0, elev: 6, detailZoom: 2.6, glows, rug: true });
  }
  const col = wood(x.se ? WALNUT : OAK);
  prims.push(cyl(0, 0, 0, 3, 17, 17, col, { seg: 36 }));
  prims.push(cyl(0, 0, 3, 10, 6, 3.5, col, { seg: 20 }));
  const segs = 5;
  const top = H - 50;
  for (let i = 0; i < segs; i++) {
    const y0 = 10 + (i * (top - 10)) / segs;
    const y1 = 10 + ((i + 1) * (top - 10)) / segs;
    prims.push(cyl(0, 0, y0, y1, 2.6, 2.6, col, { seg: 14 }));
    prims.push(cyl(0, 0, y1 - 2, y1, 3.6, 3.6, col, { seg: 14 }));
  }
  prims.push(cyl(0, 0, H - 55, H, 18, 18, shadeMat(c), { seg: 64 }));
  glows.push({ c: [0, H - 28, 0], r: 85, colour: WARM_LIGHT, strength: 0.55 });
  return model(prims, [0, H - 30, 18], { yaw: 0, elev: 6, detailZoom: 2.3, glows });
}

function tableLamp(x: Ctx): Model {
  const { H, c } = x;
  const prims: Prim[] = [];
  const glows: Glow[] = [];
  if (x.v === 0) {
    prims.push(cyl(0, 0, 0, 1.5, 7, 7, ceramic(shade(c, 0.8)), { seg: 24 }));
    prims.push(sphere([0, 12.5, 0], 12, ceramic(c)));
    prims.push(cyl(0, 0, 22, 27, 3.5, 2.5, ceramic(c), { seg: 18 }));
    prims.push(cyl(0, 0, 27, 29, 1.2, 1.2, metal(x.se ? BRASS : CHROME), { seg: 10 }));
    const sc = x.se ? '#efe3cf' : '#f1ece2';
    prims.push(cyl(0, 0, 27, H, 18, 12, shadeMat(sc), { seg: 64 }));
    glows.push({ c: [0, H - 10, 0], r: 45, colour: WARM_LIGHT, strength: 0.5 });
    return model(prims, [6, 14, 10], {
      yaw: 0,
      elev: 10,
      support: 'side-table',
      detailZoom: 2,
      glows,
    });
  }
  // Mushroom: glowing dome on a glass stem.
  prims.push(cyl(0, 0, 0, 2, 9, 9, x.se ? metal(BRASS) : lit(shade(c, 0.9)), { seg: 30 }));
  prims.push(cyl(0, 0, 2, H - 14, 2.6, 2.2, x.se ? metal(BRASS) : lit(c), { seg: 18 }));
  const domeR = 15;
  const prof: [number, number][] = [];
  for (let i = 0; i <= 7; i++) {
    const t = (i / 7) * (Math.PI / 2);
    prof.push([Math.max(0.5, Math.cos(t) * domeR), H - 14 + Math.sin(t) * 14]);
  }
  prims.push(lathe(0, 0, prof, lit(c), { seg: 36 }));
  glows.push({ c: [0, H - 10, 0], r: 50, colour: mix(c, WARM_LIGHT, 0.4), strength: 0.65 });
  return model(prims, [8, H - 10, 10], {
    yaw: 0,
    elev: 10,
    support: 'side-table',
    detailZoom: 1.9,
    glows,
  });
}

function pendant(x: Ctx): Model {
  const { c } = x;
  const prims: Prim[] = [];
  const glows: Glow[] = [];
  const top = 120;
  if (x.v === 0) {
    const r = x.W / 2;
    const h = x.H;
    const m: Material = x.se ? metal(BRASS) : { colour: c, finish: 'metal' };
    const prof: [number, number][] = [];
    for (let i = 0; i <= 28; i++) {
      const t = (i / 28) * (Math.PI / 2);
      prof.push([Math.max(3.2, Math.cos(t) * r), Math.sin(t) * h * 0.85]);
    }
    prims.push(lathe(0, 0, prof, m, { seg: 72 }));
    prims.push(cyl(0, 0, h * 0.85, h, 3.5, 3, m, { seg: 18 }));
    prims.push(cyl(0, 0, -0.6, 0.2, r * 0.97, r * 0.97, lit('#fff7e4'), { seg: 40 }));
    prims.push(
      line(
        [
          [0, h, 0],
          [0, top, 0],
        ],
        0.6,
        matte('#26272a'),
      ),
    );
    prims.push({
      ...cyl(0, 0, top - 2, top, 6, 6, x.se ? metal(BRASS) : matte('#f2f0ec'), { seg: 24 }),
      noFit: true,
    });
    glows.push({ c: [0, -6, 0], r: 70, colour: WARM_LIGHT, strength: 0.55 });
    return model(prims, [r * 0.6, h * 0.4, r * 0.6], {
      yaw: 0,
      elev: -4,
      mount: 'ceiling',
      detailZoom: 1.8,
      glows,
      rug: false,
    });
  }
  // Woven rattan lantern: an elongated globe.
  const r = x.W / 2;
  const h = x.H;
  const weave: Decor = { type: 'weave', faces: ['side'], n: 3 };
  const prof: [number, number][] = [];
  for (let i = 0; i <= 16; i++) {
    const t = -Math.PI / 2 + (i / 16) * Math.PI;
    prof.push([Math.max(7.5, Math.cos(t) * r), h / 2 + (Math.sin(t) * h) / 2]);
  }
  prims.push(lathe(0, 0, prof, wood(c), { seg: 40, decor: [weave] }));
  prims.push(cyl(0, 0, -0.4, 0.1, 7.6, 7.6, lit('#fff1cf'), { seg: 24 }));
  prims.push(
    line(
      [
        [0, h, 0],
        [0, top, 0],
      ],
      0.6,
      matte('#3a2e24'),
    ),
  );
  prims.push({
    ...cyl(0, 0, top - 2, top, 6, 6, x.se ? metal(BRASS) : wood(c), { seg: 24 }),
    noFit: true,
  });
  glows.push({ c: [0, h * 0.4, 0], r: 80, colour: WARM_LIGHT, strength: 0.5 });
  return model(prims, [0, h * 0.6, r], {
    yaw: 0,
    elev: -2,
    mount: 'ceiling',
    detailZoom: 1.9,
    glows,
    rug: false,
  });
}

function wallSconce(x: Ctx): Model {
  const { c } = x;
  const prims: Prim[] = [];
  const glows: Glow[] = [];
  // Discs modelled as vertical cylinders, then turned to face +z (away from the wall).
  const faceOut = (p: Vec3): Vec3 => [p[0], p[2], p[1]];
  if (x.v === 0) {
    const m = metal(c);
    prims.push(...transform([cyl(0, 0, 0, 2, 6.5, 6.5, m, { seg: 28 })], faceOut));
    prims.push(tube([0, 0, 2], [0, 0, 12], 1, 1, m, 10));
    prims.push(tube([0, 0, 12], [0, 8, 16], 1, 1, m, 10));
    prims.push(cyl(0, 16, 8, 11, 3.5, 3.5, m, { seg: 18 }));
    prims.push(sphere([0, 18, 16], 8, x.se ? lit('#a8865f') : lit('#f7f2e8')));
    glows.push({ c: [0, 18, 0], r: 60, colour: WARM_LIGHT, strength: 0.6 });
    return model(
      prims.map((p) => ({ ...p, noShadow: true })),
      [0, 12, 14],
      { yaw: 25, elev: 6, mount: 'wall', detailZoom: 1.7, glows, rug: false },
    );
  }
  const m = x.se ? metal(BRASS) : matte(c);
  prims.push(...transform([cyl(0, 0, 0, 2, 8, 8, m, { seg: 32 })], faceOut));
  if (x.se) {
    for (let i = 0; i < 8; i++) {
      const a = (i / 8) * Math.PI * 2;
      prims.push(sphere([Math.cos(a) * 9.5, Math.sin(a) * 9.5, 1], 1.2, metal(BRASS)));
    }
  }
  prims.push(tube([0, 0, 2], [0, 0, 5], 3, 3, m, 16));
  prims.push(sphere([0, 0, 12], 9, lit('#f8f4ec')));
  glows.push({ c: [0, 0, 0], r: 55, colour: WARM_LIGHT, strength: 0.6 });
  return model(
    prims.map((p) => ({ ...p, noShadow: true })),
    [0, 0, 10],
    { yaw: 25, elev: 6, mount: 'wall', detailZoom: 1.6, glows, rug: false },
  );
}

function deskLamp(x: Ctx): Model {
  const { c } = x;
  const prims: Prim[] = [];
  const glows: Glow[] = [];
  const architect = x.v === 1;
  const m: Material = { colour: c, finish: 'metal' };
  const joint = x.se ? metal(BRASS) : m;
  const baseR = architect ? 10 : 8;
  prims.push(cyl(0, 0, 0, 3, baseR, baseR - 0.5, m, { seg: 30 }));
  const a: Vec3 = [0, 3, -2];
  const elbow: Vec3 = architect ? [0, 42, -14] : [0, 30, -8];
  const head: Vec3 = architect ? [0, 48, 26] : [0, 40, 16];
  prims.push(tube(a, [0, 6, -2], 2.2, 2.2, joint, 12));
  prims.push(tube([0.8, 6, -2], [0.8, elbow[1], elbow[2]], 0.9, 0.9, m, 8));
  prims.push(tube([-0.8, 6, -2], [-0.8, elbow[1], elbow[2]], 0.9, 0.9, m, 8));
  prims.push(sphere(elbow, 2, joint));
  prims.push(tube([0.8, elbow[1], elbow[2]], [0.8, head[1], head[2]], 0.8, 0.8, m, 8));
  prims.push(tube([-0.8, elbow[1], elbow[2]], [-0.8, head[1], head[2]], 0.8, 0.8, m, 8));
  prims.push(sphere(head, 1.8, joint));
  const dir = norm2([0, -1, architect ? 0.35 : 0.5]);
  const shadeStart: Vec3 = [head[0], head[1] - 1, head[2] + 1];
  const L = architect ? 18 : 14;
  const shadeEnd: Vec3 = [
    shadeStart[0] + dir[0] * L,
    shadeStart[1] + dir[1] * L,
    shadeStart[2] + dir[2] * L,
  ];
  prims.push(tube(shadeStart, shadeEnd, architect ? 3 : 3.5, architect ? 10 : 8.5, m, 24));
  prims.push(
    tube(
      shadeEnd,
      [shadeEnd[0] + dir[0] * 0.3, shadeEnd[1] + dir[1] * 0.3, shadeEnd[2] + dir[2] * 0.3],
      (architect ? 10 : 8.5) - 0.6,
      (architect ? 10 : 8.5) - 0.6,
      lit('#fff6e0'),
      24,
    ),
  );
  if (!architect) {
    prims.push(
      line(
        [
          [2.6, 8, -2],
          [2.6, elbow[1] - 4, elbow[2] + 1],
        ],
        0.35,
        metal('#9a9ea4'),
      ),
    );
  }
  glows.push({ c: [0, 0, shadeEnd[2] + 6], r: 45, colour: WARM_LIGHT, strength: 0.55 });
  return model(prims, [0, head[1] - 4, head[2] + 4], {
    yaw: 38,
    elev: 16,
    studioYaw: 72,
    support: 'desk',
    detailZoom: 2,
    glows,
    rug: false,
  });
}

function norm2(v: Vec3): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}

function chandelier(x: Ctx): Model {
  const { W, H, c } = x;
  const prims: Prim[] = [];
  const glows: Glow[] = [];
  const top = H + 70;
  if (x.v === 0) {
    const m = metal(c);
    prims.push({
      ...line(
        [
          [0, H - 10, 0],
          [0, top, 0],
        ],
        1.2,
        m,
      ),
      noFit: true,
    });
    prims.push({ ...cyl(0, 0, top - 2, top, 7, 7, m, { seg: 24 }), noFit: true });
    prims.push(cyl(0, 0, H * 0.3, H * 0.55, 5, 3, m, { seg: 20 }));
    prims.push(sphere([0, H * 0.28, 0], 5, m));
    const R = W / 2 - 8;
    for (let i = 0; i < 6; i++) {
      const a = (i / 6) * Math.PI * 2 + 0.3;
      const ex = Math.cos(a) * R;
      const ez = Math.sin(a) * R;
      const mid: Vec3 = [ex * 0.6, H * 0.3, ez * 0.6];
      prims.push(tube([0, H * 0.35, 0], mid, 0.9, 0.9, m, 8));
      prims.push(tube(mid, [ex, H * 0.36, ez], 0.9, 0.9, m, 8));
      prims.push(cyl(ex, ez, H * 0.36, H * 0.36 + 4, 2.5, 3.5, m, { seg: 14 }));
      prims.push(sphere([ex, H * 0.36 + 10, ez], 7, x.se ? lit('#a88a66') : lit('#fbf4e6')));
      if (x.se) prims.push(sphere([ex, H * 0.36 + 17.5, ez], 1.1, metal(BRASS)));
    }
    glows.push({ c: [0, H * 0.45, 0], r: W * 0.9, colour: WARM_LIGHT, strength: 0.5 });
    return model(prims, [R * 0.9, H * 0.45, R * 0.3], {
      yaw: 0,
      elev: 4,
      mount: 'ceiling',
      detailZoom: 2.1,
      glows,
      rug: false,
    });
  }
  // Two-tier candle chandelier with glass drops.
  const m = metal(c);
  prims.push({
    ...line(
      [
        [0, H, 0],
        [0, top, 0],
      ],
      1.1,
      m,
    ),
    noFit: true,
  });
  prims.push({ ...cyl(0, 0, top - 2, top, 7, 7, m, { seg: 24 }), noFit: true });
  prims.push(cyl(0, 0, 8, H, 2.2, 2.2, m, { seg: 14 }));
  prims.push(sphere([0, 6, 0], 5.5, glass('#e9f1f6', 0.8)));
  const tiers: [number, number, number][] = [
    [W / 2 - 4, H * 0.3, 8],
    [W / 2 - 20, H * 0.62, 4],
  ];
  for (const [R, y, n] of tiers) {
    const pts: Vec3[] = [];
    for (let i = 0; i <= 24; i++) {
      const a = (i / 24) * Math.PI * 2;
      pts.push([Math.cos(a) * R, y, Math.sin(a) * R]);
    }
    prims.push(line(pts, 1.3, m));
    for (let i = 0; i < n; i++) {
      const a = (i / n) * Math.PI * 2 + 0.2;
      const ex = Math.cos(a) * R;
      const ez = Math.sin(a) * R;
      prims.push(tube([0, y - 6, 0], [ex, y, ez], 0.7, 0.7, m, 6));
      prims.push(cyl(ex, ez, y, y + 2, 3, 3.4, m, { seg: 12 }));
      prims.push(cyl(ex, ez, y + 2, y + 12, 1.3, 1.3, ceramic('#f7f3ea'), { seg: 10 }));
      prims.push(sphere([ex, y + 13.6, ez], 1.4, lit('#ffd58a')));
      const da = a + Math.PI / n;
      const dx = Math.cos(da) * R;
      const dz = Math.sin(da) * R;
      prims.push(
        line(
          [
            [dx, y, dz],
            [dx, y - 7, dz],
          ],
          0.25,
          glass('#dfe7ec', 0.9),
        ),
      );
      prims.push(sphere([dx, y - 8.5, dz], 1.6, glass(x.se ? '#e8c987' : '#e6eef3', 0.9)));
    }
  }
  glows.push({ c: [0, H * 0.5, 0], r: W * 0.85, colour: WARM_LIGHT, strength: 0.45 });
  return model(prims, [W / 2 - 6, H * 0.35, 0], {
    yaw: 0,
    elev: 8,
    mount: 'ceiling',
    detailZoom: 2.2,
    glows,
    rug: false,
  });
}

// ===================================================================== index
const BUILDERS: Record<string, (x: Ctx) => Model> = {
  'dining-table': diningTable,
  'coffee-table': coffeeTable,
  'side-table': sideTable,
  desk,
  'console-table': consoleTable,
  'round-table': roundTable,
  'dining-chair': (x) => diningChair(x),
  armchair,
  'lounge-chair': loungeChair,
  'office-chair': officeChair,
  stool,
  'rocking-chair': rockingChair,
  sofa,
  loveseat,
  sectional,
  chaise,
  'sofa-bed': sofaBed,
  ottoman,
  bed,
  duvet,
  'pillow-set': pillowSet,
  'throw-blanket': throwBlanket,
  nightstand,
  mattress,
  'floor-lamp': floorLamp,
  'table-lamp': tableLamp,
  pendant,
  'wall-sconce': wallSconce,
  'desk-lamp': deskLamp,
  chandelier,
};

export const KINDS: readonly string[] = Object.keys(BUILDERS);

export function hasBuilder(kind: string): boolean {
  return kind in BUILDERS;
}

/** Variant 0 for the first product of a kind in its department, 1 for the second. */
export function variantOf(id: number): 0 | 1 {
  return (id - 1) % 12 < 6 ? 0 : 1;
}

export function buildModel(input: BuildInput): Model {
  const builder = BUILDERS[input.kind];
  if (!builder) throw new Error(`No illustration for kind "${input.kind}" (product ${input.id})`);
  const hwColour = input.rng.pick([BLACK, '#8a8d91', shade(input.colour, 0.6)]);
  return builder({
    id: input.id,
    W: input.widthCm,
    D: input.depthCm,
    H: input.heightCm,
    c: input.colour,
    v: variantOf(input.id),
    se: input.special,
    alt: input.altPose,
    rng: input.rng,
    metal: input.special ? metal(BRASS) : metal(BLACK),
    hw: metal(hwColour),
  });
}

/** A neutral chair used to dress the hero dining scene. */
export function propDiningChair(rng: Rng, colour = OAK): Model {
  return diningChair({
    id: 999,
    W: 46,
    D: 50,
    H: 80,
    c: colour,
    v: 0,
    se: false,
    alt: false,
    rng,
    metal: metal(BLACK),
    hw: metal(BLACK),
  });
}

/** Neutral furniture that lamps stand on in room scenes. Returns prims and top height. */
export function supportProps(kind: Support, rng: Rng): { prims: Prim[]; top: number } {
  const c = rng.pick([OAK, WALNUT, '#d8cfc2', '#9c7b5c']);
  switch (kind) {
    case 'side-table': {
      const prims: Prim[] = [
        box([-35, 35], [52, 55], [-22, 22], wood(c), { decor: [grain(11, 5)] }),
        ...fourLegs(62, 36, 52, 4, 'tapered', wood(c), { ...neutralCtx(rng) }),
        boxAt(-18, 4, 55, 18, 2.5, 14, matte('#c8beb0')),
      ];
      return { prims, top: 55 };
    }
    case 'desk': {
      const prims: Prim[] = [
        box([-60, 60], [72, 75], [-32, 32], wood(c), { decor: [grain(12, 7)] }),
        ...fourLegs(110, 56, 72, 4.5, 'tapered', wood(c), neutralCtx(rng)),
        boxAt(-30, 6, 75, 22, 1.6, 30, matte('#f3f0ea')),
        cyl(32, 10, 75, 85, 4, 4, ceramic('#e8e2d8'), { seg: 18 }),
      ];
      return { prims, top: 75 };
    }
    case 'sideboard': {
      const prims: Prim[] = [
        box([-80, 80], [16, 80], [-22, 22], wood(c), { decor: [grain(13, 6)] }),
        ...fourLegs(150, 36, 16, 4, 'tapered', wood(c), neutralCtx(rng)),
      ];
      return { prims, top: 80 };
    }
    case 'none':
      return { prims: [], top: 0 };
  }
}

function neutralCtx(rng: Rng): Ctx {
  return {
    id: 0,
    W: 0,
    D: 0,
    H: 0,
    c: OAK,
    v: 0,
    se: false,
    alt: false,
    rng,
    metal: metal(BLACK),
    hw: metal(BLACK),
  };
}
