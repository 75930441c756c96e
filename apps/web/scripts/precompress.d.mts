export const PRECOMPRESS_MIN_BYTES: number;
/** Writes `<file>.gz` and `<file>.br` for every compressible file of `dir`; returns their count. */
export function precompress(dir: string): Promise<number>;
