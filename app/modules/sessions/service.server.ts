import type { Queryable } from '#app/db/database.server'
import { PLATFORMS, type StartSessionInput, type StreamPlatform } from './schemas'

export { isPlatform, PLATFORMS, type StreamPlatform } from './schemas'

export interface SessionSummary {
	id: string
	title: string
	platform: StreamPlatform
	channel: string
	status: 'active' | 'ended'
	creatorId: string
	creatorName: string | null
	minBoost: number
	maxDaresPerUser: number
	maxFreeDaresPerUser: number
	votingDuration: number
	createdAt: string
	endedAt: string | null
}

type SessionRow = {
	id: string
	title: string
	platform: StreamPlatform
	channel: string
	status: 'active' | 'ended'
	creator_id: string
	creator_name: string | null
	min_boost: number
	max_dares_per_user: number
	max_free_dares_per_user: number
	voting_duration: number
	created_at: Date | string
	ended_at: Date | string | null
}

const SELECT_SESSION = `
	select s.id, s.title, s.platform, s.channel, s.status, s.creator_id, p.username as creator_name,
	       s.min_boost, s.max_dares_per_user, s.max_free_dares_per_user, s.voting_duration, s.created_at, s.ended_at
	from public.sessions s
	left join public.public_profiles p on p.id = s.creator_id`

