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
