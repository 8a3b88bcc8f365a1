import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Viewer } from '#app/modules/account/types'

/**
 * The signed-in viewer from memory (docs/decisions/044-session-cache.md).
 *
 * Better Auth reads a session with two queries and an HMAC on every
 * request. Here a session Better Auth has just accepted is kept in memory,
 * keyed by its token, and answers the next requests that present the same
 * cookie with a valid signature, while three things hold:
 *
 *  - the revocation marks were read recently: every change that can end or
 *    lessen a session appends a mark `auth_sessions_{userId}` in its own
 *    transaction (sign-out, password reset, account deletion, a ban, a new
 *    assurance level, a changed e-mail or second factor: the triggers of
 *    supabase/local-shim/170_session_revocations.sql and the migration
 *    20261203000200_session_revocations.sql), the realtime broadcaster reads
 *    the marks every 40 ms and hands their topics to `observe`, which drops
 *    that user's entries. An entry is trusted only while every mark
 *    committed up to `freshMs` ago has been observed. When the reads stop
 *    or fail, entries stop being trusted after `freshMs` and every request
 *    goes to the database again (fail closed);
 *  - the session has not expired, and is not due for Better Auth's sliding
 *    refresh (that request goes to Better Auth, which moves the expiry and
 *    sets the cookie again);
 *  - the entry is younger than `ttlMs`: a backstop for a mark missed anyway.
 *
 * So a revoked session is refused by every instance at most `freshMs` after
 * its revocation committed. An entry kept while the marks were not read
 * recently answers only once one query confirms the rows it was made of
 * (`basis`; LocalAccountBackend.getViewer); everything else (no entry, a
 * cookie whose signature is not ours, an expired entry) goes to Better
 * Auth, as before.
 */

/** The topic of the marks that concern a user's sessions. */
export const authSessionsTopic = (userId: string) => `auth_sessions_${userId}`
const AUTH_SESSIONS_TOPIC = /^auth_sessions_([0-9a-f-]{36})$/

/** Trusted while the marks committed up to this long ago have been read: the bound on revocation (issue 22). */
export const FRESH_MS = 100
/** An entry is read from the database again at least this often, whatever the marks say. */
export const TTL_MS = 60_000
/**
 * A lookup that took longer than this is not kept; revocations are
 * remembered this long for the lookups under way. After a pause of the reads
 * this long, everything cached is dropped (marks are kept a minute only, so
 * a longer pause could miss some).
 */
const REMEMBER_MS = 10_000
const MAX_ENTRIES = 50_000

export interface SessionCacheOptions {
	/** Better Auth's secret: session cookies are `token.base64(HMAC-SHA256(secret, token))`. */
	secret: string
	/** Better Auth's session cookie name (`dareboost.session_token`, `__Secure-` prefixed over https). */
	cookieName: string
	freshMs?: number
	ttlMs?: number
	maxEntries?: number
	now?: () => number
}

interface Entry {
	viewer: Viewer
	userId: string
	/** What the viewer was made of (see `Kept`): a revalidation must read the same. */
	basis: string
	/** The entry answers until then: the session's expiry, its refresh, the TTL, whichever comes first. */
	until: number
}

/** A kept viewer, and the rows it was made of, as one string (the caller's; compared whole). */
export interface Kept {
	viewer: Viewer
	basis: string
	fresh: boolean
}

/** What a lookup in the database noted when it began (see `store`). */
export interface Lookup {
	readonly observation: number
	readonly at: number
}

export class SessionCache {
	readonly #secret: string
	readonly #cookieName: string
	readonly #freshMs: number
	readonly #ttlMs: number
	readonly #maxEntries: number
	readonly #now: () => number
	readonly #entries = new Map<string, Entry>()
	readonly #tokensOf = new Map<string, Set<string>>()
	/** The observation in which each user's sessions were last marked, and when (kept REMEMBER_MS). */
	readonly #revoked = new Map<string, { observation: number; at: number }>()
	/** Observations so far (calls of `observe`). */
	#observations = 0
	/** The last observation that dropped every entry. */
	#clearedAt = 0
	/** Every mark committed before this time has been observed. */
	#knownUntil = -Infinity
	/** When `observe` was last called. */
	#lastObservedAt: number | null = null
	#prunedAt = 0

	constructor(options: SessionCacheOptions) {
		this.#secret = options.secret
		this.#cookieName = options.cookieName
		this.#freshMs = options.freshMs ?? FRESH_MS
		this.#ttlMs = options.ttlMs ?? TTL_MS
		this.#maxEntries = options.maxEntries ?? MAX_ENTRIES
		this.#now = options.now ?? Date.now
	}

