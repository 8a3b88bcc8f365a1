import { randomUUID } from 'node:crypto'
import { asUser, type JwtClaims } from '#app/db/as-user.server'
import type { Database, Queryable } from '#app/db/database.server'
import { toPublicDare, type DareRow } from '#app/modules/dares/service.server'
import { readOwnBalance } from '#app/modules/wallet/service.server'
import { LIVE_MAX_DARES, type LiveDare, type LiveSessionState, type SessionUpdate } from './session-feed'
import { broadcasterPolled } from '#app/metrics.server'

/**
 * The live updates of docs/product.md §11, from the marks the money transactions
 * append in app_private.realtime_marks (one row per touched topic and dare;
 * see the realtime_marks and live_updates migrations). Every `pollMs` the
 * marks past the cursor are read and gathered per topic; a topic is
 * published at once when its last update is at least `intervalMs` old, else
 * as soon as it is (a leading-edge throttle: a lone boost reaches its viewers
 * within a poll, a stream of boosts makes at most one update per topic and
 * `intervalMs`). Updates are read after the changes committed, never from
 * inside them:
 *  - `session_updates_{sessionId}`, event `update`: what changed since this
 *    publisher's previous update of the topic, in the format of
 *    session-feed.ts (the dares marked, the session's state and totals, as a
 *    visitor reads them) with `seq`, `prev` and `since`
 *    (docs/decisions/045-live-update-format.md);
 *  - `wallets_{userId}`, event `balance`: `{balance, seq}`.
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
/** How long a topic's last update is remembered when nobody is known to listen (Supabase): a later update chains on to it. */
const REMEMBER_MS = 60 * 60_000
/** `since` of an update that no page applies without the one before it: a page that missed that one reads the session again. */
const NO_PAGE = Number.MAX_SAFE_INTEGER

export type { SessionUpdate }
export type BalanceUpdate = { balance: number; seq: number }

