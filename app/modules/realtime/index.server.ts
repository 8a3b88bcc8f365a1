import type { IncomingMessage } from 'node:http'
import type { Duplex } from 'node:stream'
import type { AppServices } from '#app/context.server'
import { createDatabase } from '#app/db/database.server'
import { createRelay } from './relay.server'
import { startBroadcaster } from './broadcaster.server'
import { keepMessagePartitions } from './partitions.server'
import { realtimeKey, verifyRealtimeToken } from './tokens.server'
import { reportRelay } from '#app/metrics.server'

export interface Realtime {
	/** For the HTTP server's 'upgrade' event: true when the request was the relay's. */
	handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean
	stop(): Promise<void>
}

/**
 * Live updates on the platform in use. Local: the app's own relay on the
 * app's port, fed by the session broadcaster, and the daily partitions of
 * realtime.messages kept as Supabase's server keeps them. Supabase: the broadcaster
 * publishes through realtime.send (Supabase Realtime delivers them, after
 * the same policies); the browser connects to Supabase directly.
 */
export async function startRealtime(
	{ env, db }: Pick<AppServices, 'env' | 'db'>,
	observe?: (topics: string[], readAt: number) => void,
): Promise<Realtime> {
	const partitions = env.PLATFORM === 'local' ? keepMessagePartitions(db) : null
	// On a Postgres server the broadcaster reads on connections of its own: behind a queue
	// of requests in the app's pool its reads came late, and with them the updates and the
	// session cache's freshness (ADR 044). PGlite is one connection anyway.
	const marks = env.DATABASE_URL ? await createDatabase({ url: env.DATABASE_URL, poolSize: 2 }) : db
	const closeMarks = async () => {
		if (marks !== db) await marks.close()
	}
	if (env.PLATFORM === 'supabase' || !env.BETTER_AUTH_SECRET) {
		const updates = await startBroadcaster({
			db: marks,
			publish: async (topic, event, payload) => {
				await marks.query('select realtime.send($1::jsonb, $2, $3, true)', [JSON.stringify(payload), event, topic])
			},
			// Every instance reads the marks; one sends them (Supabase delivers each to every subscriber).
			exclusive: true,
			observe,
		})
		return {
			handleUpgrade: () => false,
			stop: async () => {
				partitions?.stop()
				await updates.stop()
				await closeMarks()
			},
		}
	}
	const key = realtimeKey(env.BETTER_AUTH_SECRET)
	const relay = createRelay({ db, origin: new URL(env.APP_URL).origin, verify: (token) => verifyRealtimeToken(key, token), trustProxy: env.TRUST_PROXY })
	reportRelay(() => relay.stats())
	const updates = await startBroadcaster({
		db: marks,
		publish: (topic, event, payload) => void relay.broadcast(topic, event, payload),
		wanted: () => new Set(relay.topics()),
		observe,
	})
	return {
		handleUpgrade: relay.handleUpgrade,
		stop: async () => {
			partitions?.stop()
			await updates.stop()
			await relay.close()
			await closeMarks()
		},
	}
}