function toSummary(row: SessionRow): SessionSummary {
	return {
		id: row.id,
		title: row.title,
		platform: row.platform,
		channel: row.channel,
		status: row.status,
		creatorId: row.creator_id,
		creatorName: row.creator_name,
		minBoost: Number(row.min_boost),
		maxDaresPerUser: Number(row.max_dares_per_user),
		maxFreeDaresPerUser: Number(row.max_free_dares_per_user),
		votingDuration: Number(row.voting_duration),
		createdAt: new Date(row.created_at).toISOString(),
		endedAt: row.ended_at ? new Date(row.ended_at).toISOString() : null,
	}
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export async function getSessionById(tx: Queryable, id: string): Promise<SessionSummary | null> {
	if (!UUID.test(id)) return null
	const { rows } = await tx.query<SessionRow>(`${SELECT_SESSION} where s.id = $1`, [id])
	return rows[0] ? toSummary(rows[0]) : null
}

/** The channel's active session, else its most recent one (docs/product.md §3.1). */
export async function getChannelSession(
	tx: Queryable,
	platform: StreamPlatform,
	channel: string,
): Promise<SessionSummary | null> {
	const { rows } = await tx.query<SessionRow>(
		`${SELECT_SESSION}
		 where s.platform = $1 and lower(s.channel) = lower($2)
		 order by (s.status = 'active') desc, s.created_at desc
		 limit 1`,
		[platform, channel],
	)
	return rows[0] ? toSummary(rows[0]) : null
}

/** A live session as home's cards show it: with its dare count and the coins in its pots. */
export type LiveSession = SessionSummary & { dareCount: number; potTotal: number }

/**
 * Live sessions for the home page, optionally filtered by channel name, most
 * active first: the most coins at stake, then the most dares, then the newest.
 */
export async function listLiveSessions(
	tx: Queryable,
	{ channel, limit = 48 }: { channel?: string; limit?: number } = {},
): Promise<LiveSession[]> {
	const filter = channel?.trim()
	const { rows } = await tx.query<SessionRow & { dares: number; pot: string | number }>(
		`select live.*, t.dares, t.pot from (
		   ${SELECT_SESSION}
		   where s.status = 'active'
		     and ($1::text is null or s.channel ilike '%' || replace(replace(replace($1, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
		 ) live
		 cross join lateral public.session_totals(live.id) t
		 order by t.pot desc, t.dares desc, live.created_at desc
		 limit $2`,
		[filter ? filter : null, limit],
	)
	return rows.map((row) => ({ ...toSummary(row), dareCount: row.dares, potTotal: Number(row.pot) }))
}

/** A creator's sessions, newest first (the channel page's "other sessions"). */
export async function listCreatorSessions(
	tx: Queryable,
	creatorId: string,
	{ exclude, limit = 10 }: { exclude?: string; limit?: number } = {},
): Promise<SessionSummary[]> {
	const { rows } = await tx.query<SessionRow>(
		`${SELECT_SESSION}
		 where s.creator_id = $1 and ($2::uuid is null or s.id <> $2::uuid)
		 order by s.created_at desc
		 limit $3`,
		[creatorId, exclude ?? null, limit],
	)
	return rows.map(toSummary)
}

/** What a session page shows, for the page and for GET /api/session alike. */
export type SessionPageData = {
	session: SessionSummary
	/** The creator's other sessions, newest first. */
	otherSessions: SessionSummary[]
	/** The viewer is the session's creator (their controls are shown). */
	isCreator: boolean
}

export async function sessionPageData(tx: Queryable, session: SessionSummary, viewerId: string | null): Promise<SessionPageData> {
	const otherSessions = await listCreatorSessions(tx, session.creatorId, { exclude: session.id, limit: 6 })
	return { session, otherSessions, isCreator: viewerId === session.creatorId }
}

// ---------------------------------------------------------------------------
// The viewer as a creator (queries run as the viewer: RLS shows their own row)
// ---------------------------------------------------------------------------

export type LinkedChannel = { platform: StreamPlatform; channel: string }

/** The viewer's linked channels in platform order (empty: not a creator). */
export async function getLinkedChannels(tx: Queryable): Promise<LinkedChannel[]> {
	const { rows } = await tx.query<{ twitch_channel: string | null; youtube_channel: string | null; kick_channel: string | null }>(
		'select twitch_channel, youtube_channel, kick_channel from public.creator_profiles where id = auth.uid()',
	)
	const row = rows[0]
	if (!row) return []
	return PLATFORMS.flatMap((platform) => {
		const channel = row[`${platform}_channel`]
		return channel ? [{ platform, channel }] : []
	})
}

export async function hasCreatorAgreement(tx: Queryable, version: string): Promise<boolean> {
	const { rows } = await tx.query<{ creator_agreement: boolean }>('select creator_agreement from public.has_consented($1, $1)', [version])
	return rows[0]?.creator_agreement === true
}

export async function acceptCreatorAgreement(tx: Queryable, version: string): Promise<void> {
	await tx.query(`select public.give_consent('creator_agreement', $1)`, [version])
}

/** create_session for the viewer on their channel of `input.platform`; SQL checks every rule. */
export async function startSession(tx: Queryable, input: StartSessionInput, channel: string): Promise<SessionSummary> {
	const { rows } = await tx.query<{ id: string }>('select id from public.create_session($1, $2, $3, $4, $5, $6, $7)', [
		input.title,
		input.minBoost,
		input.maxDaresPerUser,
		input.maxFreeDaresPerUser,
		input.platform,
		channel,
		input.votingDuration,
	])
	const session = rows[0] ? await getSessionById(tx, rows[0].id) : null
	if (!session) throw new Error('create_session returned no session')
	return session
}

/** Stops the caller's live session, settling its dares; the same key again answers as the first call did. */
export async function stopActiveSession(tx: Queryable, key: string | null): Promise<SessionSummary> {
	const { rows } = await tx.query<{ id: string }>('select id from public.stop_active_session($1)', [key])
	const session = rows[0] ? await getSessionById(tx, rows[0].id) : null
	if (!session) throw new Error('stop_active_session returned no session')
	return session
}

export async function linkTwitchChannel(tx: Queryable): Promise<void> {
	await tx.query('select public.link_twitch_channel()')
}

export async function unlinkChannel(tx: Queryable, platform: StreamPlatform): Promise<void> {
	await tx.query('select public.unlink_channel($1)', [platform])
}
