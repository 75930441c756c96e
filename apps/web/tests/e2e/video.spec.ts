/**
 * The video quality demo (docs/decisions/013-video-demo.md): a real adaptive stream plays in
 * Chromium, its quality-of-experience metrics show on the page and reach the monitoring intake
 * with the session's shopper and flags; each fault moves its metric against a clean run.
 * Serial: the fault runs compare with the clean run's numbers, and one video plays at a time.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';
import { VIDEO_RENDITIONS } from '@showroom/contracts/video';
import {
  VIDEO_BUFFER_AHEAD_SECONDS,
  VIDEO_FAULT_PLAN,
  type VideoFault,
} from '@showroom/contracts/video';
import { expect, test } from './fixtures';
import {
  drawWithoutAnonymity,
  inspectSession,
  leavePage,
  rumSessionId,
  type InspectedEntry,
} from './monitoring-helpers';
import { startupDone } from './shop-helpers';

test.describe.configure({ mode: 'serial' });

const PAGE = '/video-quality-monitoring-demo';

/** A metric as the page shows it (`data-value` of `qoe-<id>`). */
async function metric(page: Page, id: string): Promise<number> {
  return Number(await page.getByTestId(`qoe-${id}`).getAttribute('data-value'));
}
async function flag(page: Page, id: string): Promise<string | null> {
  return page.getByTestId(`qoe-${id}`).getAttribute('data-value');
}

interface Playback {
  page: Page;
  sessionId: string;
  userId: string;
}

/** Opens the page (with a fault), waits for start-up and the SDK, and asks to play. */
async function play(page: Page, fault: VideoFault | null): Promise<Playback> {
  await drawWithoutAnonymity(page);
  await page.goto(fault ? `${PAGE}?video_fault=${fault}` : PAGE);
  await startupDone(page);
  const sessionId = await rumSessionId(page);
  const userId = await page.evaluate(() => localStorage.getItem('user_id'));
  expect(userId).toBeTruthy();
  await page.getByTestId('video-play').click();
  return { page, sessionId, userId: userId! };
}

/**
 * Leaves the page (its exit ends the playback: `video summary`, then the SDK's exit flush) and
 * answers the video actions the intake stored for the session, once `video summary` is there.
 */
