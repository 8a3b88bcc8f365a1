import type { Queryable } from '#app/db/database.server'
import type { SessionRecap } from './recap'

/** How many top fans a recap names. */
export const RECAP_TOP_FANS = 3

type RecapRow = { id: string; earned: string | number; completed: number; failed: number; refunded: number }
type FanRow = { id: string; username: string; coins: string | number }

/**
 * The recaps of the viewer's own sessions among `sessionIds`, by id
 * (docs/product.md §5.8): public.session_recap answers the session's creator
 * only and nobody else gets a row, so a session missing from the answer is
 * not the viewer's. Each with its top fans (public.session_top_boosters).
 * Two statements, whatever the number of sessions.
 */
export async function readRecaps(tx: Queryable, sessionIds: string[]): Promise<Record<string, SessionRecap>> {
	if (sessionIds.length === 0) return {}
	const { rows } = await tx.query<RecapRow>(
		`select s.id, r.earned, r.completed, r.failed, r.refunded
		 from unnest($1::uuid[]) with ordinality as s(id, n)
		 cross join lateral public.session_recap(s.id) r
		 order by s.n`,
		[sessionIds],
	)
	if (rows.length === 0) return {}
	const fans = await tx.query<FanRow>(
		`select s.id, f.username, f.coins
		 from unnest($1::uuid[]) with ordinality as s(id, n)
		 cross join lateral public.session_top_boosters(s.id, $2) with ordinality as f(username, coins, rank)
		 order by s.n, f.rank`,
		[rows.map((row) => row.id), RECAP_TOP_FANS],
	)
	const recaps: Record<string, SessionRecap> = {}
	for (const row of rows) {
		recaps[row.id] = { earned: Number(row.earned), completed: row.completed, failed: row.failed, refunded: row.refunded, topFans: [] }
	}
	for (const fan of fans.rows) recaps[fan.id]?.topFans.push({ username: fan.username, coins: Number(fan.coins) })
	return recaps
}
