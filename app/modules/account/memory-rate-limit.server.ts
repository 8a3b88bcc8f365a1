import { createHmac, randomBytes } from 'node:crypto'
import type { LimitDecision, RateLimit } from './limits.server'

/**
 * Fixed-window counters in this process's memory: the Supabase platform's
 * fallback when it has no database (the server always gives it one; then
 * the counters are in app_private.rate_limits, shared by every instance,
 * through RateLimiter in rate-limit.server.ts).
 *
 * Supabase Auth has rate limits of its own, but it counts per IP address and
 * every call here comes from this server's address, so they cannot tell one
 * visitor from another; and its per-address mail frequency answers only for
 * addresses that have an account (which would tell who has one). These
 * counters give both platforms the same rules (DEFAULT_RATE_LIMITS). In
 * memory they are per instance: with several instances behind a balancer a
 * visitor gets up to that many times the attempts, still bounded, and
 * Supabase's own limits stay behind them.
 *
 * Keys are HMACs under a per-process random key: memory never holds a
 * readable address.
 */
export class MemoryRateLimiter {
	readonly #windows = new Map<string, { startedAt: number; hits: number; windowSeconds: number }>()
	readonly #salt = randomBytes(32)
	readonly #now: () => number
	readonly #maxKeys: number

	constructor({ now = Date.now, maxKeys = 100_000 }: { now?: () => number; maxKeys?: number } = {}) {
		this.#now = now
		this.#maxKeys = maxKeys
	}

	key(scope: string, value: string): string {
		return createHmac('sha256', this.#salt).update(`${scope}:${value}`).digest('base64url')
	}

	/** Count one attempt; refused once `max` attempts fall in the current window. */
	consume(key: string, limit: RateLimit): LimitDecision {
		const now = this.#now()
		const current = this.#windows.get(key)
		if (!current || now - current.startedAt >= limit.windowSeconds * 1000) {
			this.#set(key, { startedAt: now, hits: 1, windowSeconds: limit.windowSeconds })
			return limit.max >= 1 ? { allowed: true } : this.#refusal(now, now, limit.windowSeconds)
		}
		current.hits += 1
		if (current.hits <= limit.max) return { allowed: true }
		return this.#refusal(now, current.startedAt, limit.windowSeconds)
	}

	/** Start a fresh window with this attempt counted (a mail just went out: the cooldown starts now). */
	restart(key: string, windowSeconds: number): void {
		this.#set(key, { startedAt: this.#now(), hits: 1, windowSeconds })
	}

	/** Takes back one counted attempt of the current window. */
	giveBack(key: string): void {
		const current = this.#windows.get(key)
		if (current && current.hits > 0) current.hits -= 1
	}

	#refusal(now: number, startedAt: number, windowSeconds: number): LimitDecision {
		return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((startedAt + windowSeconds * 1000 - now) / 1000)) }
	}

	#set(key: string, value: { startedAt: number; hits: number; windowSeconds: number }): void {
		this.#windows.delete(key)
		this.#windows.set(key, value)
		if (this.#windows.size > this.#maxKeys) this.#prune()
	}

	/** Drop expired windows; if that is not enough, the oldest (Map keeps insertion order). */
	#prune(): void {
		const now = this.#now()
		for (const [key, w] of this.#windows) if (now - w.startedAt >= w.windowSeconds * 1000) this.#windows.delete(key)
		for (const key of this.#windows.keys()) {
			if (this.#windows.size <= this.#maxKeys * 0.9) break
			this.#windows.delete(key)
		}
	}
}
