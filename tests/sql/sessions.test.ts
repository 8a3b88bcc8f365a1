import { expect, test } from 'vitest'
import type { Database } from '#app/db/database.server'
import { toAppError } from '#app/db/database.server'
import { createAuthUser, describeEachDatabase, rejectionOf } from '#tests/support/databases'

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
	test("defaults are the spec's start-session defaults", async () => {
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