export interface BroadcasterOptions {
	db: Database
	publish(topic: string, event: 'update' | 'balance', payload: SessionUpdate | BalanceUpdate): Promise<void> | void
	wanted?(): Set<string> | null
	/**
	 * After every poll that succeeded: every topic marked since the last one,
	 * wanted or not (none: nothing was), and when the marks were read (the
	 * shared session page's renders: app/modules/shared-pages/shared-render.server.ts; the session
	 * cache, which trusts its entries only while the marks are read: ADR 044).
	 */
	observe?(topics: string[], readAt: number): void
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

/**
 * What changed in a session as a visitor reads it: its state and totals, and
 * the dares asked for (whole when `created` has them, else without what never
 * changes; one no longer shown as `removed`). Null when the session is gone.
 */
export async function readSessionChanges(
	db: Database,
	sessionId: string,
	dareIds: Iterable<string>,
	created: ReadonlySet<string>,
): Promise<{ session: LiveSessionState; dares: LiveDare[] } | null> {
	const ids = [...dareIds]
	// One round trip: the session's totals and the dares, as JSON.
	const { rows } = await db.query<{ session: { status: 'active' | 'ended'; dares: number; pot: string | number } | null; dares: Array<Omit<DareRow, 'my_boost' | 'my_vote'>> }>(
		`select (select row_to_json(s) from app_private.live_session($1) s) as session,
		        (select coalesce(json_agg(d), '[]'::json) from app_private.live_dares($1, $2::uuid[]) d) as dares`,
		[sessionId, ids],
	)
	const row = rows[0]
	if (!row?.session) return null
	const dares = row.dares.map((r): LiveDare => {
		const { description, reward, createdAt, ...dare } = toPublicDare(r)
		return created.has(r.id) ? { ...dare, description, reward, createdAt } : dare
	})
	// A dare asked for and not read is no longer shown (removed, or held again by nothing: gone): say so,
	// with nothing of it but its id, so a page that shows it drops it.
	const read = new Set(dares.map((d) => d.id))
	for (const id of ids) {
		if (!read.has(id)) dares.push({ id, status: 'removed', pot: 0, authorId: null, authorName: null, boosters: 0, yesVotes: 0, noVotes: 0, votingEndsAt: null })
	}
	return { session: { status: row.session.status, dareCount: row.session.dares, potTotal: Number(row.session.pot) }, dares }
}

/** The wallet's balance as its owner reads it. */
export async function balanceUpdate(db: Database, userId: string, seq: number): Promise<BalanceUpdate | null> {
	const balance = await asUser(db, claimsFor(userId), readOwnBalance)
	return balance === null ? null : { balance, seq }
}

function claimsFor(userId: string): JwtClaims {
	return { sub: userId, role: 'authenticated' }
}

/** A topic's marks not published yet. */
type Pending = {
	/** When last marked (a follower keeps a lease period's worth, for when it takes over). */
	at: number
	/** Where the reading stood before these marks (see `since`). */
	since: number
	dares: Set<string>
	created: Set<string>
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
	// idle table would put the cursor at 0, and every id up to the next mark among the gaps), and where
	// the reading stands: every change of a transaction before `xmax` is read from here on or was before.
	const { rows } = await db.query<{ last: string | number | null; xmax: string }>(
		`select greatest(
			(select max(id) from app_private.realtime_marks),
			(select last_value from pg_catalog.pg_sequences where schemaname = 'app_private' and sequencename = 'realtime_marks_id_seq')
		) as last, pg_snapshot_xmax(pg_current_snapshot())::text as xmax`,
	)
	let cursor = Number(rows[0]?.last ?? 0)
	/**
	 * The reading's bound: every mark read so far is a transaction's below it
	 * (the xmax of the last poll that read marks, in that poll's snapshot).
	 * Updates carry it as `since` for the next one, so a page whose data was
	 * read once all those transactions had ended (its `covered`) knows it has
	 * what they changed.
	 */
	let readTo = Number(rows[0]?.xmax ?? 0)
	let running = false
	let stopped = false
	let ticks = 0
	const holder = randomUUID()
	let leader = !exclusive
	let leaseCheckedAt = -Infinity
	const pending = new Map<string, Pending>()
	/** Each topic's last update from here: its `seq`, where the reading stood, and when. */
	const sent = new Map<string, { seq: number; readTo: number; at: number }>()
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
			const readAt = Date.now()
			const marked = await db.query<{ topic: string; id: string | number; dare_id: string | null; dare_created: boolean; xmax: string }>(
				// Two index range scans, whatever the plan (one `or` of both conditions scanned every mark kept),
				// each row with the statement's snapshot's xmax.
				`select m.*, pg_snapshot_xmax(pg_current_snapshot())::text as xmax from (
				   select id, topic, dare_id, dare_created from app_private.realtime_marks where id > $1
				   union all
				   select id, topic, dare_id, dare_created from app_private.realtime_marks where id = any($2::bigint[]) and id <= $1
				 ) m order by m.id`,
				[cursor, [...gaps.keys()]],
			)
			const now = Date.now()
			broadcasterPolled()
			if (marked.rows.length > 0) {
				const before = readTo
				readTo = Number(marked.rows[0]!.xmax)
				const ids = new Set(marked.rows.map((r) => Number(r.id)))
				for (const id of ids) gaps.delete(id)
				let last = cursor
				for (const id of ids) if (id > last) last = id
				for (let id = cursor + 1; id < last && gaps.size < MAX_GAPS; id++) if (!ids.has(id)) gaps.set(id, now)
				cursor = last
				const topics = [...new Set(marked.rows.map((r) => r.topic))]
				observe?.(topics, readAt)
				const listened = wanted?.() ?? null
				for (const { topic, dare_id, dare_created } of marked.rows) {
					if (listened && !listened.has(topic)) {
						// Nobody here listens: a later update cannot chain on to the last one sent.
						sent.delete(topic)
						continue
					}
					let entry = pending.get(topic)
					if (!entry) pending.set(topic, (entry = { at: now, since: before, dares: new Set(), created: new Set() }))
					entry.at = now
					if (dare_id) entry.dares.add(dare_id)
					if (dare_id && dare_created) entry.created.add(dare_id)
				}
			}
			if (marked.rows.length === 0) observe?.([], readAt)
			if (exclusive && now - leaseCheckedAt >= leaseRenewMs) {
				leaseCheckedAt = now
				const lease = await db.query<{ held: boolean }>('select app_private.hold_broadcaster_lease($1, $2) as held', [holder, LEASE_SECONDS])
				const held = lease.rows[0]?.held === true
				// Taken over: what the last leader sent is unknown here, so the first update of each topic
				// chains on to nothing; its `since` (a bound on transactions, whoever published) still holds.
				if (held && !leader) sent.clear()
				leader = held
			}
			if (!leader) {
				for (const [topic, { at }] of pending) if (now - at > LEASE_SECONDS * 1000 + leaseRenewMs) pending.delete(topic)
			}
			for (const [id, since] of gaps) if (now - since > GAP_WAIT_MS) gaps.delete(id)
			for (const [topic, sentAt] of lastSent) if (now - sentAt >= intervalMs) lastSent.delete(topic)
			for (const [topic, entry] of pending) {
				if (!leader || lastSent.has(topic) || stopped) continue
				pending.delete(topic)
				const previous = sent.get(topic)
				const seq = Math.max(cursor, (previous?.seq ?? 0) + 1)
				sent.set(topic, { seq, readTo, at: now })
				const session = SESSION_TOPIC.exec(topic)?.[1]
				const wallet = WALLET_TOPIC.exec(topic)?.[1]
				if (session) {
					const updates = await sessionUpdates(db, session, entry, { seq, prev: previous?.seq ?? 0, since: previous ? previous.readTo : entry.since })
					sent.set(topic, { seq: updates.at(-1)!.seq, readTo, at: now })
					// The interval counts from the sending, not from the reading (which takes longer some times than others).
					lastSent.set(topic, Date.now())
					for (const update of updates) await publish(topic, 'update', update)
				} else if (wallet) {
					const update = await balanceUpdate(db, wallet, seq)
					lastSent.set(topic, Date.now())
					if (update) await publish(topic, 'balance', update)
				}
			}
			const listened = wanted?.() ?? null
			for (const [topic, { at }] of sent) if (listened ? !listened.has(topic) : now - at > REMEMBER_MS) sent.delete(topic)
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

/**
 * A session's updates from its pending marks: one, or one per
 * LIVE_MAX_DARES dares when more were touched (a session stopped with its
 * running dares), chained by `seq` and `prev`; a page that misses one of
 * those reads the session again (`since` of the next ones). Every one
 * carries the session's totals. The session gone: an update no page can
 * apply (each reads the session again, and finds it gone).
 */
export async function sessionUpdates(
	db: Database,
	sessionId: string,
	marks: Pick<Pending, 'dares' | 'created'>,
	order: Pick<SessionUpdate, 'seq' | 'prev' | 'since'>,
): Promise<SessionUpdate[]> {
	const changes = await readSessionChanges(db, sessionId, marks.dares, marks.created)
	if (!changes) return [{ updatedKeys: [], sessionData: {}, ...order, since: NO_PAGE }]
	if (changes.dares.length === 0) return [{ updatedKeys: ['session'], sessionData: { session: changes.session }, ...order }]
	const updates: SessionUpdate[] = []
	for (let i = 0; i * LIVE_MAX_DARES < changes.dares.length; i++) {
		updates.push({
			updatedKeys: ['session', 'dares'],
			sessionData: { session: changes.session, dares: changes.dares.slice(i * LIVE_MAX_DARES, (i + 1) * LIVE_MAX_DARES) },
			seq: order.seq + i,
			prev: i === 0 ? order.prev : order.seq + i - 1,
			since: i === 0 ? order.since : NO_PAGE,
		})
	}
	return updates
}

/**
 * Where a page's reading stands, for its live updates (`covered` in
 * session-feed.ts): the oldest transaction still running, so every change of
 * a transaction before it is in what the page reads next. Read before the
 * page's data, in the same transaction.
 */
export async function readCovered(tx: Queryable): Promise<number> {
	const { rows } = await tx.query<{ xmin: string }>('select pg_snapshot_xmin(pg_current_snapshot())::text as xmin')
	return Number(rows[0]!.xmin)
}
