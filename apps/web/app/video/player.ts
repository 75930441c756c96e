/**
 * The video demo's adaptive player: Shaka Player's DASH-only build, imported on the play request
 * of the video page only (a chunk of its own), so no other page carries it
 * (apps/web/bundle-budget.json; docs/decisions/013-video-demo.md).
 *
 * It feeds the page's QoE tracker with the rendition being streamed and the errors the player
 * gave up on, and makes the page's fault for real: segment requests carry `video_fault` (the web
 * server then holds or refuses them), and `cap-bitrate` restricts the player's choice to the
 * lowest rendition.
 */
import {
  VIDEO_BUFFER_AHEAD_SECONDS,
  VIDEO_FAULT_PARAM,
  VIDEO_MANIFEST_URL,
  VIDEO_RENDITIONS,
  type VideoFault,
} from '@showroom/contracts/video';

/** Bits per second the player assumes before it has measured any (a broadband viewer). */
const VIDEO_DEFAULT_BANDWIDTH_ESTIMATE = 5_000_000;

export interface PlayerCallbacks {
  /** The rendition being streamed changed (declared bandwidth, bits per second). */
  onRendition(bitrate: number, height: number): void;
  /** An error the player did not recover from: the playback ends. */
  onError(code: string): void;
  /**
   * The player ran out of buffer (true) or has enough again (false). Shaka holds the element at
   * playback rate 0 while it buffers, so the element itself may never fire `waiting`.
   */
  onBuffering(buffering: boolean): void;
}

export interface VideoPlayer {
  destroy(): Promise<void>;
}

interface ShakaTrack {
  active: boolean;
  bandwidth: number;
  height: number | null;
}
interface ShakaError {
  category: number;
  code: number;
  severity: number;
}
interface ShakaRequest {
  uris: string[];
}
interface ShakaPlayer {
  attach(video: HTMLVideoElement): Promise<void>;
  configure(config: object): boolean;
  load(uri: string): Promise<void>;
  destroy(): Promise<void>;
  getVariantTracks(): ShakaTrack[];
  getNetworkingEngine(): {
    registerRequestFilter(filter: (type: number, request: ShakaRequest) => void): void;
  } | null;
  addEventListener(
    type: string,
    listener: (event: Event & { detail?: ShakaError; buffering?: boolean }) => void,
  ): void;
}
interface Shaka {
  Player: new () => ShakaPlayer;
  polyfill: { installAll(): void };
  net: { NetworkingEngine: { RequestType: { SEGMENT: number } } };
}

/** `network 1001` style: Shaka's category and code (shaka.util.Error). */
function errorCode(error: ShakaError | undefined): string {
  return error ? `shaka ${error.category}/${error.code}` : 'shaka unknown';
}

/** Adds the fault to a segment URL (`…/360p/4.webm?video_fault=segment-404`). */
export function withFault(uri: string, fault: VideoFault): string {
  const url = new URL(uri, window.location.href);
  url.searchParams.set(VIDEO_FAULT_PARAM, fault);
  return url.toString();
}

export async function startPlayer(
  video: HTMLVideoElement,
  fault: VideoFault | null,
  callbacks: PlayerCallbacks,
): Promise<VideoPlayer> {
  const shaka = (
    (await import('shaka-player/dist/shaka-player.dash-es2021.js')) as unknown as {
      default: Shaka;
    }
  ).default;
  shaka.polyfill.installAll();
  const player = new shaka.Player();
  await player.attach(video);
  const lowest = Math.min(...VIDEO_RENDITIONS.map((r) => r.height));
  player.configure({
    streaming: {
      bufferingGoal: VIDEO_BUFFER_AHEAD_SECONDS,
      rebufferingGoal: 1,
      // A held segment is a slow answer, not a dead connection: wait for it.
      retryParameters: {
        maxAttempts: 2,
        baseDelay: 300,
        timeout: 30_000,
        stallTimeout: 0,
        connectionTimeout: 30_000,
      },
    },
    abr: {
      enabled: true,
      // A broadband viewer starts in 720p and the player steps down when what it measures is
      // lower (Shaka's own default, 1 Mbit/s, starts every viewer in 360p and climbs only
      // after several segments, so a short watch never reached 720p on a busy machine).
      defaultBandwidthEstimate: VIDEO_DEFAULT_BANDWIDTH_ESTIMATE,
    },
    // The player's own restrictions, not only its ABR's (`abr.restrictions` only steer the
    // adaptation, and a first choice could still be 720p): a capped viewer never gets more.
    restrictions: fault === 'cap-bitrate' ? { maxHeight: lowest } : {},
  });
  if (fault !== null && fault !== 'cap-bitrate') {
    const segment = shaka.net.NetworkingEngine.RequestType.SEGMENT;
    player.getNetworkingEngine()?.registerRequestFilter((type, request) => {
      if (type === segment) request.uris = request.uris.map((uri) => withFault(uri, fault));
    });
  }
  const reportRendition = () => {
    const active = player.getVariantTracks().find((track) => track.active);
    if (active) callbacks.onRendition(active.bandwidth, active.height ?? 0);
  };
  player.addEventListener('variantchanged', reportRendition);
  player.addEventListener('adaptation', reportRendition);
  player.addEventListener('error', (event) => callbacks.onError(errorCode(event.detail)));
  player.addEventListener('buffering', (event) => callbacks.onBuffering(event.buffering === true));
  try {
    await player.load(VIDEO_MANIFEST_URL);
  } catch (error) {
    callbacks.onError(errorCode(error as ShakaError));
  }
  reportRendition();
  return player;
}
