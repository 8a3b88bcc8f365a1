import type { DareStatus, DareView } from '#app/modules/dares/service.server'
import { DARE_LIMITS } from '#app/modules/dares/limits'

/**
 * A session's live updates (`session_updates_{id}`) as the page applies them:
 * the format the broadcaster sends, its checks, and the state a page keeps
 * (docs/decisions/045-live-update-format.md). Shared by the session page, the
 * overlay, home's cards and bench:audience, so the bench applies updates
 * exactly as the page does.
 *
 * An update carries what changed since the publisher's previous update on the
 * topic: the dares touched (a new dare whole, a known one without the parts
 * that never change) and the session's state and totals.
 * - `seq` grows with each update of the topic from one publisher, `prev` is
 *   the previous one's: a page that applied `prev` applies this one.
 * - `since` says where the previous update's reading stood (a transaction id
 *   bound: every change before it was covered). A page loaded after it
 *   (its loader's `covered`, the oldest transaction still running when it
 *   read) applies the update without having seen `prev`.
 * Otherwise something was missed: the page refetches once, and after it
 * equals a fresh load. A malformed update, an unknown key, a dare the page
 * does not know that comes without its description, and a sequence from the
 * past are ignored the same way (then one refetch).
 */

/** A dare's public part in an update; `description`, `reward` and `createdAt` come only with a new dare. */
export type LiveDare = Omit<DareView, 'myBoost' | 'myVote' | 'description' | 'reward' | 'createdAt'> & Partial<Pick<DareView, 'description' | 'reward' | 'createdAt'>>

/** A session's state and totals (home's cards show the totals). */
export interface LiveSessionState {
	status: 'active' | 'ended'
	dareCount: number
	potTotal: number
}

export interface SessionUpdate {
	updatedKeys: Array<'session' | 'dares'>
	sessionData: { session?: LiveSessionState; dares?: LiveDare[] }
	seq: number
	prev: number
	since: number
}

/** The most dares one update names; more touched at once go out as several updates, chained by `seq` and `prev` (sessionUpdates in broadcaster.server.ts). */
export const LIVE_MAX_DARES = 100

// 'removed': a dare taken off the page (hidden, rejected while held, its author banned: docs/product.md §13); the page drops it.
const STATUSES: ReadonlySet<string> = new Set<DareStatus>(['open', 'accepted', 'voting', 'completed', 'failed', 'rejected', 'expired', 'removed'])
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/
const DARE_KEYS: ReadonlySet<string> = new Set([
	'id',
	'status',
	'pot',
	'authorId',
	'authorName',
	'boosters',
	'yesVotes',
	'noVotes',
	'votingEndsAt',
	'description',
	'reward',
	'createdAt',
])

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0
const onlyKeys = (o: Record<string, unknown>, keys: ReadonlySet<string>) => Object.keys(o).every((k) => keys.has(k))

function parseDare(v: unknown): LiveDare | null {
	if (!isObject(v) || !onlyKeys(v, DARE_KEYS)) return null
	const { id, status, pot, authorId, authorName, boosters, yesVotes, noVotes, votingEndsAt, description, reward, createdAt } = v
	if (typeof id !== 'string' || !UUID.test(id) || typeof status !== 'string' || !STATUSES.has(status)) return null
	if (!count(pot) || !count(boosters) || !count(yesVotes) || !count(noVotes)) return null
	if (authorId !== null && (typeof authorId !== 'string' || !UUID.test(authorId))) return null
	if (authorName !== null && (typeof authorName !== 'string' || authorName.length > 64)) return null
	if (votingEndsAt !== null && (typeof votingEndsAt !== 'string' || !ISO.test(votingEndsAt))) return null
	const dare: LiveDare = { id, status: status as DareStatus, pot, authorId, authorName, boosters, yesVotes, noVotes, votingEndsAt }
	if (description !== undefined || reward !== undefined || createdAt !== undefined) {
		if (typeof description !== 'string' || description.length > DARE_LIMITS.description.max) return null
		if (!count(reward) || typeof createdAt !== 'string' || !ISO.test(createdAt)) return null
		Object.assign(dare, { description, reward, createdAt })
	}
	return dare
}

function parseSession(v: unknown): LiveSessionState | null {
	if (!isObject(v) || !onlyKeys(v, new Set(['status', 'dareCount', 'potTotal']))) return null
	const { status, dareCount, potTotal } = v
	if ((status !== 'active' && status !== 'ended') || !count(dareCount) || !count(potTotal)) return null
	return { status, dareCount, potTotal }
}

