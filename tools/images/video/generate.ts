/**
 * Makes the video quality demo's stream (docs/decisions/013-video-demo.md): a turntable of one
 * catalog product drawn by the photo renderer (scenes.ts), rasterised with sharp, encoded to VP8
 * in WebM at every rendition of VIDEO_RENDITIONS by ffmpeg.js (FFmpeg compiled to WebAssembly, run
 * in this process: nothing is downloaded), split into DASH segments (webm.ts) and described by an
 * MPD (dash.ts). Output goes to the web's public/video; a manifest holding the cache key lets a
 * build skip the work while nothing that decides the stream's bytes has changed.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  VIDEO_MANIFEST_URL,
  VIDEO_RENDITIONS,
  VIDEO_SEGMENT_SECONDS,
  type VideoRendition,
} from '@showroom/contracts/video';
import sharp from 'sharp';
import { hashSources } from '../src/cache-key.js';
import { loadCatalog } from '../src/catalog.js';
import { renderProductSvg } from '../src/scenes.js';
import { writeManifest } from './dash.js';
import { splitWebm } from './webm.js';

const VIDEO_DIR = dirname(fileURLToPath(import.meta.url));
const TOOL_DIR = resolve(VIDEO_DIR, '..');
const REPO_ROOT = resolve(TOOL_DIR, '../..');
const CATALOG_FILE = join(REPO_ROOT, 'data', 'catalog.json');
const CONTRACT_FILE = join(REPO_ROOT, 'packages', 'contracts', 'src', 'video.ts');
export const DEFAULT_VIDEO_OUT_DIR = join(REPO_ROOT, 'apps', 'web', 'public', 'video');
export const VIDEO_CACHE_FILE = 'video-cache.json';

/**
 * The clip. Small on purpose (a 2-core build box, FFmpeg in WebAssembly without threads or SIMD
 * encodes about 12 frames a second at both sizes together): 20 s at 15 frames a second, one key
 * frame every VIDEO_SEGMENT_SECONDS, so segments line up across renditions.
 */
export const CLIP = {
  productId: 13,
  seconds: 20,
  frameRate: 15,
  /** Degrees the turntable turns over the clip. */
  turn: 360,
  codec: 'vp8',
} as const;

export interface VideoOptions {
  force: boolean;
  outDir: string;
}

interface VideoCache {
  key: string;
  generatedAt: string;
  bytes: number;
  seconds: number;
}

interface FfmpegResult {
  MEMFS: { name: string; data: Uint8Array }[];
}
type Ffmpeg = (options: {
  MEMFS: { name: string; data: Uint8Array }[];
  arguments: string[];
  print: (line: string) => void;
  printErr: (line: string) => void;
  onExit: (code: number) => void;
}) => FfmpegResult;

const require = createRequire(import.meta.url);

