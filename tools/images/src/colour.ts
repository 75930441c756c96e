/** Small sRGB colour helpers for the image generator (no dependencies). */

export type Rgb = readonly [number, number, number];

export function parseHex(hex: string): Rgb {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m?.[1]) throw new Error(`Invalid colour: ${hex}`);
  const n = Number.parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function clamp255(v: number): number {
  return Math.max(0, Math.min(255, Math.round(v)));
}

export function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => clamp255(c).toString(16).padStart(2, '0')).join('')}`;
}

/** Linear interpolation between two colours (t = 0 → a, t = 1 → b). */
export function mix(a: string, b: string, t: number): string {
  const x = parseHex(a);
  const y = parseHex(b);
  return toHex([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t]);
}

/**
 * Lighting multiplier: k < 1 darkens (multiplicative), k > 1 brightens by
 * blending towards white so light colours do not clip into flat white.
 */
export function shade(hex: string, k: number): string {
  if (k <= 1) {
    const c = parseHex(hex);
    return toHex([c[0] * k, c[1] * k, c[2] * k]);
  }
  return mix(hex, '#ffffff', Math.min(1, (k - 1) * 0.9));
}

/** Relative luminance in 0..1 (sRGB approximation, good enough for contrast decisions). */
export function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** Warm or cool tint: shifts hue slightly towards the given colour. */
export function tint(hex: string, towards: string, amount: number): string {
  return mix(hex, towards, amount);
}
