import { expect, test } from 'vitest'
import { asUser } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { claimsFor, describeEachDatabase, rejectionOf } from '#tests/support/databases'
import { liveSession, participant } from '#tests/support/dares'
import { randomUUID } from 'node:crypto'

/**
 * The OBS overlay's key (docs/product.md §5.7), as the API roles
 * meet it: only the session's creator reads or replaces it; anyone may ask
 * whether a key is right, and only the current key is; the table itself is
 * out of everyone's reach.
 */

const keyOf = (db: Database, userId: string | null, sessionId: string) =>
	asUser(db, userId ? claimsFor(userId) : null, async (tx) => (await tx.query<{ key: string }>('select public.overlay_key($1) as key', [sessionId])).rows[0]!.key)
const regenerate = (db: Database, userId: string, sessionId: string) =>
	asUser(db, claimsFor(userId), async (tx) => (await tx.query<{ key: string }>('select public.regenerate_overlay_key($1) as key', [sessionId])).rows[0]!.key)
const valid = (db: Database, sessionId: string, key: string | null) =>
	asUser(db, null, async (tx) => (await tx.query<{ ok: boolean }>('select public.overlay_key_valid($1, $2) as ok', [sessionId, key])).rows[0]!.ok)

describeEachDatabase('overlay', (getDb) => {
	test('the creator gets one key per session, the same until replaced; replacing turns the old one off', async () => {
		const db = getDb()
		await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: 'v1' })
		const session = await liveSession(db)
		const key = await keyOf(db, session.creator, session.id)
		expect(key).toMatch(/^[0-9a-f]{64}$/)
		expect(await keyOf(db, session.creator, session.id)).toBe(key)
		expect(await valid(db, session.id, key)).toBe(true)
		const next = await regenerate(db, session.creator, session.id)
		expect(next).not.toBe(key)
		expect(await valid(db, session.id, key)).toBe(false)
		expect(await valid(db, session.id, next)).toBe(true)
	})

	test('attack: nobody but the creator reads or replaces the key; a key opens only its own session', async () => {
		const db = getDb()
		await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: 'v1' })
		const session = await liveSession(db)
		const other = await liveSession(db)
		const viewer = await participant(db)
		const key = await keyOf(db, session.creator, session.id)
		expect((await rejectionOf(keyOf(db, viewer, session.id))).message).toBe('error-not-session-creator')
		expect((await rejectionOf(keyOf(db, other.creator, session.id))).message).toBe('error-not-session-creator')
		expect((await rejectionOf(regenerate(db, viewer, session.id))).message).toBe('error-not-session-creator')
		// A visitor may not even call them.
		const denied = await keyOf(db, null, session.id).then(
			() => null,
			(e: unknown) => (e as { code?: string }).code,
		)
		expect(denied).toBe('42501')
		expect(await valid(db, other.id, key)).toBe(false)
		for (const wrong of [null, '', key.toUpperCase(), key.slice(1), `${key}0`, "' or true --"]) expect(await valid(db, session.id, wrong)).toBe(false)
		for (const claims of [null, claimsFor(viewer)]) {
			const read = await asUser(db, claims, (tx) => tx.query('select * from app_private.overlay_keys')).then(
				() => null,
				(e: unknown) => (e as { code?: string }).code,
			)
			expect(read).toBe('42501')
		}
	})

	test("the session's top boosters: most coins first, shown dares only, given-back boosts left out, at most ten", async () => {
		const db = getDb()
		await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: 'v1' })
		const session = await liveSession(db, { min_boost: 50, max_free_dares_per_user: 5 })
		const [ann, bob, cem] = [await participant(db, 1000), await participant(db, 1000), await participant(db, 1000)]
		const create = (author: string, reward: number) =>
			asUser(db, claimsFor(author), async (tx) => (await tx.query<{ id: string }>('select id from public.create_dare($1, $2, $3, $4)', ['Sing the chorus backwards', session.id, reward, randomUUID()])).rows[0]!.id)
		const boost = (user: string, dare: string, amount: number) =>
			asUser(db, claimsFor(user), (tx) => tx.query('select 1 from public.boost_dare($1, $2, $3)', [dare, amount, randomUUID()]))
		const first = await create(ann, 100)
		const second = await create(bob, 50)
		await boost(cem, first, 300)
		await boost(ann, second, 50)
		const top = (limit: number) =>
			asUser(db, null, async (tx) => (await tx.query<{ username: string; coins: string }>('select * from public.session_top_boosters($1, $2)', [session.id, limit])).rows.map((r) => [r.username, Number(r.coins)]))
		const name = async (id: string) => (await db.query<{ username: string }>('select username from public.profiles where id = $1', [id])).rows[0]!.username
		expect(await top(10)).toEqual([[await name(cem), 300], [await name(ann), 150], [await name(bob), 50]])
		expect(await top(1)).toEqual([[await name(cem), 300]])
		// The creator bans cem: their boost goes back and leaves the list.
		await asUser(db, claimsFor(session.creator), (tx) => tx.query('select public.ban_viewer($1)', [cem]))
		expect(await top(10)).toEqual([[await name(ann), 150], [await name(bob), 50]])
		// A rejected dare's boosts went back: they leave the list too.
		await asUser(db, claimsFor(session.creator), (tx) => tx.query('select public.reject_dare($1, $2)', [second, randomUUID()]))
		expect(await top(10)).toEqual([[await name(ann), 100]])
	})
})
