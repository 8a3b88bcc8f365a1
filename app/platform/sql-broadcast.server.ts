import type { Database } from '#app/db/database.server'

/**
 * Broadcasts through realtime.send(), which both platforms have: on Supabase
 * Realtime delivers the row, locally the app's relay does (it learns of it by
 * NOTIFY). Its own statement on the server connection, after the change it
 * announces has committed; realtime.send() itself downgrades errors to
 * warnings, and anything else is logged here, never thrown.
 */
export function createSqlBroadcast(db: Database | undefined) {
	return async (topic: string, event: string, payload: Record<string, unknown>): Promise<void> => {
		if (!db) return
		try {
			await db.query('select realtime.send($1::jsonb, $2, $3, true)', [JSON.stringify(payload), event, topic])
		} catch (error) {
			console.warn(`realtime broadcast on ${topic} failed: ${error instanceof Error ? error.message : String(error)}`)
		}
	}
}
