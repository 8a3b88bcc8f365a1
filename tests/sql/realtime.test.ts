import { expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import type { JwtClaims } from '#app/db/as-user.server'
import { randomUUID } from 'node:crypto'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { maintainMessagePartitions } from '#app/modules/realtime/partitions.server'
import { claimsFor, createAuthUser, describeEachDatabase } from '#tests/support/databases'
import { liveSession, participant } from '#tests/support/dares'

/**
 * Whether `claims` may receive broadcasts on `topic`, decided the way Supabase
 * Realtime decides it when a client joins a private channel
 * (Realtime.Tenants.Authorization): insert a probe message for the topic
 * with the service connection, then, as the user with realtime.topic set, see
 * whether that row is visible. Rolled back either way.
 */
async function canReceive(
	db: Database,
	claims: JwtClaims | null,
	topic: string,
	extension: 'broadcast' | 'presence' = 'broadcast',
): Promise<boolean> {
	const rollback = new Error('rollback')
	let visible = false
	await db
		.transaction(async (tx) => {
			const { rows } = await tx.query<{ id: string }>(
				'insert into realtime.messages (topic, extension) values ($1, $2) returning id',
				[topic, extension],
			)
			await tx.query(
				"select set_config('role', $1, true), set_config('realtime.topic', $2, true), set_config('request.jwt.claims', $3, true)",
				[claims ? 'authenticated' : 'anon', topic, JSON.stringify(claims ?? { role: 'anon' })],
			)
			const seen = await tx.query('select id from realtime.messages where topic = $1 and id = $2', [topic, rows[0]?.id])
			visible = seen.rows.length === 1
			throw rollback
		})
		.catch((error: unknown) => {
			if (error !== rollback) throw error
		})
	return visible
}

describeEachDatabase('realtime', (getDb) => {
	test('realtime.send() stores a private broadcast and sets realtime.topic, as on Supabase', async () => {
		const db = getDb()
		const { rows } = await db.transaction(async (tx) => {
			await tx.query(`select realtime.send('{"balance": 700}'::jsonb, 'balance', 'wallets_x')`)
			return tx.query<{ topic: string; in_tx: string }>(`select realtime.topic() as topic, current_setting('realtime.topic') as in_tx`)
		})
		expect(rows).toEqual([{ topic: 'wallets_x', in_tx: 'wallets_x' }])

		const stored = await db.query<{ topic: string; event: string; extension: string; private: boolean; payload: Record<string, unknown>; id: string }>(
			'select topic, event, extension, private, payload, id from realtime.messages',
		)
		expect(stored.rows).toHaveLength(1)
		const message = stored.rows[0]
		expect(message).toMatchObject({ topic: 'wallets_x', event: 'balance', extension: 'broadcast', private: true })
		// Supabase adds the message id to the payload (clients de-duplicate on it).
		expect(message?.payload).toEqual({ balance: 700, id: message?.id })
	})

	test('a broadcast sent in a transaction that rolls back is never stored', async () => {
		const db = getDb()
		await db
			.transaction(async (tx) => {
				await tx.query(`select realtime.send('{}'::jsonb, 'e', 'wallets_x', false)`)
				throw new Error('abort')
			})
			.catch(() => {})
		expect((await db.query('select * from realtime.messages')).rows).toEqual([])
	})

	test('realtime.send() by a user without an insert policy stores nothing and does not fail, as on Supabase', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		// Supabase downgrades a failed send to a WARNING so the sender's
		// transaction goes on; broadcasts must come from definer-rights code.
		await asUser(db, claimsFor(a), (tx) => tx.query(`select realtime.send('{}'::jsonb, 'balance', $1)`, [`wallets_${a}`]))
		expect((await db.query('select * from realtime.messages')).rows).toEqual([])
	})

	test('only user X may receive on wallets_X', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		expect(await canReceive(db, claimsFor(a), `wallets_${a}`)).toBe(true)
		expect(await canReceive(db, claimsFor(b), `wallets_${b}`)).toBe(true)
		expect(await canReceive(db, claimsFor(a), `wallets_${b}`)).toBe(false)
		expect(await canReceive(db, null, `wallets_${a}`)).toBe(false)
		// Only broadcast: presence on a wallet topic is not granted.
		expect(await canReceive(db, claimsFor(a), `wallets_${a}`, 'presence')).toBe(false)
		// Other topics are not opened by this policy.
		expect(await canReceive(db, claimsFor(a), `session_updates_${a}`)).toBe(false)
	})

	test("joined to their own wallet topic, a user still cannot read another wallet's stored broadcasts", async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		await db.query(`select realtime.send('{"balance": 1}'::jsonb, 'balance', $1)`, [`wallets_${b}`])
		const { rows } = await asUser(db, claimsFor(a), async (tx) => {
			await tx.query("select set_config('realtime.topic', $1, true)", [`wallets_${a}`])
			return tx.query(`select * from realtime.messages where topic = $1`, [`wallets_${b}`])
		})
		expect(rows).toEqual([])
	})

	test('anyone who may see a session, visitors included, may receive on session_updates_{id}; nothing else opens', async () => {
		const db = getDb()
		const a = await createAuthUser(db)
		const b = await createAuthUser(db)
		const { rows } = await db.query<{ id: string }>(
			`insert into public.sessions (creator_id, title, platform, channel) values ($1, 't', 'twitch', 'mia_plays') returning id`,
			[a],
		)
		const id = rows[0]!.id
		expect(await canReceive(db, claimsFor(a), `session_updates_${id}`)).toBe(true)
		expect(await canReceive(db, claimsFor(b), `session_updates_${id}`)).toBe(true)
		expect(await canReceive(db, null, `session_updates_${id}`)).toBe(true)
		expect(await canReceive(db, null, `session_updates_${id}`, 'presence')).toBe(false)
		// A session that does not exist, or a topic that is no session id, is refused without an error.
		expect(await canReceive(db, null, 'session_updates_00000000-0000-4000-8000-000000000000')).toBe(false)
		expect(await canReceive(db, null, 'session_updates_not-a-uuid')).toBe(false)
		expect(await canReceive(db, null, `session_updates_${id}x`)).toBe(false)
		// The session policy opens no wallet topic to visitors.
		expect(await canReceive(db, null, `wallets_${a}`)).toBe(false)
	})

	test('a committed dare, boost, vote or stop marks its session once per statement; a rolled-back one marks nothing', async () => {
		const db = getDb()
		await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: 'v1' })
		const session = await liveSession(db)
		const viewer = await participant(db, 1000)
		const marks = async () => (await db.query<{ n: number }>('select count(*)::int as n from app_private.realtime_marks where topic = $1', [`session_updates_${session.id}`])).rows[0]!.n
		const dareId = await asUser(db, claimsFor(viewer), async (tx) => {
			const { rows } = await tx.query<{ id: string }>('select id from public.create_dare($1, $2, $3, $4)', ['Juggle three oranges', session.id, 0, randomUUID()])
			return rows[0]!.id
		})
		const afterCreate = await marks()
		expect(afterCreate).toBeGreaterThan(0)
		await asUser(db, claimsFor(viewer), (tx) => tx.query('select public.boost_dare($1, 100, $2)', [dareId, randomUUID()]))
		expect(await marks()).toBeGreaterThan(afterCreate)
		const before = await marks()
		const rollback = new Error('rollback')
		await asUser(db, claimsFor(viewer), async (tx) => {
			await tx.query('select public.boost_dare($1, 100, $2)', [dareId, randomUUID()])
			throw rollback
		}).catch((error: unknown) => {
			if (error !== rollback) throw error
		})
		expect(await marks()).toBe(before)
	})

	test('the marks are private: neither visitors nor users can read, write or delete them', async () => {
		const db = getDb()
		const user = await createAuthUser(db)
		for (const claims of [null, claimsFor(user)]) {
			for (const sql of [
				'select * from app_private.realtime_marks',
				`insert into app_private.realtime_marks (topic) values ('wallets_${randomUUID()}')`,
				'delete from app_private.realtime_marks',
				'select app_private.mark_sessions()',
			]) {
				const error = await asUser(db, claims, (tx) => tx.query(sql)).then(
					() => null,
					(e: unknown) => e as { code?: string },
				)
				expect(error?.code, sql).toBe('42501')
			}
		}
	})

	test("realtime.messages keeps a partition per day from yesterday to three days ahead, and no default one, as Supabase's server does", async () => {
		const db = getDb()
		const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
		expect(await partitions(db)).toEqual([-1, 0, 1, 2, 3].map((offset) => `messages_${day(offset).replaceAll('-', '_')}`))
		// A message for a day without a partition has nowhere to go.
		const error = await db
			.query(`insert into realtime.messages (topic, extension, inserted_at) values ('wallets_x', 'broadcast', $1::timestamp)`, [`${day(10)} 12:00`])
			.then(
				() => null,
				(e: unknown) => e as { code?: string },
			)
		expect(error?.code).toBe('23514')
		// Nobody reaches a partition directly, around the parent's policies.
		const user = await createAuthUser(db)
		for (const claims of [null, claimsFor(user)]) {
			const denied = await asUser(db, claims, (tx) => tx.query(`select * from realtime.messages_${day(0).replaceAll('-', '_')}`)).then(
				() => null,
				(e: unknown) => e as { code?: string },
			)
			expect(denied?.code).toBe('42501')
		}
	})

	test('days later, the janitor drops the partitions older than 72 hours and adds the days ahead; a broadcast without a partition is lost, not an error', async () => {
		const db = getDb()
		await db.query(`select realtime.send('{"balance": 1}'::jsonb, 'balance', 'wallets_x')`)
		const later = new Date(Date.now() + 5 * 86_400_000)
		const changes = await maintainMessagePartitions(db, later)
		const day = (offset: number) => `messages_${new Date(later.getTime() + offset * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '_')}`
		// Today's is now older than 72 hours (five days): dropped with its message.
		expect(changes.dropped).toContain(`messages_${new Date().toISOString().slice(0, 10).replaceAll('-', '_')}`)
		expect(changes.created).toEqual([day(-1), day(0), day(1), day(2), day(3)])
		// Kept: the days from 72 hours before `later` on.
		expect(await partitions(db)).toEqual([day(-3), day(-2), day(-1), day(0), day(1), day(2), day(3)])
		expect((await db.query('select * from realtime.messages')).rows).toEqual([])
		// Today has no partition any more: realtime.send warns, stores nothing, and the sender's transaction goes on.
		const { rows } = await db.transaction(async (tx) => {
			await tx.query(`select realtime.send('{"balance": 2}'::jsonb, 'balance', 'wallets_x')`)
			return tx.query<{ ok: number }>('select 1 as ok')
		})
		expect(rows).toEqual([{ ok: 1 }])
		expect((await db.query('select * from realtime.messages')).rows).toEqual([])
		// Run again, nothing changes.
		expect(await maintainMessagePartitions(db, later)).toEqual({ created: [], dropped: [] })
	})
})

/** realtime.messages' partitions, by name. */
async function partitions(db: Database): Promise<string[]> {
	const { rows } = await db.query<{ name: string }>(
		`select child.relname as name from pg_catalog.pg_inherits i
		join pg_catalog.pg_class child on child.oid = i.inhrelid
		where i.inhparent = 'realtime.messages'::regclass
		order by 1`,
	)
	return rows.map((row) => row.name)
}
