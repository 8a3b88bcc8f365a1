import { expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { toAppError } from '#app/db/database.server'
import { claimsFor, createAuthUser, describeEachDatabase, rejectionOf } from '#tests/support/databases'

/**
 * Linking a YouTube or Kick channel from an OAuth proof (ADR 037,
 * supabase/migrations/20261129000100_channels.sql), as the API roles meet
 * it: the server records what the platform proved with the owner's
 * connection; the user links it with public.link_channel, which links only
 * the caller's own fresh proof, through the one writer set_channel.
 */

const PERMISSION_DENIED = '42501'

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
	const error = await rejectionOf(promise)
	return toAppError(error)?.code ?? error.code
}

/** What the OAuth callback records after the platform named the channel. */
const prove = (db: Queryable, userId: string, platform: string, channel: string, platformUserId = `id-${channel}`) =>
	db.query('select app_private.record_channel_identity($1, $2, $3, $4)', [userId, platform, platformUserId, channel])

const link = (db: Database, userId: string, platform: string, extra = {}) =>
	asUser(db, claimsFor(userId, extra), (tx) => tx.query('select public.link_channel($1)', [platform]))

async function channels(db: Queryable, userId: string) {
	const { rows } = await db.query('select twitch_channel, youtube_channel, kick_channel from public.creator_profiles where id = $1', [userId])
	return rows[0] ?? null
}

describeEachDatabase('channels', (getDb) => {
	test('a proved YouTube or Kick channel is linked by its owner, and makes them a creator', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		expect(await codeOf(link(db, a, 'youtube'))).toBe('error-channel-not-verified')
		expect(await channels(db, a)).toBeNull()

		await prove(db, a, 'youtube', 'UCabcdefghijklmnopqrstuv')
		await link(db, a, 'youtube')
		await prove(db, a, 'kick', 'mia_kicks', '4711')
		await link(db, a, 'kick')
		expect(await channels(db, a)).toEqual({ twitch_channel: null, youtube_channel: 'UCabcdefghijklmnopqrstuv', kick_channel: 'mia_kicks' })

		// A newer proof (the account now runs another channel) replaces the link.
		await prove(db, a, 'kick', 'mia_renamed', '4711')
		await link(db, a, 'kick')
		expect(await channels(db, a)).toMatchObject({ kick_channel: 'mia_renamed' })
	})

	test('a proof is good for ten minutes; after that the channel must be connected again', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		await prove(db, a, 'kick', 'slow_kicker')
		await db.query(`update app_private.channel_identities set verified_at = now() - interval '10 minutes 1 second' where user_id = $1`, [a])
		expect(await codeOf(link(db, a, 'kick'))).toBe('error-channel-not-verified')
		await db.query(`update app_private.channel_identities set verified_at = now() - interval '9 minutes' where user_id = $1`, [a])
		await link(db, a, 'kick')
		expect(await channels(db, a)).toMatchObject({ kick_channel: 'slow_kicker' })
	})

	test("attack: another user's proof links nothing for the caller, and a channel another creator has stays theirs", async () => {
		const db = getDb()
		const owner = await createAuthUser(db)
		const thief = await createAuthUser(db)
		await prove(db, owner, 'youtube', 'UCownerownerownerowner01')
		await link(db, owner, 'youtube')
		// The thief has no proof of their own: the owner's does not count for them.
		expect(await codeOf(link(db, thief, 'youtube'))).toBe('error-channel-not-verified')
		// Even a proof of the same channel (say, a shared brand account) cannot take it.
		await prove(db, thief, 'youtube', 'UCownerownerownerowner01')
		expect(await codeOf(link(db, thief, 'youtube'))).toBe('error-channel-taken')
		expect(await channels(db, thief)).toBeNull()
		expect(await channels(db, owner)).toMatchObject({ youtube_channel: 'UCownerownerownerowner01' })
	})

	test('attack: the API roles cannot record a proof, read or write the proofs, or link as a visitor', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		for (const claims of [null, claimsFor(a)]) {
			const attempts = [
				() => asUser(db, claims, (tx) => prove(tx, a, 'youtube', 'UCforgedforgedforgedfor1')),
				() => asUser(db, claims, (tx) => tx.query('select * from app_private.channel_identities')),
				() =>
					asUser(db, claims, (tx) =>
						tx.query(`insert into app_private.channel_identities (user_id, platform, platform_user_id, channel) values ($1, 'kick', '1', 'forged')`, [a]),
					),
				() => asUser(db, claims, (tx) => tx.query('select app_private.channel_proof_ttl()')),
			]
			// One at a time: each is a transaction of its own.
			for (const attempt of attempts) expect((await rejectionOf(attempt())).code).toBe(PERMISSION_DENIED)
		}
		expect((await rejectionOf(asUser(db, null, (tx) => tx.query(`select public.link_channel('kick')`)))).code).toBe(PERMISSION_DENIED)
		expect(await channels(db, a)).toBeNull()
	})

	test('bad input is refused with a clear error and changes nothing', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		expect(await codeOf(prove(db, a, 'twitch', 'mia'))).toBe('error-invalid-platform')
		expect(await codeOf(prove(db, a, 'myspace', 'mia'))).toBe('error-invalid-platform')
		expect(await codeOf(prove(db, a, 'kick', '../admin'))).toBe('error-invalid-channel')
		expect(await codeOf(prove(db, a, 'kick', 'x'.repeat(65)))).toBe('error-invalid-channel')
		expect(await codeOf(prove(db, a, 'kick', 'ok', ''))).toBe('error-invalid-channel')
		expect(await codeOf(prove(db, '00000000-0000-4000-8000-000000000000', 'kick', 'nobody'))).toBe('error-user-not-found')
		expect(await codeOf(link(db, a, 'myspace'))).toBe('error-invalid-platform')
		expect(await codeOf(link(db, a, 'twitch'))).toBe('error-no-twitch-identity')
		const { rows } = await db.query('select count(*)::int as n from app_private.channel_identities where user_id = $1', [a])
		expect(rows[0]).toEqual({ n: 0 })
	})

	test('linking needs the second factor when one is enrolled; a deleted account takes its proofs with it', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		await prove(db, a, 'kick', 'careful_kicker')
		await db.query(`insert into auth.mfa_factors (id, user_id, factor_type, status) values (gen_random_uuid(), $1, 'totp', 'verified')`, [a])
		expect(await codeOf(link(db, a, 'kick'))).toBe('error-aal2-required')
		expect(await channels(db, a)).toBeNull()
		await link(db, a, 'kick', { aal: 'aal2' })
		expect(await channels(db, a)).toMatchObject({ kick_channel: 'careful_kicker' })

		await db.query('delete from auth.users where id = $1', [a])
		const { rows } = await db.query('select count(*)::int as n from app_private.channel_identities where user_id = $1', [a])
		expect(rows[0]).toEqual({ n: 0 })
	})
})
