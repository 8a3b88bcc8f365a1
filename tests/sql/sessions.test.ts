import { expect, test } from 'vitest'
import { asUser, type JwtClaims } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { toAppError } from '#app/db/database.server'
import { claimsFor, createAuthUser, describeEachDatabase, rejectionOf } from '#tests/support/databases'
import { SESSION_LIMITS } from '#app/modules/sessions/schemas'

type SessionInput = {
	creator_id: string
	title?: string
	platform?: string
	channel?: string
	status?: string
	created_at?: string
	ended_at?: string | null
	min_boost?: number
	max_dares_per_user?: number
	max_free_dares_per_user?: number
	voting_duration?: number
}

async function insertSession(db: Database, input: SessionInput): Promise<string> {
	const row = { title: 'Live', platform: 'twitch', channel: 'some_channel', ...input }
	const columns = Object.keys(row)
	const { rows } = await db.query<{ id: string }>(
		`insert into public.sessions (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
		Object.values(row),
	)
	const id = rows[0]?.id
	if (!id) throw new Error('no session id')
	return id
}

describeEachDatabase('sessions', (getDb) => {
	test('defaults are the start-session defaults of docs/product.md §5.2', async () => {
		const db = getDb()
		const creator = await createAuthUser(db)
		const id = await insertSession(db, { creator_id: creator })
		const { rows } = await db.query(
			'select status, min_boost, max_dares_per_user, max_free_dares_per_user, voting_duration, ended_at from public.sessions where id = $1',
			[id],
		)
		expect(rows).toEqual([
			{ status: 'active', min_boost: 200, max_dares_per_user: 5, max_free_dares_per_user: 1, voting_duration: 180, ended_at: null },
		])
	})

	test('a creator has at most one active session', async () => {
		const db = getDb()
		const creator = await createAuthUser(db)
		const first = await insertSession(db, { creator_id: creator, channel: 'one' })
		const error = await rejectionOf(insertSession(db, { creator_id: creator, platform: 'kick', channel: 'two' }))
		expect(error.code).toBe('23505')
		expect(toAppError(error)?.code).toBe('error-session-already-active')

		// Ending the first frees the slot; ended sessions do not count.
		await db.query(`update public.sessions set status = 'ended', ended_at = now() where id = $1`, [first])
		await insertSession(db, { creator_id: creator, platform: 'kick', channel: 'two' })
	})

	test('a channel has at most one active session, compared case-insensitively', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await insertSession(db, { creator_id: a, platform: 'twitch', channel: 'Shared_Chan' })
		const error = await rejectionOf(insertSession(db, { creator_id: b, platform: 'twitch', channel: 'shared_chan' }))
		expect(error.code).toBe('23505')
		expect(toAppError(error)?.code).toBe('error-channel-already-live')
		// The same name on another platform is another channel.
		await insertSession(db, { creator_id: b, platform: 'youtube', channel: 'shared_chan' })
	})

	test('check constraints reject values outside the limits', async () => {
		const db = getDb()
		const creator = await createAuthUser(db)
		const hourAgo = new Date(Date.now() - 3_600_000).toISOString()
		const bad: Array<[string, Partial<SessionInput>, string]> = [
			['empty title', { title: '' }, 'sessions_title_length'],
			['blank title', { title: '   ' }, 'sessions_title_length'],
			['long title', { title: 'x'.repeat(141) }, 'sessions_title_length'],
			['unknown platform', { platform: 'tiktok' }, 'sessions_platform_valid'],
			['unknown status', { status: 'paused' }, 'sessions_status_valid'],
			['channel with slash', { channel: 'a/b' }, 'sessions_channel_format'],
			['dot-dot channel', { channel: '..' }, 'sessions_channel_format'],
			['empty channel', { channel: '' }, 'sessions_channel_format'],
			['min boost below 50', { min_boost: 40 }, 'sessions_min_boost_valid'],
			['min boost off step', { min_boost: 55 }, 'sessions_min_boost_valid'],
			['no dares allowed', { max_dares_per_user: 0 }, 'sessions_max_dares_per_user_valid'],
			['negative free dares', { max_free_dares_per_user: -1 }, 'sessions_max_free_dares_per_user_valid'],
			['more free dares than dares', { max_dares_per_user: 2, max_free_dares_per_user: 3 }, 'sessions_max_free_dares_per_user_valid'],
			['voting below 30 s', { voting_duration: 25 }, 'sessions_voting_duration_valid'],
			['voting off step', { voting_duration: 31 }, 'sessions_voting_duration_valid'],
			['ended without ended_at', { status: 'ended' }, 'sessions_ended_at_matches_status'],
			['active with ended_at', { created_at: hourAgo, ended_at: new Date().toISOString() }, 'sessions_ended_at_matches_status'],
			[
				'ended before it started',
				{ status: 'ended', created_at: new Date().toISOString(), ended_at: hourAgo },
				'sessions_ended_after_start',
			],
		]
		for (const [label, values, constraint] of bad) {
			const error = await rejectionOf(insertSession(db, { creator_id: creator, ...values }))
			expect(error.code, label).toBe('23514')
			expect(error.constraint, label).toBe(constraint)
		}
		// The boundaries themselves are valid.
		await insertSession(db, {
			creator_id: creator,
			title: 'x'.repeat(140),
			min_boost: 50,
			max_dares_per_user: 1,
			max_free_dares_per_user: 1,
			voting_duration: 30,
			channel: 'UC_x-Y.z',
		})
	})

	test("a channel's latest session is found case-insensitively, through an index", async () => {
		const db = getDb()
		const creator = await createAuthUser(db)
		await insertSession(db, {
			creator_id: creator,
			channel: 'MiaPlays',
			status: 'ended',
			created_at: new Date(Date.now() - 7_200_000).toISOString(),
			ended_at: new Date(Date.now() - 3_600_000).toISOString(),
		})
		const latest = await insertSession(db, { creator_id: creator, channel: 'miaplays' })
		const query = `select id from public.sessions where platform = $1 and lower(channel) = lower($2) order by created_at desc limit 1`
		const { rows } = await db.query<{ id: string }>(query, ['twitch', 'MIAPLAYS'])
		expect(rows[0]?.id).toBe(latest)

		const plan = await db.transaction(async (tx) => {
			// Tiny tables are always scanned; the question is whether an index fits.
			await tx.query('set local enable_seqscan = off')
			const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`explain ${query.replace('$1', "'twitch'").replace('$2', "'x'")}`)
			return rows.map((r) => r['QUERY PLAN']).join('\n')
		})
		expect(plan).toMatch(/sessions_channel_latest_idx/)
	})
})

describeEachDatabase('creator_profiles', (getDb) => {
	test('a channel belongs to at most one creator, case-insensitively', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await db.query(`insert into public.creator_profiles (id, twitch_channel, kick_channel) values ($1, 'Mia_Plays', null)`, [a])
		const error = await rejectionOf(
			db.query(`insert into public.creator_profiles (id, twitch_channel) values ($1, 'mia_plays')`, [b]),
		)
		expect(error.code).toBe('23505')
		expect(toAppError(error)?.code).toBe('error-channel-taken')
		// Unlinked platforms (null) never collide.
		await db.query(`insert into public.creator_profiles (id, kick_channel) values ($1, 'mia_plays')`, [b])
	})

	test('channel names must be safe path segments', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		for (const channel of ['', '.', '..', '-x', 'a b', 'a/b', 'a?b', 'x'.repeat(65)]) {
			const error = await rejectionOf(
				db.query('insert into public.creator_profiles (id, youtube_channel) values ($1, $2)', [a, channel]),
			)
			expect(error.code, channel).toBe('23514')
		}
	})
})

// ---------------------------------------------------------------------------
// create_session, stop_active_session and channel linking (the functions)
// ---------------------------------------------------------------------------

const AGREEMENT = '2026-11-01'

type Start = {
	title: unknown
	minBoost: unknown
	maxDares: unknown
	maxFree: unknown
	platform: unknown
	channel: unknown
	seconds: unknown
}

const VALID: Start = { title: 'Spicy noodles', minBoost: 200, maxDares: 5, maxFree: 1, platform: 'twitch', channel: 'mia_plays', seconds: 180 }

/** A creator with a Twitch channel and the current agreement accepted. */
/** Publishes a document version as the app does at start-up; the last one published is current. */
async function publish(db: Database, kind: 'terms_of_service' | 'creator_agreement', version: string) {
	await db.query(
		`insert into public.published_documents (kind, version, published_at) values ($1, $2, clock_timestamp())
		 on conflict (kind, version) do nothing`,
		[kind, version],
	)
}

async function creator(db: Database, channel = 'mia_plays', { agreement = true } = {}): Promise<string> {
	await publish(db, 'terms_of_service', AGREEMENT)
	await publish(db, 'creator_agreement', AGREEMENT)
	const id = await createAuthUser(db)
	await db.query('select app_private.set_channel($1, $2, $3)', [id, 'twitch', channel])
	if (agreement) await db.query(`insert into public.consents (user_id, kind, version) values ($1, 'creator_agreement', $2)`, [id, AGREEMENT])
	return id
}

function start(db: Database, claims: JwtClaims | null, input: Partial<Start> = {}) {
	const v = { ...VALID, ...input }
	return asUser(db, claims, async (tx) => {
		const { rows } = await tx.query<{ id: string; channel: string; title: string; status: string; voting_duration: number }>(
			'select * from public.create_session($1, $2, $3, $4, $5, $6, $7)',
			[v.title, v.minBoost, v.maxDares, v.maxFree, v.platform, v.channel, v.seconds],
		)
		return rows[0]!
	})
}

function stop(db: Database, claims: JwtClaims | null) {
	return asUser(db, claims, async (tx) => {
		const { rows } = await tx.query<{ id: string; status: string; ended_at: Date | null }>('select * from public.stop_active_session()')
		return rows[0]!
	})
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
	const error = await rejectionOf(promise)
	return toAppError(error)?.code ?? error.code
}

async function activeCount(db: Queryable, creatorId: string): Promise<number> {
	const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from public.sessions where creator_id = $1 and status = 'active'`, [creatorId])
	return rows[0]!.n
}