/** The update, checked key by key; null for anything else (the page then refetches). */
export function parseSessionUpdate(payload: unknown): SessionUpdate | null {
	if (!isObject(payload) || !onlyKeys(payload, new Set(['updatedKeys', 'sessionData', 'seq', 'prev', 'since']))) return null
	const { updatedKeys, sessionData, seq, prev, since } = payload
	if (!count(seq) || !count(prev) || !count(since) || !Array.isArray(updatedKeys) || !isObject(sessionData)) return null
	if (updatedKeys.length > 2 || !updatedKeys.every((k) => k === 'session' || k === 'dares') || !onlyKeys(sessionData, new Set(updatedKeys))) return null
	const update: SessionUpdate = { updatedKeys: updatedKeys as SessionUpdate['updatedKeys'], sessionData: {}, seq, prev, since }
	if ('session' in sessionData) {
		const session = parseSession(sessionData.session)
		if (!session) return null
		update.sessionData.session = session
	}
	if ('dares' in sessionData) {
		const list = sessionData.dares
		if (!Array.isArray(list) || list.length > LIVE_MAX_DARES) return null
		const dares: LiveDare[] = []
		for (const item of list) {
			const dare = parseDare(item)
			if (!dare) return null
			dares.push(dare)
		}
		update.sessionData.dares = dares
	}
	return update
}

/**
 * The session page's order (public.session_dares): running dares first, then
 * most coins, oldest, by id.
 */
