import { useEffect, useState } from 'react';

/**
 * The time, for a countdown on screen: taken at mount, then every `intervalMs` until `until`
 * (epoch ms) has passed; null or NaN never ticks.
 */
export function useNow(until: number | null, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until === null || !Number.isFinite(until)) return;
    const timer = setInterval(() => {
      const time = Date.now();
      setNow(time);
      if (time >= until) clearInterval(timer);
    }, intervalMs);
    return () => clearInterval(timer);
  }, [until, intervalMs]);
  return now;
}
