import { randomUUID } from 'node:crypto'
import { asUser } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { claimsFor, createAuthUser } from './databases'
import { fundWallet } from './wallet'

/** People and live sessions for the tests of the dares and what is built on them. */
export type Session = { id: string; creator: string }

export async function participant(db: Queryable, coins = 0): Promise<string> {
	const id = await createAuthUser(db)
	await db.query(`insert into public.profiles (id, username) values ($1, $2)`, [id, `u${id.slice(0, 8)}`])
	await db.query(
		`insert into public.consents (user_id, kind, version) values ($1, 'terms_of_service', app_private.current_document_version('terms_of_service'))`,
		[id],
	)
	if (coins > 0) await fundWallet(db, id, coins)
	return id
}

export async function liveSession(db: Queryable, settings: Partial<Record<'min_boost' | 'max_dares_per_user' | 'max_free_dares_per_user' | 'voting_duration', number>> = {}): Promise<Session> {
	const creator = await participant(db)
	const row = { creator_id: creator, title: 'Live', platform: 'twitch', channel: `c_${randomUUID().slice(0, 8)}`, ...settings }
	const columns = Object.keys(row)
	const { rows } = await db.query<{ id: string }>(
		`insert into public.sessions (${columns.join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
		Object.values(row),
	)
	return { id: rows[0]!.id, creator }
}


/**
 * `count` free dares in a session: written five by five (an author's limit
 * a minute, docs/product.md §13.6) by as many authors as that needs, in
 * order; their ids.
 */
export async function manyDares(db: Database, sessionId: string, count: number, description = (i: number) => `Dare number ${i}`): Promise<string[]> {
	const ids: string[] = []
	while (ids.length < count) {
		const author = await participant(db)
		const batch = Math.min(5, count - ids.length)
		await asUser(db, claimsFor(author), async (tx) => {
			for (let i = 0; i < batch; i++) {
				const { rows } = await tx.query<{ id: string }>('select id from public.create_dare($1, $2, 0, $3)', [description(ids.length), sessionId, randomUUID()])
				ids.push(rows[0]!.id)
			}
		})
	}
	return ids
}