export function compareDares(a: DareView, b: DareView): number {
	const running = (d: DareView) => (d.status === 'open' || d.status === 'accepted' || d.status === 'voting' ? 0 : 1)
	return running(a) - running(b) || b.pot - a.pot || (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** `dares` with the viewer's own readings in place of (or beside) theirs, in the page's order. */
function withOwn(dares: DareView[], own: DareView[]): DareView[] {
	const byId = new Map(own.map((d) => [d.id, d]))
	const known = new Set(dares.map((d) => d.id))
	const next = dares.map((d) => byId.get(d.id) ?? d)
	for (const d of own) if (!known.has(d.id)) next.push(d)
	return next.sort(compareDares)
}

/** Newly read `dares` with the viewer's own boost and vote from readings they may predate (a dare missing: added whole). */
function mineOver(dares: DareView[], own: DareView[]): DareView[] {
	const byId = new Map(own.map((d) => [d.id, d]))
	const known = new Set(dares.map((d) => d.id))
	const next = dares.map((d) => {
		const mine = byId.get(d.id)
		return mine && (mine.myBoost !== d.myBoost || mine.myVote !== d.myVote) ? { ...d, myBoost: mine.myBoost, myVote: mine.myVote } : d
	})
	for (const d of own) if (!known.has(d.id)) next.push(d)
	return next.sort(compareDares)
}

const PUBLIC_KEYS = ['status', 'pot', 'authorId', 'authorName', 'boosters', 'yesVotes', 'noVotes', 'votingEndsAt'] as const

/** `dare` with `live`'s public values; the same object when nothing changed (its row is not drawn again). */
function merged(dare: DareView, live: LiveDare): DareView {
	if (PUBLIC_KEYS.every((k) => dare[k] === live[k])) return dare
	const next = { ...dare }
	for (const k of PUBLIC_KEYS) (next as Record<string, unknown>)[k] = live[k]
	return next
}

/** What a page shows of a session live: its state and totals, and its dares in the page's order. */
export interface SessionView {
	session: LiveSessionState | null
	dares: DareView[]
}

/**
 * The dares with an update's applied: a removed one dropped (one the page
 * never had: nothing to do); null when the update names a dare the page does
 * not know without its description.
 */
export function applyDares(dares: DareView[], live: LiveDare[]): DareView[] | null {
	if (live.length === 0) return dares
	const byId = new Map(live.map((d) => [d.id, d]))
	let changed = false
	const next = dares.flatMap((dare) => {
		const update = byId.get(dare.id)
		if (!update) return [dare]
		byId.delete(dare.id)
		if (update.status === 'removed') {
			changed = true
			return []
		}
		const after = merged(dare, update)
		if (after !== dare) changed = true
		return [after]
	})
	for (const d of byId.values()) {
		if (d.status === 'removed') continue
		if (d.description === undefined || d.reward === undefined || d.createdAt === undefined) return null
		const { description, reward, createdAt, ...rest } = d
		next.push({ ...rest, description, reward, createdAt, myBoost: 0, myVote: null })
		changed = true
	}
	return changed ? next.sort(compareDares) : dares
}

/** Where a page stands in a topic's updates. */
export interface FeedPosition {
	/** The last update applied (null: none since the page's data was read). */
	seq: number | null
	/** The page's data covers every change before this (its loader's reading). */
	covered: number
}

export type Verdict = 'apply' | 'refetch'

/** Whether an update follows what the page has. */
export function follows(position: FeedPosition, update: { seq: number; prev: number; since: number }): Verdict {
	if (position.seq !== null) {
		if (update.seq <= position.seq) return 'refetch'
		if (update.prev === position.seq) return 'apply'
	}
	return update.since <= position.covered ? 'apply' : 'refetch'
}

/** How many updates a feed keeps, to apply again on top of newly read data. */
const KEPT_UPDATES = 32

/**
 * One page's state of a session topic: its data as last read, the updates
 * applied on top, where it stands. `receive` answers 'refetch' when the page
 * must read its data again (once: an update that goes on from there
 * meanwhile is applied and kept, a second gap is remembered, not asked for
 * at once); `rebase` takes the newly read data and applies again the updates
 * received since the last gap (one read after that data would otherwise be
 * lost; one read before it is followed by the next update of the same
 * dares, also kept, since there was no gap). Updates from before a gap are
 * never applied again: the one missed may have changed the same dare, and
 * the new data has them all. After a second gap during a read, `rebase`
 * answers 'refetch': that read may have begun before the update missed.
 * The viewer's own readings (`own`) stay on top of newly read data until
 * that data covers the action they answered.
 */
export class SessionFeed {
	view: SessionView
	position: FeedPosition
	/** A refetch was asked for and its data has not come yet. */
	refetching = false
	/** Another gap while refetching: read again once this read is in. */
	private again = false
	/** A rejoin's read is on its way: the first gap after it is what that read is for. */
	private rejoining = false
	/** The updates applied since the last gap, in order. */
	private kept: SessionUpdate[] = []
	/** The viewer's own readings, with the transaction of the action each answered. */
	private owned = new Map<string, { dare: DareView; xid: number }>()
	/** The data last rebased on, and the answer (a render may be done twice: the same data, the same answer). */
	private based: { data: SessionView; verdict: 'refetch' | 'done' } | null = null

	constructor(data: SessionView, covered: number) {
		this.view = data
		this.position = { seq: null, covered }
	}

	receive(payload: unknown): 'applied' | 'refetch' | 'ignored' {
		const update = parseSessionUpdate(payload)
		if (!update) return this.gap(null)
		if (follows(this.position, update) === 'refetch' || !this.apply(update)) return this.gap(update.seq)
		this.kept.push(update)
		if (this.kept.length > KEPT_UPDATES) {
			this.kept.shift()
			// One the read on its way may not have: read again after it.
			if (this.refetching) this.again = true
		}
		return 'applied'
	}

	/** Newly read data (a refetch's, or any other reading of the page's loader); 'refetch' when it must be read once more. */
	rebase(data: SessionView, covered: number): 'refetch' | 'done' {
		if (this.based?.data === data) return this.based.verdict
		this.view = data
		this.position = { seq: this.position.seq, covered }
		for (const [id, { xid }] of this.owned) if (xid < covered) this.owned.delete(id)
		if (this.owned.size > 0) this.view = { ...this.view, dares: mineOver(this.view.dares, [...this.owned.values()].map((o) => o.dare)) }
		for (const update of this.kept) this.apply(update)
		this.refetching = this.again
		this.again = false
		this.rejoining = false
		const verdict = this.refetching ? 'refetch' : 'done'
		this.based = { data, verdict }
		return verdict
	}

	/** The socket was joined again after a cut: what was sent meanwhile is lost, and a read asked before the cut may have failed with it. */
	rejoined(): 'refetch' {
		this.kept = []
		this.position = { ...this.position, seq: null }
		this.refetching = true
		this.rejoining = true
		return 'refetch'
	}

	/**
	 * The viewer's own reading of some dares (an action's answer): their own
	 * boost and vote included, kept on top of newly read data until that data
	 * was read after the action's transaction `xid` ended.
	 */
	own(dares: DareView[], xid: number) {
		for (const dare of dares) this.owned.set(dare.id, { dare, xid })
		this.view = { ...this.view, dares: withOwn(this.view.dares, dares) }
	}

	/**
	 * Something was missed: what was kept is not applied again (the new data
	 * has it), the next update may follow this one (`seq`: the new data
	 * covers it too), and the data is read again, once. The first gap after
	 * a rejoin is the updates sent during the cut, which the rejoin's read,
	 * begun after the join, has.
	 */
	private gap(seq: number | null): 'refetch' | 'ignored' {
		this.kept = []
		if (seq !== null) this.position = { ...this.position, seq }
		if (this.refetching) {
			if (this.rejoining) this.rejoining = false
			else this.again = true
			return 'ignored'
		}
		this.refetching = true
		return 'refetch'
	}

	private apply(update: SessionUpdate): boolean {
		const dares = applyDares(this.view.dares, update.sessionData.dares ?? [])
		if (!dares) return false
		const session = update.sessionData.session ?? this.view.session
		if (dares !== this.view.dares || session !== this.view.session) this.view = { session, dares }
		this.position = { ...this.position, seq: update.seq }
		return true
	}
}
