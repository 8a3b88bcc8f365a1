import { setToastCookieOptions } from 'remix-toast'
import type { Env } from '#app/env.server'
import { cookieSecret, type CookieSecretSource } from './cookie-secret.server'

export const TOAST_COOKIE = 'toast-session'

/**
 * The flash-message cookie (remix-toast) is signed with a key of ours, not
 * the library's published default (cookieSecret: COOKIE_SECRET, else
 * BETTER_AUTH_SECRET, else random per process). `Secure` when the site is
 * https. Returns where the key came from, for the boot log.
 */
export function configureToastCookie(env: Pick<Env, 'COOKIE_SECRET' | 'BETTER_AUTH_SECRET' | 'APP_URL'>): CookieSecretSource {
	const { secret, source } = cookieSecret(env, 'toast-cookie')
	setToastCookieOptions({
		name: TOAST_COOKIE,
		secrets: [secret],
		secure: new URL(env.APP_URL).protocol === 'https:',
		sameSite: 'lax',
		httpOnly: true,
		path: '/',
	})
	return source
}