async function storedVideoActions(
  request: APIRequestContext,
  playback: Playback,
): Promise<Map<string, InspectedEntry>> {
  await leavePage(playback.page);
  const actions = new Map<string, InspectedEntry>();
  await expect
    .poll(
      async () => {
        const session = await inspectSession(request, playback.sessionId);
        for (const entry of session?.timeline ?? []) {
          if (entry.kind === 'action' && entry.title.startsWith('video ')) {
            actions.set(entry.title, entry);
          }
        }
        return actions.has(MONITORING_ACTIONS.videoSummary);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  for (const [title, entry] of actions) {
    expect(entry.usrId, `usr.id of ${title}`).toBe(playback.userId);
    expect(
      Object.keys(entry.featureFlags ?? {}).length,
      `feature_flags of ${title}`,
    ).toBeGreaterThan(0);
  }
  return actions;
}

function summaryOf(actions: Map<string, InspectedEntry>): InspectedEntry['detail'] {
  return actions.get(MONITORING_ACTIONS.videoSummary)!.detail;
}

/** The clean run's numbers, for the faults to compare with. */
let clean: { startupMs: number; averageBitrate: number } | undefined;

test.describe('video quality monitoring demo', () => {
  test('a clean playback: it starts, plays, decodes frames, climbs to 720p and is stored with the shopper', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const playback = await play(page, null);
    await expect.poll(() => metric(page, 'startup'), { timeout: 20_000 }).toBeGreaterThan(0);
    const firstWatch = await metric(page, 'watch-time');
    // The player starts in 720p (its default bandwidth estimate) and keeps to it on a fast link;
    // on a machine busy with other tests its measurements may step it down for a while, so the
    // proof is that 720p played at all (the peak bitrate), within a generous window.
    const [low] = VIDEO_RENDITIONS;
    await expect
      .poll(() => metric(page, 'peak-bitrate'), { timeout: 45_000 })
      .toBeGreaterThan(2 * low!.targetBitrate);
    await expect.poll(() => metric(page, 'watch-time')).toBeGreaterThan(firstWatch + 2_000);
    expect(await metric(page, 'total-frames')).toBeGreaterThan(0);
    expect(await flag(page, 'failed')).toBe('false');
    await expect(page.getByTestId('video')).toHaveJSProperty('paused', false);
    const frames = await page
      .getByTestId('video')
      .evaluate((video: HTMLVideoElement) => video.getVideoPlaybackQuality().totalVideoFrames);
    expect(frames).toBeGreaterThan(0);

    const actions = await storedVideoActions(request, playback);
    expect([...actions.keys()]).toEqual(
      expect.arrayContaining([MONITORING_ACTIONS.videoStart, MONITORING_ACTIONS.videoSummary]),
    );
    const summary = summaryOf(actions);
    expect(summary).toMatchObject({
      video_fault: 'none',
      video_state: 'exited',
      video_playback_failed: false,
      video_exited_before_start: false,
    });
    // No fault holds a segment here, but a player that buffers only a few seconds ahead may
    // still wait briefly for data on a machine busy with other tests: a clean run is one that
    // spends most of its watch time playing, not one that never waited.
    expect(summary.video_rebuffer_percentage as number).toBeLessThan(25);
    expect(summary.video_startup_time_ms).toEqual(expect.any(Number));
    expect(summary.video_startup_time_ms as number).toBeGreaterThan(0);
    expect(summary.video_watch_time_ms as number).toBeGreaterThan(2_000);
    expect(summary.video_total_frames as number).toBeGreaterThan(0);
    // It played 720p (seen live above), and the summary says so.
    expect(summary.video_peak_bitrate as number).toBeGreaterThan(2 * low!.targetBitrate);
    expect(summary.video_peak_bitrate as number).toBeGreaterThanOrEqual(
      summary.video_average_bitrate as number,
    );
    clean = {
      startupMs: summary.video_startup_time_ms as number,
      averageBitrate: summary.video_average_bitrate as number,
    };
  });

  test('slow-start: the held first segment makes the startup time larger', async ({
    page,
    request,
  }) => {
    expect(clean).toBeDefined();
    const playback = await play(page, 'slow-start');
    await expect.poll(() => metric(page, 'startup'), { timeout: 20_000 }).toBeGreaterThan(0);
    const startup = await metric(page, 'startup');
    expect(startup).toBeGreaterThan(clean!.startupMs);
    expect(startup).toBeGreaterThanOrEqual(VIDEO_FAULT_PLAN.slowStartDelayMs);
    const summary = summaryOf(await storedVideoActions(request, playback));
    expect(summary).toMatchObject({
      video_fault: 'slow-start',
      video_startup_time_ms: Math.round(startup),
    });
  });

  test('stall: a segment held mid-play makes the playback rebuffer', async ({ page, request }) => {
    test.setTimeout(60_000);
    const playback = await play(page, 'stall');
    await expect.poll(() => metric(page, 'rebuffer-count'), { timeout: 30_000 }).toBeGreaterThan(0);
    // The held segment outlasts the buffer by stallDelayMs − VIDEO_BUFFER_AHEAD_SECONDS; half
    // of that is the floor this fault must reach, whatever else the machine is doing (a brief
    // wait for data on a busy machine may come first).
    const floorMs = (VIDEO_FAULT_PLAN.stallDelayMs - VIDEO_BUFFER_AHEAD_SECONDS * 1000) / 2;
    await expect
      .poll(() => metric(page, 'rebuffer-duration'), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(floorMs);
    const actions = await storedVideoActions(request, playback);
    expect(actions.get(MONITORING_ACTIONS.videoRebuffer)?.detail).toMatchObject({
      video_fault: 'stall',
      video_rebuffer_count: expect.any(Number),
    });
    const summary = summaryOf(actions);
    expect(summary.video_rebuffer_count as number).toBeGreaterThanOrEqual(1);
    expect(summary.video_rebuffer_duration_ms as number).toBeGreaterThanOrEqual(floorMs);
    expect(summary.video_rebuffer_percentage as number).toBeGreaterThan(0);
  });

  test('cap-bitrate: the player kept to the lowest rendition plays a lower average bitrate', async ({
    page,
    request,
  }) => {
    expect(clean).toBeDefined();
    const playback = await play(page, 'cap-bitrate');
    await expect.poll(() => metric(page, 'startup'), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => metric(page, 'watch-time')).toBeGreaterThan(4_000);
    expect(await metric(page, 'rendition')).toBe(360);
    const summary = summaryOf(await storedVideoActions(request, playback));
    expect(summary).toMatchObject({ video_fault: 'cap-bitrate', video_rendition_height: 360 });
    expect(summary.video_average_bitrate as number).toBeLessThan(clean!.averageBitrate);
  });

  test('segment-404: a missing segment is a playback failure', async ({
    page,
    request,
    consoleWatch,
  }) => {
    test.setTimeout(60_000);
    consoleWatch.allow(/status of 404/);
    const playback = await play(page, 'segment-404');
    await expect.poll(() => flag(page, 'failed'), { timeout: 40_000 }).toBe('true');
    const actions = await storedVideoActions(request, playback);
    expect(actions.get(MONITORING_ACTIONS.videoError)?.detail).toMatchObject({
      video_fault: 'segment-404',
      video_playback_failed: true,
    });
    expect(summaryOf(actions)).toMatchObject({
      video_state: 'failed',
      video_playback_failed: true,
      video_error_code: expect.stringMatching(/^shaka /),
    });
  });
});
