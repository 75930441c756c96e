/**
 * Runs `run` every `intervalMs` (unref'd: it never keeps the process alive). A slow run is not
 * doubled up by the next tick; a failing one is logged with `failure` and the next runs as
 * planned. `stop()` clears the timer and waits for the run in progress. The autopilot's ticker
 * and the guard checker both run on it (docs/decisions/018-autopilot.md, 019-guarded-rollouts.md).
 */
export function startRepeatingJob(
  run: () => Promise<unknown>,
  intervalMs: number,
  log: { error(obj: unknown, msg: string): void },
  failure: string,
): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = run()
      .catch((err: unknown) => log.error({ err }, failure))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
