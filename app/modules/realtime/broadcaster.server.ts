import { asUser, type JwtClaims } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { readSessionDares } from '#app/modules/dares/service.server'
import { getSessionById } from '#app/modules/sessions/service.server'
import { readOwnBalance } from '#app/modules/wallet/service.server'

/**
 * The live updates of PRODUCT.md, from the marks the money transactions
 * append in app_private.realtime_marks (one row per touched topic and
 * statement; see the realtime_marks migration). Every `pollMs` the marks
 * past the cursor are read and coalesced per topic; a topic is published at
 * once when its last update is at least `intervalMs` old, else as soon as it
 * is (a leading-edge throttle: a lone boost reaches its viewers within a
 * poll, a stream of boosts makes at most one update per topic and
 * `intervalMs`). Each update is complete, and published after the changes
 * committed, never from inside them:
 *  - `session_updates_{sessionId}`, event `update`: `{updatedKeys,
 *    sessionData, seq}` (spec section 7), the session and its dares as a
 *    visitor reads them;
 *  - `wallets_{userId}`, event `balance`: `{balance, seq}`.
 * `seq` is the last mark the update covers (rising; gaps are normal, since
 * all topics share the sequence). Every instance reads the same marks, so a
 * boost through one reaches the subscribers of all.
 *
 * `publish` is the platform's: the local relay's broadcast, or
 * realtime.send on Supabase. `wanted` limits the work to the topics someone
 * listens to (the local relay knows; on Supabase every marked topic is sent).
 */
/** At most one update per topic this often: 5 a second (issue 11: at most 5 messages per subscriber per second). */
export const UPDATE_INTERVAL_MS = 200
/** How often the marks are read (an index range scan past the cursor). */
export const POLL_INTERVAL_MS = 40
/** Marks older than this are deleted (every instance has read them by then). */
const MARK_RETENTION = '1 minute'

export type SessionUpdate = {
	updatedKeys: ['session', 'dares']
	sessionData: { session: unknown; dares: unknown }
	seq: number
}

export type BalanceUpdate = { balance: number; seq: number }

export interface BroadcasterOptions {
	db: Database
	publish(topic: string, event: 'update' | 'balance', payload: SessionUpdate | BalanceUpdate): Promise<void> | void
	wanted?(): Set<string> | null
	intervalMs?: number
	pollMs?: number
	log?: (line: string) => void
}

const SESSION_TOPIC = /^session_updates_([0-9a-f-]{36})$/
const WALLET_TOPIC = /^wallets_([0-9a-f-]{36})$/

export const sessionTopic = (sessionId: string) => `session_updates_${sessionId}`
export const walletTopic = (userId: string) => `wallets_${userId}`

/** The update a visitor's page would show: the session and its dares as `anon` reads them. */
export async function sessionUpdate(db: Database, sessionId: string, seq: number): Promise<SessionUpdate | null> {
	return asUser(db, null, async (tx) => {
		const session = await getSessionById(tx, sessionId)
		if (!session) return null
		return { updatedKeys: ['session', 'dares'], sessionData: { session, dares: await readSessionDares(tx, sessionId) }, seq }
	})
}

/** The wallet's balance as its owner reads it. */
export async function balanceUpdate(db: Database, userId: string, seq: number): Promise<BalanceUpdate | null> {
	const balance = await asUser(db, claimsFor(userId), readOwnBalance)
	return balance === null ? null : { balance, seq }
}

function claimsFor(userId: string): JwtClaims {
	return { sub: userId, role: 'authenticated' }
}

export async function startBroadcaster({
	db,
	publish,
	wanted,
	intervalMs = UPDATE_INTERVAL_MS,
	pollMs = Math.min(POLL_INTERVAL_MS, intervalMs),
	log = console.error,
}: BroadcasterOptions) {
	const { rows } = await db.query<{ last: string | number | null }>('select max(id) as last from app_private.realtime_marks')
	let cursor = Number(rows[0]?.last ?? 0)
	let running = false
	let stopped = false
	let ticks = 0
	/** Topics with marks not yet published, and the last mark each covers. */
	const pending = new Map<string, number>()
	/** When each topic was last published (entries older than intervalMs are dropped). */
	const lastSent = new Map<string, number>()
	const sweepEvery = Math.max(1, Math.round(60_000 / pollMs))
	const tick = async () => {
		if (running || stopped) return
		running = true
		try {
			const marked = await db.query<{ topic: string; seq: string | number }>(
				'select topic, max(id) as seq from app_private.realtime_marks where id > $1 group by topic order by 2',
				[cursor],
			)
			if (marked.rows.length > 0) {
				cursor = Math.max(cursor, ...marked.rows.map((r) => Number(r.seq)))
				const topics = wanted?.() ?? null
				for (const { topic, seq } of marked.rows) {
					if (topics && !topics.has(topic)) continue
					pending.set(topic, Math.max(pending.get(topic) ?? 0, Number(seq)))
				}
			}
			const now = Date.now()
			for (const [topic, sent] of lastSent) if (now - sent >= intervalMs) lastSent.delete(topic)
			for (const [topic, seq] of pending) {
				if (lastSent.has(topic) || stopped) continue
				pending.delete(topic)
				lastSent.set(topic, Date.now())
				const session = SESSION_TOPIC.exec(topic)?.[1]
				const wallet = WALLET_TOPIC.exec(topic)?.[1]
				if (session) {
					const update = await sessionUpdate(db, session, seq)
					if (update) await publish(topic, 'update', update)
				} else if (wallet) {
					const update = await balanceUpdate(db, wallet, seq)
					if (update) await publish(topic, 'balance', update)
				}
			}
			if (++ticks % sweepEvery === 0) await db.query(`delete from app_private.realtime_marks where marked_at < now() - interval '${MARK_RETENTION}'`)
		} catch (error) {
			log(`realtime broadcaster: ${error instanceof Error ? error.message : String(error)}`)
		} finally {
			running = false
		}
	}
	const timer = setInterval(() => void tick(), pollMs)
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
