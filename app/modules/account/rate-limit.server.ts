import { createHmac } from 'node:crypto'
import type { Database } from '#app/db/database.server'
import type { LimitDecision, RateLimit } from './limits.server'

/** Where the counters live: the local platform's (local shim) or the Supabase platform's (migration 20261123000100_rate_limits.sql). */
export type RateLimitTable = 'better_auth.app_rate_limit' | 'app_private.rate_limits'

/**
 * Fixed-window counters in a table (better_auth.app_rate_limit on the local
 * platform, app_private.rate_limits on Supabase), shared by every app instance.
 * One statement per attempt: the upsert counts and decides atomically, so
 * concurrent attempts cannot all slip past a stale read.
 *
 * Keys are HMACs of "scope:value" under the auth secret: the table never
 * holds a readable e-mail address or IP, not even of someone without an
 * account, and a key cannot be guessed from outside.
 */
export class RateLimiter {
	readonly #db: Database
	readonly #secret: string
	readonly #table: RateLimitTable
	#callsSinceCleanup = 0

	constructor(db: Database, secret: string, table: RateLimitTable = 'better_auth.app_rate_limit') {
		this.#db = db
		this.#secret = secret
		this.#table = table
	}

	key(scope: string, value: string): string {
		return createHmac('sha256', this.#secret).update(`${scope}:${value}`).digest('base64url')
	}

	/** Count one attempt against `key`; refused once `max` attempts fall in the current window. */
	async consume(key: string, limit: RateLimit): Promise<LimitDecision> {
		const { rows } = await this.#db.query<{ hits: number; seconds_left: number }>(
			`insert into ${this.#table} as l (key, window_started_at, hits)
			 values ($1, now(), 1)
			 on conflict (key) do update set
			   window_started_at = case when l.window_started_at <= now() - make_interval(secs => $2) then now() else l.window_started_at end,
			   hits = case when l.window_started_at <= now() - make_interval(secs => $2) then 1 else l.hits + 1 end
			 returning hits, extract(epoch from (window_started_at + make_interval(secs => $2) - now()))::float8 as seconds_left`,
			[key, limit.windowSeconds],
		)
		void this.#maybeCleanUp()
		const row = rows[0]
		if (!row || row.hits <= limit.max) return { allowed: true }
		return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(row.seconds_left)) }
	}

	/** Start a fresh window with this attempt counted (a mail just went out: the cooldown starts now). The window's length is the next consume's. */
	async restart(key: string, _windowSeconds?: number): Promise<void> {
		await this.#db.query(
			`insert into ${this.#table} (key, window_started_at, hits) values ($1, now(), 1)
			 on conflict (key) do update set window_started_at = now(), hits = 1`,
			[key],
		)
	}

	/** Takes back one counted attempt of the current window. */
	async giveBack(key: string): Promise<void> {
		await this.#db.query(`update ${this.#table} set hits = greatest(hits - 1, 0) where key = $1`, [key])
	}

	/**
	 * Expired counters are reset in place on their next use; keys never seen
	 * again would stay forever, so now and then (every few hundred attempts
	 * per instance) rows idle for a day go.
	 */
	async #maybeCleanUp(): Promise<void> {
		this.#callsSinceCleanup += 1
		if (this.#callsSinceCleanup < 500) return
		this.#callsSinceCleanup = 0
		await this.#db
			.query(`delete from ${this.#table} where window_started_at < now() - interval '1 day'`)
			.catch(() => {})
	}
}