async function enrolSecondFactor(db: Database, userId: string) {
	await db.query(`insert into auth.mfa_factors (id, user_id, factor_type, status) values (gen_random_uuid(), $1, 'totp', 'verified')`, [userId])
}

describeEachDatabase('create_session', (getDb) => {
	test('a creator with the agreement starts a session on their channel and gets it back', async () => {
		const db = getDb()
		const a = await creator(db, 'Mia_Plays')
		const session = await start(db, claimsFor(a), { channel: 'MIA_PLAYS', title: '  Spicy noodles  ' })
		// Stored on the channel as linked, with the title trimmed.
		expect(session).toMatchObject({ status: 'active', channel: 'Mia_Plays', title: 'Spicy noodles', voting_duration: 180 })
		const { rows } = await db.query('select creator_id, min_boost, max_dares_per_user, max_free_dares_per_user from public.sessions where id = $1', [session.id])
		expect(rows).toEqual([{ creator_id: a, min_boost: 200, max_dares_per_user: 5, max_free_dares_per_user: 1 }])
	})

	test('each setting is accepted at its edges and refused beyond them', async () => {
		const db = getDb()
		const a = await creator(db)
		const refused: Array<[Partial<Start>, string]> = [
			[{ title: '' }, 'error-title-required'],
			[{ title: '   ' }, 'error-title-required'],
			[{ title: null }, 'error-title-required'],
			[{ title: 'x'.repeat(SESSION_LIMITS.title.max + 1) }, 'error-title-too-long'],
			[{ minBoost: 40 }, 'error-invalid-min-boost'],
			[{ minBoost: 55 }, 'error-invalid-min-boost'],
			[{ minBoost: SESSION_LIMITS.minBoost.max + SESSION_LIMITS.minBoost.step }, 'error-invalid-min-boost'],
			[{ minBoost: null }, 'error-invalid-min-boost'],
			[{ maxDares: 0 }, 'error-invalid-max-dares-per-user'],
			[{ maxDares: SESSION_LIMITS.maxDaresPerUser.max + 1 }, 'error-invalid-max-dares-per-user'],
			[{ maxDares: -5 }, 'error-invalid-max-dares-per-user'],
			[{ maxFree: -1 }, 'error-invalid-max-free-dares-per-user'],
			[{ maxDares: 3, maxFree: 4 }, 'error-invalid-max-free-dares-per-user'],
			[{ maxFree: null }, 'error-invalid-max-free-dares-per-user'],
			[{ seconds: 25 }, 'error-invalid-voting-duration'],
			[{ seconds: 31 }, 'error-invalid-voting-duration'],
			[{ seconds: SESSION_LIMITS.votingDuration.max + SESSION_LIMITS.votingDuration.step }, 'error-invalid-voting-duration'],
			[{ platform: 'tiktok' }, 'error-invalid-platform'],
			[{ platform: null }, 'error-invalid-platform'],
		]
		for (const [input, code] of refused) {
			expect(await codeOf(start(db, claimsFor(a), input)), JSON.stringify(input)).toBe(code)
		}
		expect(await activeCount(db, a)).toBe(0)

		// The lower edges, then the upper ones.
		await start(db, claimsFor(a), { title: 'x', minBoost: 50, maxDares: 1, maxFree: 0, seconds: 30 })
		await stop(db, claimsFor(a))
		await start(db, claimsFor(a), { title: 'é'.repeat(140), minBoost: 100_000, maxDares: 100, maxFree: 100, seconds: 3600 })
		expect(await activeCount(db, a)).toBe(1)
	})

	test('non-numeric settings are refused by the database, not coerced', async () => {
		const db = getDb()
		const a = await creator(db)
		const error = await rejectionOf(start(db, claimsFor(a), { minBoost: '200.5' }))
		expect(error.code).toBe('22P02')
		const overflow = await rejectionOf(start(db, claimsFor(a), { seconds: 2 ** 31 }))
		expect(overflow.code).toBe('22003')
	})

	test('a user without a linked channel is told they must be a creator', async () => {
		const db = getDb()
		const viewer = await createAuthUser(db)
		await db.query(`insert into public.consents (user_id, kind, version) values ($1, 'creator_agreement', $2)`, [viewer, AGREEMENT])
		expect(await codeOf(start(db, claimsFor(viewer)))).toBe('error-not-a-creator')
		// Even with an invalid title: being a creator is checked first.
		expect(await codeOf(start(db, claimsFor(viewer), { title: '' }))).toBe('error-not-a-creator')
	})

	test('the channel must be the caller\'s own on the chosen platform', async () => {
		const db = getDb()
		const a = await creator(db, 'mia_plays')
		await creator(db, 'other_chan')
		expect(await codeOf(start(db, claimsFor(a), { platform: 'kick', channel: 'mia_plays' }))).toBe('error-no-channel-on-platform')
		expect(await codeOf(start(db, claimsFor(a), { channel: 'other_chan' }))).toBe('error-no-channel-on-platform')
		expect(await codeOf(start(db, claimsFor(a), { channel: null }))).toBe('error-no-channel-on-platform')
		expect(await codeOf(start(db, claimsFor(a), { channel: "mia_plays' or '1'='1" }))).toBe('error-no-channel-on-platform')
		expect(await activeCount(db, a)).toBe(0)
	})

	test('the current creator agreement is required; an older version does not count', async () => {
		const db = getDb()
		const a = await creator(db, 'mia_plays', { agreement: false })
		expect(await codeOf(start(db, claimsFor(a)))).toBe('error-creator-agreement-required')
		await db.query(`insert into public.consents (user_id, kind, version) values ($1, 'creator_agreement', '2025-01-01')`, [a])
		expect(await codeOf(start(db, claimsFor(a)))).toBe('error-creator-agreement-required')
		// Accepting the terms of service is not accepting the agreement.
		await db.query(`insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', $2)`, [a, AGREEMENT])
		expect(await codeOf(start(db, claimsFor(a)))).toBe('error-creator-agreement-required')
		await asUser(db, claimsFor(a), (tx) => tx.query(`select public.give_consent('creator_agreement', $1)`, [AGREEMENT]))
		await start(db, claimsFor(a))
	})

	test('a newly published agreement version must be accepted again', async () => {
		const db = getDb()
		const a = await creator(db)
		await publish(db, 'creator_agreement', '2027-01-01')
		expect(await codeOf(start(db, claimsFor(a)))).toBe('error-creator-agreement-required')
		await asUser(db, claimsFor(a), (tx) => tx.query(`select public.give_consent('creator_agreement', '2027-01-01')`))
		await start(db, claimsFor(a))
	})

	test('one active session per creator, even when two starts race', async () => {
		const db = getDb()
		const a = await creator(db)
		const results = await Promise.allSettled([start(db, claimsFor(a)), start(db, claimsFor(a)), start(db, claimsFor(a))])
		expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
		for (const r of results) {
			if (r.status === 'rejected') expect(toAppError(r.reason)?.code).toBe('error-session-already-active')
		}
		expect(await activeCount(db, a)).toBe(1)
		expect(await codeOf(start(db, claimsFor(a)))).toBe('error-session-already-active')
	})

	test('one active session per channel: a channel handed to another creator stays taken while live', async () => {
		const db = getDb()
		const a = await creator(db, 'shared_chan')
		const b = await creator(db, 'b_chan')
		await start(db, claimsFor(a), { channel: 'shared_chan' })
		// A session left on the channel (a demo row, an operator's insert) still blocks it.
		await db.query(`update public.creator_profiles set twitch_channel = null, kick_channel = 'a_kick' where id = $1`, [a])
		await db.query(`update public.creator_profiles set twitch_channel = 'SHARED_CHAN' where id = $1`, [b])
		expect(await codeOf(start(db, claimsFor(b), { channel: 'shared_chan' }))).toBe('error-channel-already-live')
	})

	test('aal1 is refused for a creator with a verified second factor, aal2 is accepted', async () => {
		const db = getDb()
		const a = await creator(db)
		await enrolSecondFactor(db, a)
		expect(await codeOf(start(db, claimsFor(a, { aal: 'aal1' })))).toBe('error-aal2-required')
		expect(await codeOf(start(db, claimsFor(a)))).toBe('error-aal2-required')
		await start(db, claimsFor(a, { aal: 'aal2' }))
		expect(await codeOf(stop(db, claimsFor(a, { aal: 'aal1' })))).toBe('error-aal2-required')
		expect(await activeCount(db, a)).toBe(1)
	})

	test('visitors cannot call it, and nobody can write sessions directly', async () => {
		const db = getDb()
		const a = await creator(db)
		expect((await rejectionOf(start(db, null))).code).toBe('42501')
		expect((await rejectionOf(stop(db, null))).code).toBe('42501')
		// A forged claim set without a user is no caller.
		expect(
			await codeOf(
				asUser(db, null, async (tx) => {
					await tx.query(`select set_config('role', 'authenticated', true)`)
					return tx.query(`select public.create_session('t', 200, 5, 1, 'twitch', 'mia_plays', 180)`)
				}),
			),
		).toBe('error-not-authenticated')
		for (const sql of [
			`insert into public.sessions (creator_id, title, platform, channel) values ('${a}', 't', 'twitch', 'mia_plays')`,
			`update public.sessions set status = 'ended', ended_at = now()`,
			`delete from public.sessions`,
		]) {
			expect((await rejectionOf(asUser(db, claimsFor(a), (tx) => tx.query(sql)))).code, sql).toBe('42501')
		}
		// The helpers in app_private are not callable by the API roles.
		for (const sql of [
			`select app_private.set_channel('${a}', 'twitch', 'stolen')`,
			`select app_private.twitch_login('${a}')`,
			`select app_private.current_document_version('creator_agreement')`,
		]) {
			expect((await rejectionOf(asUser(db, claimsFor(a), (tx) => tx.query(sql)))).code, sql).toBe('42501')
		}
	})
})

