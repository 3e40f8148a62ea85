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
