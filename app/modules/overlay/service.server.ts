import type { Queryable } from '#app/db/database.server'

/** The session's overlay key, for its creator (public.overlay_key refuses anyone else). */
export async function overlayKey(tx: Queryable, sessionId: string): Promise<string> {
	const { rows } = await tx.query<{ key: string }>('select public.overlay_key($1) as key', [sessionId])
	return rows[0]!.key
}

/** A new key for the creator's session: the overlay URL copied before stops working. */
export async function regenerateOverlayKey(tx: Queryable, sessionId: string): Promise<string> {
	const { rows } = await tx.query<{ key: string }>('select public.regenerate_overlay_key($1) as key', [sessionId])
	return rows[0]!.key
}

/** Whether `key` opens the overlay of the session (asked as anyone, decided in SQL). */
export async function overlayKeyValid(tx: Queryable, sessionId: string, key: string | null): Promise<boolean> {
	if (!key || !/^[0-9a-f]{64}$/.test(key)) return false
	const { rows } = await tx.query<{ ok: boolean }>('select public.overlay_key_valid($1, $2) as ok', [sessionId, key])
	return rows[0]?.ok === true
}

export const overlayPath = (lang: string, sessionId: string, key: string) => `/${lang}/overlay/${sessionId}?key=${key}`

/** A booster the overlay names, with their coins in the session. */
export interface TopBooster {
	username: string
	coins: number
}

/** How many top boosters the overlay lists. */
export const TOP_BOOSTERS = 3

/** SQLSTATE undefined_function: a database the function has not reached yet. */
const UNDEFINED_FUNCTION = '42883'

/**
 * The session's top boosters (public.session_top_boosters, a definer
 * function: who boosted how much is not readable otherwise). Null when the
 * database has no such function (an instance newer than its migrations):
 * the overlay then shows the rest. In a savepoint, so that the failed call
 * does not end the loader's transaction.
 */
export async function readTopBoosters(tx: Queryable, sessionId: string, limit = TOP_BOOSTERS): Promise<TopBooster[] | null> {
	await tx.query('savepoint top_boosters')
	try {
		const { rows } = await tx.query<{ username: string | null; coins: string | number }>(
			'select username, coins from public.session_top_boosters($1, $2)',
			[sessionId, limit],
		)
		await tx.query('release savepoint top_boosters')
		return rows.flatMap((r) => (r.username ? [{ username: r.username, coins: Number(r.coins) }] : []))
	} catch (error) {
		if ((error as { code?: unknown } | null)?.code !== UNDEFINED_FUNCTION) throw error
		await tx.query('rollback to savepoint top_boosters')
		return null
	}
}

/** Where viewers join: the channel's page (it shows the live session), as a link and as the text the overlay shows. */
export function joinAddress(appUrl: string, lang: string, session: { platform: string; channel: string }): { url: string; label: string } {
	const url = new URL(`/${lang}/${session.platform}/${encodeURIComponent(session.channel)}`, appUrl)
	return { url: url.toString(), label: `${url.host}${decodeURIComponent(url.pathname)}` }
}
