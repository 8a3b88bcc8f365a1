import type { Queryable } from '#app/db/database.server'

export type DareStatus = 'open' | 'accepted' | 'voting' | 'completed' | 'failed' | 'rejected' | 'expired'

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

/** The new dare's id (a repeated key: the first call's dare). */
export async function createDare(tx: Queryable, input: { sessionId: string; description: string; reward: number; key: string }): Promise<Done & { id: string }> {
	const { rows } = await tx.query<{ id: string; xid: string }>('select id, pg_current_xact_id()::text as xid from public.create_dare($1, $2, $3, $4)', [
		input.description,
		input.sessionId,
		input.reward,
		input.key,
	])
	return { id: rows[0]!.id, ...done(rows) }
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