	/**
	 * The session token of this Cookie header when its signature is ours
	 * (Better Auth's signed cookie, read as Better Auth reads it: the first
	 * cookie of that name, quotes removed, percent-decoded), else null.
	 */
	token(cookieHeader: string | null): string | null {
		const value = firstCookie(cookieHeader, this.#cookieName)
		if (!value) return null
		const dot = value.lastIndexOf('.')
		if (dot < 1) return null
		const token = value.slice(0, dot)
		const given = Buffer.from(value.slice(dot + 1))
		const expected = Buffer.from(createHmac('sha256', this.#secret).update(token).digest('base64'))
		return given.length === expected.length && timingSafeEqual(given, expected) ? token : null
	}

	/**
	 * The viewer kept for this token: `fresh` when it may answer now, else
	 * (the marks not read recently) only once the database confirms its
	 * `basis` is unchanged. Null: not kept, or expired or due for its refresh.
	 */
	get(token: string): Kept | null {
		const entry = this.#entries.get(token)
		if (!entry) return null
		const now = this.#now()
		if (now >= entry.until) {
			this.#drop(token)
			return null
		}
		return { viewer: entry.viewer, basis: entry.basis, fresh: this.fresh(now) }
	}

	/** Whether every revocation committed more than `freshMs` before `now` has been observed. */
	fresh(now = this.#now()): boolean {
		return now - this.#knownUntil <= this.#freshMs
	}

	/** Call before reading a session from the database; pass the result to `store`. */
	begin(): Lookup {
		return { observation: this.#observations, at: this.#now() }
	}

	/**
	 * Keeps what the database said at `lookup`: unless the user's sessions
	 * were marked since (that revocation may have committed after the read),
	 * or everything was dropped since, or the lookup took too long.
	 * `expiresAt`: the session's expiry; `refreshAt`: when Better Auth would
	 * slide it (the first request from then on goes to Better Auth).
	 */
	store(lookup: Lookup, token: string, viewer: Viewer, { basis, expiresAt, refreshAt }: { basis: string; expiresAt: number; refreshAt: number }): void {
		const now = this.#now()
		if (now - lookup.at > REMEMBER_MS || this.#clearedAt > lookup.observation) return
		const revoked = this.#revoked.get(viewer.userId)
		if (revoked && revoked.observation > lookup.observation) return
		const until = Math.min(expiresAt, refreshAt, lookup.at + this.#ttlMs)
		if (until <= now) return
		this.#drop(token)
		while (this.#entries.size >= this.#maxEntries) this.#drop(this.#entries.keys().next().value!)
		this.#entries.set(token, { viewer: freeze(viewer), userId: viewer.userId, basis, until })
		let tokens = this.#tokensOf.get(viewer.userId)
		if (!tokens) this.#tokensOf.set(viewer.userId, (tokens = new Set()))
		tokens.add(token)
	}

	/**
	 * The topics of the marks read since the last call (any topics; those of
	 * sessions count). Contract with the reader (the realtime broadcaster):
	 * one reader, one read at a time, a call after each read that succeeded;
	 * `readAt`, when given, is when that read began. Without it, the read is
	 * known only to have begun after the previous call, so that is how far
	 * the marks are known to have been read.
	 */
	observe(topics: Iterable<string>, readAt?: number): void {
		const now = this.#now()
		const observation = ++this.#observations
		const previous = this.#lastObservedAt
		this.#lastObservedAt = now
		// A pause long enough to miss marks (or the first read): nothing cached is trusted.
		if (previous === null || now - previous > REMEMBER_MS) {
			this.#clearedAt = observation
			this.#entries.clear()
			this.#tokensOf.clear()
		}
		for (const topic of topics) {
			const userId = AUTH_SESSIONS_TOPIC.exec(topic)?.[1]
			if (!userId) continue
			this.#revoked.set(userId, { observation, at: now })
			for (const token of this.#tokensOf.get(userId) ?? []) this.#entries.delete(token)
			this.#tokensOf.delete(userId)
		}
		const known = readAt ?? previous ?? -Infinity
		if (known > this.#knownUntil && known <= now) this.#knownUntil = known
		if (now - this.#prunedAt >= REMEMBER_MS) {
			this.#prunedAt = now
			for (const [userId, r] of this.#revoked) if (now - r.at > REMEMBER_MS) this.#revoked.delete(userId)
		}
	}

	/** How many sessions are kept (tests). */
	get size(): number {
		return this.#entries.size
	}

	#drop(token: string) {
		const entry = this.#entries.get(token)
		if (!entry) return
		this.#entries.delete(token)
		const tokens = this.#tokensOf.get(entry.userId)
		tokens?.delete(token)
		if (tokens?.size === 0) this.#tokensOf.delete(entry.userId)
	}
}

/** The first cookie of that name, as better-call (Better Auth's) reads it; null when absent or undecodable. */
function firstCookie(header: string | null, name: string): string | null {
	if (!header) return null
	for (const part of header.split(';')) {
		const eq = part.indexOf('=')
		if (eq === -1 || part.slice(0, eq).trim() !== name) continue
		let value = part.slice(eq + 1).trim()
		if (value.charCodeAt(0) === 34) value = value.slice(1, -1)
		try {
			return decodeURIComponent(value)
		} catch {
			return null
		}
	}
	return null
}

function freeze(viewer: Viewer): Viewer {
	Object.freeze(viewer.claims)
	return Object.freeze(viewer)
}
