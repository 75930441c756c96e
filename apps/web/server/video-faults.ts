/**
 * The video demo's network faults, made for real on the segment requests
 * (docs/decisions/013-video-demo.md): under `?video_fault=slow-start|stall` a segment is held
 * before it is served, under `segment-404` one answers 404. A faulted answer is never cached;
 * clean segments are served by the static handler behind this one.
 */
import type { NextFunction, Request, Response } from 'express';
import { VIDEO_FAULT_PARAM, parseVideoFault, segmentFaultAction } from '@showroom/contracts/video';

export function videoFaults() {
  return (request: Request, response: Response, next: NextFunction): void => {
    const raw = request.query[VIDEO_FAULT_PARAM];
    const fault = parseVideoFault(typeof raw === 'string' ? raw : null);
    const action = segmentFaultAction(fault, request.path);
    if (fault !== null) response.setHeader('Cache-Control', 'no-store');
    if (action === null) return next();
    if (action.kind === 'missing') {
      response.status(404).type('text/plain').send('Segment not found (video fault segment-404)');
      return;
    }
    const timer = setTimeout(next, action.ms);
    request.once('close', () => clearTimeout(timer));
  };
}
