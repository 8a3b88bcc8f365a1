import { createHmac } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import type { Viewer } from '#app/modules/account/types'
import { authSessionsTopic, FRESH_MS, SessionCache, TTL_MS } from './session-cache.server'

const SECRET = 'unit-test-secret-that-is-long-enough-0123456789'
const COOKIE = 'dareboost.session_token'
const ALICE = '0a1b2c3d-0000-4000-8000-00000000000a'
const BOB = '0a1b2c3d-0000-4000-8000-00000000000b'
const DAY = 86_400_000

/** Better Auth's signed cookie value (better-call's signCookieValue): `token.base64(HMAC)`, percent-encoded. */
function cookieFor(token: string, secret = SECRET, name = COOKIE) {
	const signature = createHmac('sha256', secret).update(token).digest('base64')
	return `${name}=${encodeURIComponent(`${token}.${signature}`)}`
}

function viewerOf(userId: string): Viewer {
	return { claims: { sub: userId, role: 'authenticated', aal: 'aal1', session_id: `s-${userId}` }, userId, email: `${userId}@example.test`, totpEnabled: false }
}

/** A cache on a clock the test moves; `read()` is one successful read of the marks, as the broadcaster reports it. */
function setup(options: { readAt?: boolean } = {}) {
	const clock = { now: 1_000_000 }
	const cache = new SessionCache({ secret: SECRET, cookieName: COOKIE, now: () => clock.now })
	const read = (...topics: string[]) => cache.observe(topics, options.readAt ? clock.now : undefined)
	const keep = (token: string, userId: string, times: { expiresAt?: number; refreshAt?: number } = {}) =>
		cache.store(cache.begin(), token, viewerOf(userId), { basis: userId, expiresAt: times.expiresAt ?? clock.now + 30 * DAY, refreshAt: times.refreshAt ?? clock.now + DAY })
	const answer = (token: string) => {
		const kept = cache.get(token)
		return kept?.fresh ? kept.viewer.userId : null
	}
	return { clock, cache, read, keep, answer }
}

describe('the session cookie', () => {
	const { cache } = setup()

	test('is taken when its signature is ours, as Better Auth signs it', () => {
		expect(cache.token(cookieFor('tok-1'))).toBe('tok-1')
		expect(cache.token(`i18n_redirected=en; ${cookieFor('tok-1')}; toast-session=x`)).toBe('tok-1')
	})

	test('is refused when forged, signed with another secret, truncated or absent', () => {
		const genuine = cookieFor('tok-1')
		expect(cache.token(cookieFor('tok-1', 'another-secret-that-is-long-enough-0123456789'))).toBeNull()
		// Another token under the genuine signature.
		expect(cache.token(genuine.replace('tok-1', 'tok-2'))).toBeNull()
		expect(cache.token(genuine.slice(0, -6))).toBeNull()
		expect(cache.token(`${COOKIE}=tok-1`)).toBeNull()
		expect(cache.token(`${COOKIE}=%E0%A4%A`)).toBeNull()
		expect(cache.token(cookieFor('tok-1', SECRET, 'other.session_token'))).toBeNull()
		expect(cache.token(null)).toBeNull()
	})

	test('the first of two is read, as Better Auth reads it', () => {
		expect(cache.token(`${cookieFor('first')}; ${cookieFor('second')}`)).toBe('first')
	})
})

describe('answering from memory', () => {
	test('only once the marks have been read since the lookup began (two reads without a read time)', () => {
		const { read, keep, answer } = setup()
		keep('t', ALICE)
		expect(answer('t')).toBeNull()
		read()
		// The first read is only known to have begun after... nothing: not yet.
		expect(answer('t')).toBeNull()
		keep('t', ALICE)
		read()
		expect(answer('t')).toBe(ALICE)
	})

	test('with the read time, from the first read on', () => {
		const { read, keep, answer } = setup({ readAt: true })
		read()
		keep('t', ALICE)
		expect(answer('t')).toBe(ALICE)
	})

	test('fails closed when the reads stop: stale after FRESH_MS, fresh again once they resume', () => {
		const { clock, read, keep, answer, cache } = setup({ readAt: true })
		read()
		keep('t', ALICE)
		clock.now += FRESH_MS
		expect(answer('t')).toBe(ALICE)
		clock.now += 1
		expect(answer('t')).toBeNull()
		// Kept, but only for a revalidation against the database.
		expect(cache.get('t')).toMatchObject({ fresh: false, basis: ALICE })
		read()
		expect(answer('t')).toBe(ALICE)
	})

	test('a read that failed is no read: nothing is observed and the entry goes stale', () => {
		const { clock, read, keep, answer } = setup()
		read()
		read()
		keep('t', ALICE)
		// Reads every 40 ms, then the database stops answering: no more calls.
		for (let i = 0; i < 2; i++) {
			clock.now += 40
			read()
		}
		expect(answer('t')).toBe(ALICE)
		clock.now += 61
		expect(answer('t')).toBeNull()
	})

	test('after a pause longer than marks are safely kept, everything is dropped', () => {
		const { clock, read, keep, answer, cache } = setup({ readAt: true })
		read()
		keep('t', ALICE)
		clock.now += 10_001
		read()
		expect(answer('t')).toBeNull()
		expect(cache.size).toBe(0)
	})
})

