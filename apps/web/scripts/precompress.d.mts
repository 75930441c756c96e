export const PRECOMPRESS_MIN_BYTES: number;
export const PRECOMPRESSED_EXTENSIONS: string[];
/** Writes `<file>.gz` and `<file>.br` for every compressible file of `dir`; returns their count. */
export function precompress(dir: string): Promise<number>;
