import type { Queryable } from '#app/db/database.server'

/**
 * A dare's state as the page shows it. `held` waits for the creator's review
 * and reaches only its author, the creator and operators (public.session_dares
 * leaves it out for everyone else); a removed dare never reaches a page.
 */
/** A removed dare reaches a page only as a live update saying so (the page drops it: realtime/session-feed.ts). */
export type DareStatus = 'held' | 'open' | 'accepted' | 'voting' | 'completed' | 'failed' | 'rejected' | 'expired' | 'removed'

/** A dare as the session page shows it (public.session_dares: most coins first). */
export interface DareView {
	id: string
	description: string
	reward: number
	status: DareStatus
	pot: number
	authorId: string | null
	authorName: string | null
	boosters: number
	yesVotes: number
	noVotes: number
	votingEndsAt: string | null
	createdAt: string
	/** The viewer's own coins in this dare, and their vote (null: none). */
	myBoost: number
	myVote: boolean | null
}

export type DareRow = {
	id: string
	description: string
	reward: string | number
	status: DareStatus
	pot: string | number
	author_id: string | null
	author_username: string | null
	boosters: number
	yes_votes: number
	no_votes: number
	voting_ends_at: Date | string | null
	created_at: Date | string
	my_boost: string | number
	my_vote: boolean | null
}

/** The session's dares; due votes are resolved first, in the same call. */
export async function readSessionDares(tx: Queryable, sessionId: string): Promise<DareView[]> {
	const { rows } = await tx.query<DareRow>('select * from public.session_dares($1)', [sessionId])
	return rows.map(toDareView)
}

/** One dare as the viewer reads it (their own boost and vote included); null when there is none. */
export async function readDare(tx: Queryable, dareId: string): Promise<DareView | null> {
	const { rows } = await tx.query<DareRow>('select * from public.session_dare($1)', [dareId])
	return rows[0] ? toDareView(rows[0]) : null
}

/** A dare's public part, as a visitor reads it (the rows of app_private.live_dares and public.session_dares). */
export function toPublicDare(r: Omit<DareRow, 'my_boost' | 'my_vote'>): Omit<DareView, 'myBoost' | 'myVote'> {
	return {
		id: r.id,
		description: r.description,
		reward: Number(r.reward),
		status: r.status,
		pot: Number(r.pot),
		authorId: r.author_id,
		authorName: r.author_username,
		boosters: r.boosters,
		yesVotes: r.yes_votes,
		noVotes: r.no_votes,
		votingEndsAt: r.voting_ends_at ? new Date(r.voting_ends_at).toISOString() : null,
		createdAt: new Date(r.created_at).toISOString(),
	}
}

function toDareView(r: DareRow): DareView {
	return { ...toPublicDare(r), myBoost: Number(r.my_boost), myVote: r.my_vote }
}

// The dares' calls (docs/product.md §6), as the viewer; the database checks every rule.
// One statement each: the action sends them with statementsAsViewer, in one
// round trip, so the locks they take (a hot dare's pot) end with the call.

/**
 * What a call did: its transaction's id (a page keeps the viewer's own
 * reading over data read before that transaction ended: session-feed.ts).
 */
export type Done = { xid: number }

const done = (rows: { xid: string }[]): Done => ({ xid: Number(rows[0]!.xid) })

/**
 * The new dare's id and state (a repeated key: the first call's dare); `held`
 * when the filter or the session holds it for the creator's review. The
 * page's language is the author's: their mails about the dare are written in it.
 */
export async function createDare(
	tx: Queryable,
	input: { sessionId: string; description: string; reward: number; key: string; language: string },
): Promise<Done & { id: string; status: DareStatus }> {
	const { rows } = await tx.query<{ id: string; status: DareStatus; xid: string }>(
		'select id, status, pg_current_xact_id()::text as xid from public.create_dare($1, $2, $3, $4, $5)',
		[input.description, input.sessionId, input.reward, input.key, input.language],
	)
	return { id: rows[0]!.id, status: rows[0]!.status, ...done(rows) }
}

export async function boostDare(tx: Queryable, input: { dareId: string; amount: number; key: string }): Promise<Done> {
	return done((await tx.query<{ xid: string }>('select pg_current_xact_id()::text as xid from public.boost_dare($1, $2, $3)', [input.dareId, input.amount, input.key])).rows)
}

