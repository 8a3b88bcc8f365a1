import { randomUUID } from 'node:crypto'
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
 * `seq` is the topic's highest mark (gaps are normal, since all topics share
 * the sequence); a mark that commits after a later one goes out with the seq
 * already published, which the page applies too (it is read when sent).
 * Every instance reads the same marks, so a boost through one reaches the
 * subscribers of all.
 *
 * `publish` is the platform's: the local relay's broadcast, or
 * realtime.send on Supabase. `wanted` limits the work to the topics someone
 * listens to (the local relay knows; on Supabase every marked topic is sent).
 * `exclusive` (Supabase, where every instance would send the same update to
 * the same subscribers): only the instance holding the lease in
 * app_private.broadcaster_lease publishes; the others read the marks (for
 * `observe`), keep the topics of the last lease period, and publish them
 * when the lease comes to them.
 */
/** At most one update per topic this often: 5 a second (issue 11: at most 5 messages per subscriber per second). */
export const UPDATE_INTERVAL_MS = 200
/** How often the marks are read (an index range scan past the cursor). */
export const POLL_INTERVAL_MS = 40
/** How long a mark id missing below the cursor is looked for (a transaction's commit is at most this late). */
const GAP_WAIT_MS = 10_000
/** At most this many missing ids are looked for at once. */
const MAX_GAPS = 10_000
/** Marks older than this are deleted (every instance has read them by then). */
const MARK_RETENTION = '1 minute'
/** How long the publishing lease lasts (exclusive): a stopped leader is replaced within it. */
const LEASE_SECONDS = 3
/** How often the lease is renewed, or looked for. */
const LEASE_RENEW_MS = 1000

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
	/** Every topic marked since the last poll, wanted or not (the shared session page's renders: app/shared-render.server.ts). */
	observe?(topics: string[]): void
	/** One publisher among all the instances on the database (see above). */
	exclusive?: boolean
	leaseRenewMs?: number
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
	observe,
	exclusive = false,
	leaseRenewMs = LEASE_RENEW_MS,
	intervalMs = UPDATE_INTERVAL_MS,
	pollMs = Math.min(POLL_INTERVAL_MS, intervalMs),
	log = console.error,
}: BroadcasterOptions) {
	// Where the marks' sequence stands (not the last mark left: marks are deleted after a minute, and an
	// idle table would put the cursor at 0, and every id up to the next mark among the gaps).
	const { rows } = await db.query<{ last: string | number | null }>(
		`select greatest(
			(select max(id) from app_private.realtime_marks),
			(select last_value from pg_catalog.pg_sequences where schemaname = 'app_private' and sequencename = 'realtime_marks_id_seq')
		) as last`,
	)
	let cursor = Number(rows[0]?.last ?? 0)
	let running = false
	let stopped = false
	let ticks = 0
	const holder = randomUUID()
	let leader = !exclusive
	let leaseCheckedAt = -Infinity
	/** Topics with marks not yet published, their update's `seq`, and when last marked (a follower keeps a lease period's worth, for when it takes over). */
	const pending = new Map<string, { seq: number; at: number }>()
	/** The `seq` each topic was last published with, while a late mark may still come (GAP_WAIT_MS). */
	const published = new Map<string, { seq: number; at: number }>()
	/** When each topic was last published (entries older than intervalMs are dropped). */
	const lastSent = new Map<string, number>()
	/**
	 * Mark ids below the cursor not read yet, and when they were first missed:
	 * an id is taken when its transaction inserts, not when it commits, so a
	 * boost that commits just after a later one shows up below the cursor.
	 * Read again on every poll until found, or for GAP_WAIT_MS (a rolled-back
	 * transaction's ids never show up).
	 */
	const gaps = new Map<number, number>()
	const sweepEvery = Math.max(1, Math.round(60_000 / pollMs))
	const tick = async () => {
		if (running || stopped) return
		running = true
		try {
			const marked = await db.query<{ topic: string; id: string | number }>(
				// Two index range scans, whatever the plan (one `or` of both conditions scanned every mark kept).
				`select id, topic from app_private.realtime_marks where id > $1
				 union all
				 select id, topic from app_private.realtime_marks where id = any($2::bigint[]) and id <= $1
				 order by id`,
				[cursor, [...gaps.keys()]],
			)
			const now = Date.now()
			if (marked.rows.length > 0) {
				const ids = new Set(marked.rows.map((r) => Number(r.id)))
				for (const id of ids) gaps.delete(id)
				let last = cursor
				for (const id of ids) if (id > last) last = id
				for (let id = cursor + 1; id < last && gaps.size < MAX_GAPS; id++) if (!ids.has(id)) gaps.set(id, now)
				cursor = last
				// Each topic's highest mark: the same seq on every instance that read the same marks.
				const highest = new Map<string, number>()
				for (const { topic, id } of marked.rows) highest.set(topic, Math.max(highest.get(topic) ?? 0, Number(id)))
				observe?.([...highest.keys()])
				const listened = wanted?.() ?? null
				for (const [topic, seq] of highest) {
					if (listened && !listened.has(topic)) continue
					// A mark that committed late (below the topic's last update) goes out with that update's seq: as new, not older.
					pending.set(topic, { seq: Math.max(pending.get(topic)?.seq ?? 0, published.get(topic)?.seq ?? 0, seq), at: now })
				}
			}
			if (exclusive && now - leaseCheckedAt >= leaseRenewMs) {
				leaseCheckedAt = now
				const lease = await db.query<{ held: boolean }>('select app_private.hold_broadcaster_lease($1, $2) as held', [holder, LEASE_SECONDS])
				leader = lease.rows[0]?.held === true
			}
			if (!leader) {
				for (const [topic, { at }] of pending) if (now - at > LEASE_SECONDS * 1000 + leaseRenewMs) pending.delete(topic)
			}
			for (const [id, since] of gaps) if (now - since > GAP_WAIT_MS) gaps.delete(id)
			for (const [topic, last] of published) if (now - last.at > GAP_WAIT_MS) published.delete(topic)
			for (const [topic, sent] of lastSent) if (now - sent >= intervalMs) lastSent.delete(topic)
			for (const [topic, { seq }] of pending) {
				if (!leader || lastSent.has(topic) || stopped) continue
				pending.delete(topic)
				lastSent.set(topic, Date.now())
				published.set(topic, { seq, at: now })
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
			// Another instance publishes from its next lease check, not once the lease runs out.
			if (exclusive && leader) await db.query('select app_private.release_broadcaster_lease($1)', [holder]).catch(() => {})
		},
	}
}
