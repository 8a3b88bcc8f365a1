import { createHmac, randomBytes } from 'node:crypto'
import { setToastCookieOptions } from 'remix-toast'
import type { Env } from '#app/env.server'

/**
 * The flash-message cookie (remix-toast) is signed with a key of ours, not
 * the library's published default: COOKIE_SECRET, else a key derived from
 * BETTER_AUTH_SECRET (so the auth secret itself never signs a second kind
 * of cookie), else a random key for this process (the Supabase platform
 * without COOKIE_SECRET: a toast then does not survive a restart). `Secure`
 * when the site is https. Returns where the key came from, for the boot log.
 */
export function configureToastCookie(env: Pick<Env, 'COOKIE_SECRET' | 'BETTER_AUTH_SECRET' | 'APP_URL'>): 'COOKIE_SECRET' | 'derived' | 'random' {
	const source = env.COOKIE_SECRET ? 'COOKIE_SECRET' : env.BETTER_AUTH_SECRET ? 'derived' : 'random'
	const secret =
		env.COOKIE_SECRET ??
		(env.BETTER_AUTH_SECRET
			? createHmac('sha256', env.BETTER_AUTH_SECRET).update('dareboost:toast-cookie:v1').digest('base64url')
			: randomBytes(32).toString('base64url'))
	setToastCookieOptions({
		name: 'toast-session',
		secrets: [secret],
		secure: new URL(env.APP_URL).protocol === 'https:',
		sameSite: 'lax',
		httpOnly: true,
		path: '/',
	})
	return source
}
