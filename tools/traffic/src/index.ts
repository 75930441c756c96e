export { runTraffic, type TrafficOptions } from './run.js';
export { planSession, describePlan, type SessionPlan } from './planner.js';
export { rateAt, curveAt, spikeAt } from './rate.js';
export { Scheduler } from './scheduler.js';
export { watchControlFile } from './control.js';
export { StatusBoard, statusLine, type StatusSnapshot } from './status.js';
export { formatSummary, summarize, type TrafficSummary } from './summary.js';
export { loadProfile, resolveProfilePath, PROFILES_DIR } from './profile-file.js';
