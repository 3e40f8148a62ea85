// Password hashing (argon2id, @node-rs/argon2's defaults: m=19456, t=2, p=1) through a small
// semaphore. The library already hashes on libuv's thread pool, but unbounded: 200 logins at once
// queue 200 hashes there (the pool has 4 threads on 2 cores), which starves the event loop of CPU
// and every other task of the pool (file reads, zlib). At most PASSWORD_CONCURRENCY hashes run at
// once (by default the number of cores, kept between 2 and 4); the rest wait their turn in order,
// and other calls go on.
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

const DEFAULT_CONCURRENCY = Math.min(4, Math.max(2, availableParallelism()));

/** A counting semaphore: run(fn) starts fn when fewer than `limit` run, else queues it (FIFO). */
export class Semaphore {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`Limite de concurrencia invalido: ${limit}`);
  }

  /** Running now. */
  get running(): number {
    return this.active;
  }

  /** Waiting for a free slot. */
  get waiting(): number {
    return this.queue.length;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next waiter (active stays the same), or is freed.
      const next = this.queue.shift();
      if (next) next();
      else this.active--;
    }
  }
}

function concurrencyFromEnv(): number {
  const raw = process.env.PASSWORD_CONCURRENCY?.trim();
  const n = raw ? Number(raw) : DEFAULT_CONCURRENCY;
  return Number.isInteger(n) && n >= 1 ? n : DEFAULT_CONCURRENCY;
}

/** The one semaphore of the process's hashes and verifications (metrics read its counts). */
export const passwordSlots = new Semaphore(concurrencyFromEnv());

/** The argon2id hash of a password (parameters: the library's defaults, unchanged). */
export function hashPassword(password: string): Promise<string> {
  return passwordSlots.run(() => hash(password));
}

/** Whether the password matches the hash (a malformed hash throws, as argon2's verify does). */
export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return passwordSlots.run(() => verify(passwordHash, password));
}
