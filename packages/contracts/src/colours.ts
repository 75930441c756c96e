/**
 * The shop's colour names. The catalog stores each product's colour as a hex value
 * (data/catalog.json); search and the colour filter use the name of its colour family, derived
 * here so the api (which stores it beside the hex, migration 006) and the web (a swatch's label)
 * agree (docs/decisions/009-search.md).
 */
export const COLOUR_NAMES = [
  'black',
  'grey',
  'white',
  'beige',
  'natural',
  'brown',
  'red',
  'orange',
  'yellow',
  'green',
  'blue',
  'purple',
  'pink',
] as const;
export type ColourName = (typeof COLOUR_NAMES)[number];

/** A representative swatch per colour name, for a filter's colour chips. */
export const COLOUR_SWATCHES: Record<ColourName, string> = {
  black: '#2b2b2b',
  grey: '#7d8a96',
  white: '#f4f1ea',
  beige: '#e6dccb',
  natural: '#c49a6c',
  brown: '#6b4226',
  red: '#a8322d',
  orange: '#c8643c',
  yellow: '#d4b83c',
  green: '#4f6b5a',
  blue: '#3d5a80',
  purple: '#6e4a7e',
  pink: '#e3b5bc',
};

/**
 * The colour family of a `#rrggbb` value, by hue, saturation and lightness: furniture colours
 * are mostly warm, so the warm hues split into white, beige, natural (light and mid timber),
 * brown and orange. An unreadable value is `grey`.
 */
export function colourName(hex: string): ColourName {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) return 'grey';
  const value = Number.parseInt(match[1], 16);
  const [hue, saturation, lightness] = toHsl((value >> 16) & 255, (value >> 8) & 255, value & 255);
  if (lightness < 0.2) return 'black';
  if (lightness >= 0.92) return 'white';
  const bluish = hue >= 200 && hue < 260;
  if (saturation < 0.12 || (bluish && saturation < 0.2)) return lightness > 0.82 ? 'white' : 'grey';
  if (hue < 15 || hue >= 330) {
    return lightness > 0.7 ? 'pink' : 'red';
  }
  if (hue < 45) {
    if (lightness >= 0.7) return 'beige';
    if (lightness < 0.45) return 'brown';
    return hue < 25 && saturation >= 0.4 ? 'orange' : 'natural';
  }
  if (hue < 70) return lightness >= 0.7 || saturation < 0.4 ? 'beige' : 'yellow';
  if (hue < 200) return 'green';
  if (bluish) return 'blue';
  return hue < 300 || lightness <= 0.6 ? 'purple' : 'pink';
}

/** Hue in degrees [0, 360), saturation and lightness in [0, 1]. */
function toHsl(red: number, green: number, blue: number): [number, number, number] {
  const r = red / 255;
  const g = green / 255;
  const b = blue / 255;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const lightness = (max + min) / 2;
  const delta = max - min;
  if (delta === 0) return [0, 0, lightness];
  const saturation = delta / (1 - Math.abs(2 * lightness - 1));
  let hue: number;
  if (max === r) hue = ((g - b) / delta) % 6;
  else if (max === g) hue = (b - r) / delta + 2;
  else hue = (r - g) / delta + 4;
  hue *= 60;
  return [hue < 0 ? hue + 360 : hue, saturation, lightness];
}