describeEachDatabase('stop_active_session', (getDb) => {
	test('the creator stops their live session: ended, with its end time; the channel is free again', async () => {
		const db = getDb()
		const a = await creator(db)
		const started = await start(db, claimsFor(a))
		const stopped = await stop(db, claimsFor(a))
		expect(stopped.id).toBe(started.id)
		expect(stopped.status).toBe('ended')
		expect(stopped.ended_at).toBeInstanceOf(Date)
		expect(await codeOf(stop(db, claimsFor(a)))).toBe('error-no-active-session')
		await start(db, claimsFor(a))
	})

	test("nobody stops another creator's session", async () => {
		const db = getDb()
		const a = await creator(db, 'a_chan')
		const b = await creator(db, 'b_chan')
		const viewer = await createAuthUser(db)
		await start(db, claimsFor(a), { channel: 'a_chan' })
		expect(await codeOf(stop(db, claimsFor(b)))).toBe('error-no-active-session')
		expect(await codeOf(stop(db, claimsFor(viewer)))).toBe('error-not-a-creator')
		// A forged sub of the creator is the creator: the JWT is what proves it, which the app verifies.
		expect(await activeCount(db, a)).toBe(1)
	})
})

describeEachDatabase('channel linking', (getDb) => {
	async function twitchIdentity(db: Queryable, userId: string, login: string) {
		await db.query(
			`insert into auth.identities (provider_id, user_id, provider, identity_data, created_at, updated_at)
			 values ($1, $2, 'twitch', $3, now(), now())`,
			[`tw-${login}`, userId, JSON.stringify({ sub: `tw-${login}`, name: login, full_name: login })],
		)
	}
	async function channels(db: Queryable, userId: string) {
		const { rows } = await db.query('select twitch_channel, youtube_channel, kick_channel from public.creator_profiles where id = $1', [userId])
		return rows[0] ?? null
	}

	test('a Twitch identity links its channel, unless another creator has it', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await twitchIdentity(db, a, 'Mia_Plays')
		expect(await channels(db, a)).toEqual({ twitch_channel: 'Mia_Plays', youtube_channel: null, kick_channel: null })
		// The same login on a second account does not take the channel (and does not fail the sign-in).
		await db.query(`insert into auth.identities (provider_id, user_id, provider, identity_data) values ('x', $1, 'twitch', '{"name": "mia_plays"}')`, [b])
		expect(await channels(db, b)).toBeNull()
		// A login that is no channel name is ignored too.
		await db.query(`update auth.identities set identity_data = '{"name": "../etc"}' where provider_id = 'x'`)
		expect(await channels(db, b)).toBeNull()
	})

	test('Better Auth Twitch accounts are mirrored as identities on the local platform', async () => {
		const db = getDb()
		const { rows } = await db.query<{ id: string }>(
			`insert into better_auth."user" (id, name, email, "emailVerified", "updatedAt") values (gen_random_uuid(), 'm', 'm@test.local', true, now()) returning id`,
		)
		const id = rows[0]!.id
		await db.query(
			`insert into better_auth."account" (id, "accountId", "providerId", "userId", "updatedAt", "providerLogin") values (gen_random_uuid(), '123', 'twitch', $1, now(), 'streamer_one')`,
			[id],
		)
		expect(await channels(db, id)).toMatchObject({ twitch_channel: 'streamer_one' })
		const identity = await db.query(`select provider, provider_id, identity_data ->> 'name' as login from auth.identities where user_id = $1`, [id])
		expect(identity.rows).toEqual([{ provider: 'twitch', provider_id: '123', login: 'streamer_one' }])
		await db.query(`delete from better_auth."account" where "userId" = $1`, [id])
		expect((await db.query('select 1 from auth.identities where user_id = $1', [id])).rows).toHaveLength(0)
	})

	test('a user links their Twitch channel by hand and unlinks it; with no channel left they are no creator', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		expect(await codeOf(asUser(db, claimsFor(a), (tx) => tx.query('select public.link_twitch_channel()')))).toBe('error-no-twitch-identity')
		await twitchIdentity(db, a, 'mia_plays')
		await asUser(db, claimsFor(a), (tx) => tx.query(`select public.unlink_channel('twitch')`))
		expect(await channels(db, a)).toBeNull()
		await asUser(db, claimsFor(a), (tx) => tx.query('select public.link_twitch_channel()'))
		expect(await channels(db, a)).toMatchObject({ twitch_channel: 'mia_plays' })
		expect(await codeOf(asUser(db, claimsFor(a), (tx) => tx.query(`select public.unlink_channel('myspace')`)))).toBe('error-invalid-platform')
	})

	test('a live channel cannot be unlinked until its session is stopped', async () => {
		const db = getDb()
		const a = await creator(db)
		await start(db, claimsFor(a))
		expect(await codeOf(asUser(db, claimsFor(a), (tx) => tx.query(`select public.unlink_channel('twitch')`)))).toBe('error-channel-in-use')
		// Another platform's channel is not live and may go.
		await db.query('select app_private.set_channel($1, $2, $3)', [a, 'kick', 'mia_kick'])
		await asUser(db, claimsFor(a), (tx) => tx.query(`select public.unlink_channel('kick')`))
		await stop(db, claimsFor(a))
		await asUser(db, claimsFor(a), (tx) => tx.query(`select public.unlink_channel('twitch')`))
		expect(await channels(db, a)).toBeNull()
	})

	test('linking needs the second factor when one is enrolled, and visitors cannot link', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		await twitchIdentity(db, a, 'mia_plays')
		await enrolSecondFactor(db, a)
		expect(await codeOf(asUser(db, claimsFor(a), (tx) => tx.query(`select public.unlink_channel('twitch')`)))).toBe('error-aal2-required')
		expect(await codeOf(asUser(db, claimsFor(a), (tx) => tx.query('select public.link_twitch_channel()')))).toBe('error-aal2-required')
		for (const sql of ['select public.link_twitch_channel()', `select public.unlink_channel('twitch')`]) {
			expect((await rejectionOf(asUser(db, null, (tx) => tx.query(sql)))).code, sql).toBe('42501')
		}
		expect(await channels(db, a)).toMatchObject({ twitch_channel: 'mia_plays' })
	})

	test('the operator link refuses a channel another creator has, and bad names', async () => {
		const db = getDb()
		const a = await creator(db, 'taken_chan')
		const b = await createAuthUser(db)
		const error = await rejectionOf(db.query('select app_private.set_channel($1, $2, $3)', [b, 'twitch', 'TAKEN_CHAN']))
		expect(toAppError(error)?.code).toBe('error-channel-taken')
		expect(await codeOf(db.query('select app_private.set_channel($1, $2, $3)', [b, 'twitch', '../x']))).toBe('error-invalid-channel')
		expect(await codeOf(db.query('select app_private.set_channel($1, $2, $3)', [b, 'vimeo', 'x']))).toBe('error-invalid-platform')
		expect(await channels(db, b)).toBeNull()
		expect(await channels(db, a)).toMatchObject({ twitch_channel: 'taken_chan' })
	})
})
