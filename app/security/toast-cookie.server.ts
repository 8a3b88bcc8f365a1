import { createHmac, timingSafeEqual } from 'node:crypto'
import { createCookie, type Cookie } from 'react-router'
import { setToastCookieOptions } from 'remix-toast'
import type { Env } from '#app/env.server'
import { cookiePairs } from '#app/utils/cookies'
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
	// remix-toast builds its cookie session storage on these options; given a
	// whole Cookie (React Router's isCookie: name, isSigned, parse, serialize),
	// the storage uses it as it is.
	setToastCookieOptions(signedCookie(TOAST_COOKIE, secret, { secure: new URL(env.APP_URL).protocol === 'https:', sameSite: 'lax', httpOnly: true, path: '/' }))
	return source
}

/**
 * A signed cookie exactly as React Router's createCookie(name, { secrets:
 * [secret] }) writes and reads it (`name=base64(JSON).HMAC-SHA256` without
 * the base64 padding, percent-encoded): cookies of either verify with the
 * other. The signature is Node's synchronous HMAC instead of Web Crypto's
 * importKey and sign, which cost a boost about a tenth of its time
 * (issue 22). A value whose signature does not verify reads as no value.
 */
export function signedCookie(name: string, secret: string, attributes: { secure: boolean; sameSite: 'lax' | 'strict'; httpOnly: boolean; path: string }): Cookie {
	// React Router writes the attributes; its value encoding gets the signature.
	const unsigned = createCookie(name, { ...attributes, secrets: [] })
	const signature = (value: string) => createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, '')
	const sign = (value: string) => encodeURIComponent(`${value}.${signature(value)}`)
	return {
		name,
		isSigned: true,
		expires: undefined,
		async parse(cookieHeader) {
			const pair = cookiePairs(cookieHeader).find(([n]) => n === name)
			if (!pair) return null
			let value: string
			try {
				value = decodeURIComponent(pair[1])
			} catch {
				return null
			}
			if (value === '') return ''
			const dot = value.lastIndexOf('.')
			if (dot === -1) return null
			const data = value.slice(0, dot)
			const given = Buffer.from(value.slice(dot + 1))
			const expected = Buffer.from(signature(data))
			if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
			try {
				return JSON.parse(Buffer.from(data, 'base64').toString('utf8'))
			} catch {
				return {}
			}
		},
		serialize(value, options) {
			// React Router base64-encodes the value and hands it to `encode`; an empty value (a deletion) stays empty.
			return unsigned.serialize(value, { ...options, encode: (encoded: string) => (encoded === '' ? '' : sign(encoded)) })
		},
	}
}
