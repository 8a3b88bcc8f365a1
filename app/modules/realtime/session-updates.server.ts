import { asUser } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { readSessionDares } from '#app/modules/dares/service.server'
import { getSessionById } from '#app/modules/sessions/service.server'

/**
 * `session_updates_{sessionId}` (spec section 7: `{updatedKeys, sessionData}`).
 * The money transactions mark the sessions they touch in
 * app_private.session_marks (a row per session and statement, see the
 * realtime_marks migration); this reads the marks past its cursor every
 * `intervalMs`, coalesces them per session and publishes one complete
 * update per session and batch, after the changes committed and never from
 * inside them. Each update carries `seq`, the last mark it covers (rising;
 * gaps are normal, since marks of other sessions share the sequence). Every
 * instance reads the same marks, so a boost through one reaches the
 * subscribers of all.
 *
 * `publish` is the platform's: the local relay's broadcast, or
 * realtime.send on Supabase. `wanted` limits the work to the sessions someone
 * listens to (the local relay knows; on Supabase every marked session is sent).
 */
export const SESSION_UPDATE_INTERVAL_MS = 250
/** Marks older than this are deleted (every instance has read them by then). */
const MARK_RETENTION = '1 minute'

export type SessionUpdate = {
	updatedKeys: ['session', 'dares']
	sessionData: { session: unknown; dares: unknown }
	seq: number
}

export interface SessionUpdatesOptions {
	db: Database
	publish(topic: string, update: SessionUpdate): Promise<void> | void
	wanted?(): Set<string> | null
	intervalMs?: number
	log?: (line: string) => void
}

export const sessionTopic = (sessionId: string) => `session_updates_${sessionId}`

/** The update a visitor's page would show: the session and its dares as `anon` reads them. */
export async function sessionUpdate(db: Database, sessionId: string, seq: number): Promise<SessionUpdate | null> {
	return asUser(db, null, async (tx) => {
		const session = await getSessionById(tx, sessionId)
		if (!session) return null
		return { updatedKeys: ['session', 'dares'], sessionData: { session, dares: await readSessionDares(tx, sessionId) }, seq }
	})
}

export async function startSessionUpdates({ db, publish, wanted, intervalMs = SESSION_UPDATE_INTERVAL_MS, log = console.error }: SessionUpdatesOptions) {
	const { rows } = await db.query<{ last: string | number | null }>('select max(id) as last from app_private.session_marks')
	let cursor = Number(rows[0]?.last ?? 0)
	let running = false
	let stopped = false
	let ticks = 0
	const tick = async () => {
		if (running || stopped) return
		running = true
		try {
			const marked = await db.query<{ session_id: string; seq: string | number }>(
				'select session_id, max(id) as seq from app_private.session_marks where id > $1 group by session_id order by 2',
				[cursor],
			)
			if (marked.rows.length > 0) {
				cursor = Math.max(cursor, ...marked.rows.map((r) => Number(r.seq)))
				const topics = wanted?.() ?? null
				for (const { session_id: id, seq } of marked.rows) {
					if (topics && !topics.has(sessionTopic(id))) continue
					const update = await sessionUpdate(db, id, Number(seq))
					if (update) await publish(sessionTopic(id), update)
				}
			}
			if (++ticks % 120 === 0) await db.query(`delete from app_private.session_marks where marked_at < now() - interval '${MARK_RETENTION}'`)
		} catch (error) {
			log(`session updates: ${error instanceof Error ? error.message : String(error)}`)
		} finally {
			running = false
		}
	}
	const timer = setInterval(() => void tick(), intervalMs)
	timer.unref()
	return {
		tick,
		stop: async () => {
			stopped = true
			clearInterval(timer)
			while (running) await new Promise((resolve) => setTimeout(resolve, 10))
		},
	}
}
