import { createHmac, randomBytes } from 'node:crypto'
import type { Env } from '#app/env.server'

export type CookieSecretSource = 'COOKIE_SECRET' | 'derived' | 'random'

/** One random key per process, for when neither secret is set (see below). */
let processKey: string | undefined

/**
 * The key that signs one kind of the app's own cookies (`purpose` names it,
 * e.g. 'toast-cookie'): derived from COOKIE_SECRET, else from
 * BETTER_AUTH_SECRET (so the auth secret itself never signs a second kind of
 * cookie), else from a random key of this process (the Supabase platform
 * without COOKIE_SECRET: such a cookie then does not survive a restart or a
 * hop to another instance). Each purpose gets its own key, so a cookie of one
 * kind never verifies as another.
 */
export function cookieSecret(
	env: Pick<Env, 'COOKIE_SECRET' | 'BETTER_AUTH_SECRET'>,
	purpose: string,
): { secret: string; source: CookieSecretSource } {
	const source: CookieSecretSource = env.COOKIE_SECRET ? 'COOKIE_SECRET' : env.BETTER_AUTH_SECRET ? 'derived' : 'random'
	const root = env.COOKIE_SECRET ?? env.BETTER_AUTH_SECRET ?? (processKey ??= randomBytes(32).toString('base64url'))
	return { secret: createHmac('sha256', root).update(`dareboost:${purpose}:v1`).digest('base64url'), source }
}
