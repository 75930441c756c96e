import type { Browser } from '@playwright/test';

export interface BundleBudget {
  page: string;
  /** The goal (judged by npm run bench), gzip bytes. */
  budget: { page: number; deferred: number };
  /** What npm test enforces: today's size plus a little, lowered as the size drops. */
  ceiling: { page: number; deferred: number };
  deferred: Record<string, string[]>;
}
/** 'page', or a group of `deferred` in bundle-budget.json ('monitoring', 'flags', 'builds'). */
export type ScriptGroup = string;
export interface FirstVisitScript {
  url: string;
  group: ScriptGroup;
  gzipBytes: number;
}
export function readBundleBudget(): BundleBudget;
export function groupOfFile(fileName: string, budget?: BundleBudget): ScriptGroup;
export function classifyScript(url: string, budget?: BundleBudget): ScriptGroup;
export function gzipBytes(url: string): Promise<number>;
/** The bytes of every deferred group together. */
export function deferredBytes(totals: Record<ScriptGroup, number>, budget?: BundleBudget): number;
export function measureFirstVisit(
  browser: Browser,
  pageUrl: string,
  budget?: BundleBudget,
): Promise<{
  scripts: FirstVisitScript[];
  /** Per group: `page` and every deferred group. */
  totals: Record<ScriptGroup, number>;
  /** All deferred groups together. */
  deferred: number;
}>;
