import type { Queryable } from '#app/db/database.server'

export const PLATFORMS = ['twitch', 'youtube', 'kick'] as const
export type StreamPlatform = (typeof PLATFORMS)[number]

export function isPlatform(value: unknown): value is StreamPlatform {
	return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value)
}

export interface SessionSummary {
	id: string
	title: string
	platform: StreamPlatform
	channel: string
	status: 'active' | 'ended'
	creatorId: string
	creatorName: string | null
	minBoost: number
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
	voting_duration: number
	created_at: Date | string
	ended_at: Date | string | null
}

const SELECT_SESSION = `
	select s.id, s.title, s.platform, s.channel, s.status, s.creator_id, p.username as creator_name,
	       s.min_boost, s.voting_duration, s.created_at, s.ended_at
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

/** The channel's active session, else its most recent one (PRODUCT.md, Sessions). */
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

/** Live sessions for the home page, newest first, optionally filtered by channel name. */
export async function listLiveSessions(
	tx: Queryable,
	{ channel, limit = 48 }: { channel?: string; limit?: number } = {},
): Promise<SessionSummary[]> {
	const filter = channel?.trim()
	const { rows } = await tx.query<SessionRow>(
		`${SELECT_SESSION}
		 where s.status = 'active'
		   and ($1::text is null or s.channel ilike '%' || replace(replace(replace($1, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
		 order by s.created_at desc
		 limit $2`,
		[filter ? filter : null, limit],
	)
	return rows.map(toSummary)
}