export async function voteForDare(tx: Queryable, input: { dareId: string; vote: boolean }): Promise<Done> {
	return done((await tx.query<{ xid: string }>('select pg_current_xact_id()::text as xid from public.vote_for_dare($1, $2)', [input.dareId, input.vote])).rows)
}

const CREATOR_CALLS = { accept: 'accept_dare', 'start-voting': 'start_voting' } as const
export type CreatorCall = keyof typeof CREATOR_CALLS

export async function creatorCall(tx: Queryable, call: CreatorCall, dareId: string) {
	await tx.query(`select 1 from public.${CREATOR_CALLS[call]}($1)`, [dareId])
}

/** Rejects a dare and refunds its boosts; the same key again answers as the first call did. */
export async function rejectDare(tx: Queryable, input: { dareId: string; key: string }) {
	await tx.query('select 1 from public.reject_dare($1, $2)', [input.dareId, input.key])
}

/** The creator gives the running vote more time (docs/product.md §6.7; the database checks the range and the hour). */
export async function extendVote(tx: Queryable, input: { dareId: string; seconds: number }) {
	await tx.query('select 1 from public.extend_vote($1, $2)', [input.dareId, input.seconds])
}

/** The creator calls the running vote off: its votes dropped, the dare accepted again. */
export async function cancelVote(tx: Queryable, dareId: string) {
	await tx.query('select 1 from public.cancel_vote($1)', [dareId])
}

// The creator's moderation calls (docs/product.md §13); the database checks
// that the caller is the session's creator and the session is live.

/** A held dare approved: shown, and sent out live. */
export async function approveDare(tx: Queryable, dareId: string) {
	await tx.query('select 1 from public.approve_dare($1)', [dareId])
}

/** A dare taken off the page (its running boosts refunded). */
export async function hideDare(tx: Queryable, dareId: string) {
	await tx.query('select 1 from public.hide_dare($1)', [dareId])
}

/** A viewer kept out of all the creator's sessions (their running dares removed, their boosts given back). */
export async function banViewer(tx: Queryable, userId: string) {
	await tx.query('select 1 from public.ban_viewer($1)', [userId])
}

/** Every new dare of the live session held for review, or not. */
export async function setHoldNewDares(tx: Queryable, input: { sessionId: string; hold: boolean }) {
	await tx.query('select 1 from public.set_hold_new_dares($1, $2)', [input.sessionId, input.hold])
}

/** Whether the session holds every new dare for review (its creator's page shows the switch). */
export async function readHoldNewDares(tx: Queryable, sessionId: string): Promise<boolean> {
	const { rows } = await tx.query<{ hold_new_dares: boolean }>('select hold_new_dares from public.sessions where id = $1', [sessionId])
	return rows[0]?.hold_new_dares ?? false
}

export type ReportTaken = { reportId: string; replayed: boolean }

export type ReportInput = { dareId: string; reason: string; details: string; goodFaith: boolean; language: string }

/** A signed-in viewer's report (their open report of the same dare: replayed). */
export async function reportDare(tx: Queryable, input: ReportInput): Promise<ReportTaken> {
	const { rows } = await tx.query<{ report_id: string; replayed: boolean }>('select report_id, replayed from public.report_dare($1, $2, $3, $4, $5)', [
		input.dareId,
		input.reason,
		input.details,
		input.goodFaith,
		input.language,
	])
	return { reportId: rows[0]!.report_id, replayed: rows[0]!.replayed }
}

/**
 * A visitor's report, on the owner connection (no API role may call it: the
 * server's per-address limit comes first).
 */
export async function reportDareAsVisitor(db: Queryable, input: ReportInput & { name: string; email: string }): Promise<ReportTaken> {
	const { rows } = await db.query<{ report_id: string; replayed: boolean }>(
		'select report_id, replayed from ledger.report_dare_as_visitor($1, $2, $3, $4, $5, $6, $7)',
		[input.dareId, input.reason, input.details, input.goodFaith, input.language, input.name, input.email],
	)
	return { reportId: rows[0]!.report_id, replayed: rows[0]!.replayed }
}
