import { createCookieSessionStorage } from 'react-router'
import { getToast, redirectWithSuccess } from 'remix-toast'
import { afterAll, expect, test } from 'vitest'
import { configureToastCookie } from './toast-cookie.server'

const secret = 'a-better-auth-secret-that-is-long-enough-0123456789'

afterAll(() => {
	configureToastCookie({ BETTER_AUTH_SECRET: secret, APP_URL: 'http://localhost:3000', COOKIE_SECRET: undefined })
})

/** A toast cookie as anyone could sign it with remix-toast's published default secret. */
async function forgedCookie(): Promise<string> {
	const storage = createCookieSessionStorage({ cookie: { name: 'toast-session', secrets: ['s3Cr3t'], path: '/', sameSite: 'lax', httpOnly: true } })
	const session = await storage.getSession()
	session.flash('flash', { toast: { message: 'Your account was deleted. Click here', type: 'error' } })
	return (await storage.commitSession(session)).split(';')[0]!
}

test("toast forgery: a flash cookie signed with the library's public default secret is ignored", async () => {
	configureToastCookie({ BETTER_AUTH_SECRET: secret, APP_URL: 'http://localhost:3000', COOKIE_SECRET: undefined })
	const { toast } = await getToast(new Request('http://localhost:3000/en', { headers: { cookie: await forgedCookie() } }))
	expect(toast).toBeUndefined()
})

test("the app's own toast cookie round-trips, and is Secure on https", async () => {
	expect(configureToastCookie({ BETTER_AUTH_SECRET: secret, APP_URL: 'https://dares.example', COOKIE_SECRET: undefined })).toBe('derived')
	const response = await redirectWithSuccess('/en', 'Saved')
	const setCookie = response.headers.get('set-cookie')!
	expect(setCookie).toMatch(/;\s*Secure/i)
	expect(setCookie).toMatch(/HttpOnly/i)
	const { toast } = await getToast(new Request('https://dares.example/en', { headers: { cookie: setCookie.split(';')[0]! } }))
	expect(toast?.message).toBe('Saved')
})

test('COOKIE_SECRET wins, and without any secret the key is random per process', () => {
	expect(configureToastCookie({ COOKIE_SECRET: 'c'.repeat(32), BETTER_AUTH_SECRET: secret, APP_URL: 'http://localhost:3000' })).toBe('COOKIE_SECRET')
	expect(configureToastCookie({ COOKIE_SECRET: undefined, BETTER_AUTH_SECRET: undefined, APP_URL: 'http://localhost:3000' })).toBe('random')
})