describe('revocation marks', () => {
	test('drop every session of the marked user, and only theirs', () => {
		const { read, keep, answer } = setup({ readAt: true })
		read()
		keep('alice-phone', ALICE)
		keep('alice-laptop', ALICE)
		keep('bob', BOB)
		read('session_updates_3f1c2a9e-8d7b-4c6a-9e5f-0a1b2c3d4e5f', authSessionsTopic(ALICE))
		expect(answer('alice-phone')).toBeNull()
		expect(answer('alice-laptop')).toBeNull()
		expect(answer('bob')).toBe(BOB)
	})

	test('a lookup that raced a revocation is not kept (the mark came between the read and the store)', () => {
		const { cache, read, answer } = setup({ readAt: true })
		read()
		const lookup = cache.begin()
		// The database said "valid"; then the sign-out committed and its mark was read.
		read(authSessionsTopic(ALICE))
		cache.store(lookup, 't', viewerOf(ALICE), { basis: ALICE, expiresAt: Date.now() + DAY, refreshAt: Date.now() + DAY })
		expect(answer('t')).toBeNull()
		// A lookup that began after the mark is kept.
		const later = cache.begin()
		cache.store(later, 't', viewerOf(ALICE), { basis: ALICE, expiresAt: 2_000_000 + DAY, refreshAt: 2_000_000 + DAY })
		expect(answer('t')).toBe(ALICE)
	})

	test('a lookup that began before everything was dropped is not kept', () => {
		const { clock, cache, read, answer } = setup({ readAt: true })
		read()
		const lookup = cache.begin()
		clock.now += 10_001
		read()
		cache.store(lookup, 't', viewerOf(ALICE), { basis: ALICE, expiresAt: clock.now + DAY, refreshAt: clock.now + DAY })
		expect(answer('t')).toBeNull()
	})
})

describe('expiry', () => {
	test('an entry ends with its session, at its refresh, and after the TTL', () => {
		const { clock, read, keep, answer } = setup({ readAt: true })
		read()
		const start = clock.now
		keep('expiring', ALICE, { expiresAt: start + 1000 })
		keep('refreshing', BOB, { refreshAt: start + 2000 })
		keep('old', '0a1b2c3d-0000-4000-8000-00000000000c')
		clock.now = start + 999
		read()
		expect(answer('expiring')).toBe(ALICE)
		clock.now = start + 1000
		read()
		expect(answer('expiring')).toBeNull()
		expect(answer('refreshing')).toBe(BOB)
		clock.now = start + 2000
		read()
		expect(answer('refreshing')).toBeNull()
		// The marks are read all along (a pause of 10 s would drop everything).
		while (clock.now < start + TTL_MS - 1000) {
			clock.now += 1000
			read()
		}
		clock.now = start + TTL_MS - 1
		read()
		expect(answer('old')).not.toBeNull()
		clock.now = start + TTL_MS
		read()
		expect(answer('old')).toBeNull()
	})

	test('an already expired session is not kept', () => {
		const { clock, read, keep, answer } = setup({ readAt: true })
		read()
		keep('t', ALICE, { expiresAt: clock.now })
		expect(answer('t')).toBeNull()
	})

	test('the kept viewer cannot be changed by a route', () => {
		const { read, keep, cache } = setup({ readAt: true })
		read()
		keep('t', ALICE)
		const viewer = cache.get('t')!.viewer
		expect(() => Object.assign(viewer.claims, { aal: 'aal2' })).toThrow(TypeError)
	})

	test('at most maxEntries, the oldest going first', () => {
		const clock = { now: 1_000_000 }
		const cache = new SessionCache({ secret: SECRET, cookieName: COOKIE, now: () => clock.now, maxEntries: 2 })
		cache.observe([], clock.now)
		for (const t of ['a', 'b', 'c']) cache.store(cache.begin(), t, viewerOf(ALICE), { basis: ALICE, expiresAt: clock.now + DAY, refreshAt: clock.now + DAY })
		expect(cache.size).toBe(2)
		expect(cache.get('a')).toBeNull()
		expect(cache.get('c')?.fresh).toBe(true)
	})
})
