// The demo's random numbers: deterministic, so every machine and every run draws the same network.

/** A sequence in [0, 1) from a text (one per dealer: `agr-LIM01`, `taller-LIM01`, …). */
export function demoRandom(seed: string): () => number {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
}

/** A sequence in [0, 1) from a number (a linear congruential generator). */
export function demoSequence(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * A recorded instant that has already happened: `at` when it is not after `now`, else a moment
 * between `earliest` and `now` (`share` of the way). The demo dates what people did (enabled,
 * confirmed, created, read) in the past of Lima's now; only what lies ahead by nature (due dates,
 * expiries, a scheduled publication) may be later.
 */
export function demoPast(at: Date, earliest: Date, now: number, share = 0.5): Date {
  if (at.getTime() <= now) return at;
  const from = Math.min(earliest.getTime(), now);
  return new Date(from + Math.floor((now - from) * Math.min(Math.max(share, 0), 1)));
}