function ffmpegVersion(): string {
  const pkg = JSON.parse(readFileSync(require.resolve('ffmpeg.js/package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/** Hash of everything that decides the stream's bytes. */
export function videoCacheKey(): string {
  const hash = createHash('sha256');
  for (const part of [
    hashSources(join(TOOL_DIR, 'src')),
    hashSources(VIDEO_DIR),
    readFileSync(CATALOG_FILE, 'utf8'),
    readFileSync(CONTRACT_FILE, 'utf8'),
    JSON.stringify(CLIP),
    `ffmpeg.js ${ffmpegVersion()}`,
    `sharp ${sharp.versions.sharp ?? ''} vips ${sharp.versions.vips}`,
  ]) {
    hash.update(part).update('\0');
  }
  return hash.digest('hex');
}

/** The FFmpeg arguments: one input (the frames), one WebM output per rendition. */
export function ffmpegArguments(renditions: readonly VideoRendition[]): string[] {
  const gop = String(CLIP.frameRate * VIDEO_SEGMENT_SECONDS);
  const args = ['-hide_banner', '-y', '-framerate', String(CLIP.frameRate), '-i', 'f%04d.jpg'];
  for (const r of renditions) {
    const kbps = Math.round(r.targetBitrate / 1000);
    args.push(
      ...['-map', '0:v', '-vf', `scale=${r.width}:${r.height}`, '-pix_fmt', 'yuv420p'],
      ...['-c:v', 'libvpx', '-b:v', `${kbps}k`, '-maxrate', `${Math.round(kbps * 1.5)}k`],
      ...['-bufsize', `${kbps * 2}k`, '-deadline', 'realtime', '-cpu-used', '8'],
      // A key frame exactly every segment, and a cluster starting at each (WebM DASH).
      ...['-g', gop, '-keyint_min', gop, '-auto-alt-ref', '0', '-an'],
      ...['-dash', '1', '-cluster_time_limit', '1000', '-f', 'webm', `${r.id}.webm`],
    );
  }
  return args;
}

async function renderFrames(): Promise<{ name: string; data: Uint8Array }[]> {
  const product = loadCatalog(CATALOG_FILE).products.find((p) => p.id === CLIP.productId);
  if (!product) throw new Error(`Video: product ${CLIP.productId} is not in the catalog`);
  const largest = VIDEO_RENDITIONS.reduce((a, b) => (b.width > a.width ? b : a));
  const count = CLIP.seconds * CLIP.frameRate;
  const frames: { name: string; data: Uint8Array }[] = [];
  for (let i = 0; i < count; i += 1) {
    const yaw = -CLIP.turn / 2 + (CLIP.turn * i) / count;
    const svg = renderProductSvg(
      { product, set: 'std', view: 1, yaw },
      largest.width,
      largest.height,
    );
    const jpeg = await sharp(Buffer.from(svg))
      .resize(largest.width, largest.height, { fit: 'fill' })
      .removeAlpha()
      .jpeg({ quality: 92 })
      .toBuffer();
    frames.push({ name: `f${String(i + 1).padStart(4, '0')}.jpg`, data: new Uint8Array(jpeg) });
  }
  return frames;
}

function encode(frames: { name: string; data: Uint8Array }[]): Map<string, Uint8Array> {
  const ffmpeg = require('ffmpeg.js/ffmpeg-webm.js') as Ffmpeg;
  const log: string[] = [];
  let exitCode = -1;
  const result = ffmpeg({
    MEMFS: frames,
    arguments: ffmpegArguments(VIDEO_RENDITIONS),
    print: (line) => log.push(line),
    printErr: (line) => log.push(line),
    onExit: (code) => {
      exitCode = code;
    },
  });
  if (exitCode !== 0) {
    throw new Error(`Video: FFmpeg exited with ${exitCode}\n${log.slice(-20).join('\n')}`);
  }
  return new Map(result.MEMFS.map((file) => [file.name, file.data]));
}

/** Generates the stream unless the cache key says it is up to date; prints size and time. */
export async function generateVideo(options: VideoOptions): Promise<void> {
  const started = performance.now();
  const key = videoCacheKey();
  const cacheFile = join(options.outDir, VIDEO_CACHE_FILE);
  const manifestFile = join(options.outDir, VIDEO_MANIFEST_URL.split('/').pop()!);
  if (!options.force && existsSync(cacheFile) && existsSync(manifestFile)) {
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8')) as VideoCache;
    if (cache.key === key) {
      console.log(
        `Video: up to date (${(cache.bytes / 1024).toFixed(0)} KB, made in ${cache.seconds.toFixed(1)} s), skipped`,
      );
      return;
    }
  }
  console.log(
    `Video: drawing ${CLIP.seconds * CLIP.frameRate} frames and encoding ${VIDEO_RENDITIONS.map((r) => r.id).join(' + ')} VP8…`,
  );
  const frames = await renderFrames();
  const drawn = performance.now();
  const files = encode(frames);
  const encoded = performance.now();

  rmSync(options.outDir, { recursive: true, force: true });
  mkdirSync(options.outDir, { recursive: true });
  let bytes = 0;
  const write = (relative: string, data: Uint8Array | string): void => {
    const file = join(options.outDir, relative);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, data);
    bytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  };
  let starts: number[] | undefined;
  const renditions = VIDEO_RENDITIONS.map((r) => {
    const webm = files.get(`${r.id}.webm`);
    if (!webm) throw new Error(`Video: FFmpeg wrote no ${r.id}.webm`);
    const split = splitWebm(webm);
    const theseStarts = split.segments.map((s) => s.startMs);
    if (starts && theseStarts.join() !== starts.join()) {
      throw new Error(`Video: segments of ${r.id} do not line up with the other renditions`);
    }
    starts = theseStarts;
    write(`${r.id}/init.webm`, split.init);
    split.segments.forEach((s, i) => write(`${r.id}/${i + 1}.webm`, s.bytes));
    return { ...r, segmentBytes: split.segments.map((s) => s.bytes.length) };
  });
  write(
    manifestFile.slice(options.outDir.length + 1),
    writeManifest({
      segmentStartsMs: starts ?? [],
      durationMs: CLIP.seconds * 1000,
      frameRate: CLIP.frameRate,
      codecs: CLIP.codec,
      renditions,
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cache: VideoCache = { key, generatedAt: new Date().toISOString(), bytes, seconds };
  writeFileSync(cacheFile, `${JSON.stringify(cache, null, 2)}\n`);
  const summary = renditions
    .map((r) => {
      const total = r.segmentBytes.reduce((a, b) => a + b, 0);
      return `${r.id} ${(total / 1024).toFixed(0)} KB (~${Math.round((total * 8) / CLIP.seconds / 1000)} kbit/s)`;
    })
    .join(', ');
  console.log(
    `Video: ${renditions.length} renditions × ${starts?.length ?? 0} segments, ${(bytes / 1024).toFixed(0)} KB in total (${summary}); ` +
      `made in ${seconds.toFixed(1)} s (drawing ${((drawn - started) / 1000).toFixed(1)} s, encoding ${((encoded - drawn) / 1000).toFixed(1)} s)`,
  );
}
