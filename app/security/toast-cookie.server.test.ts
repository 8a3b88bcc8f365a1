import { createCookie, createCookieSessionStorage } from 'react-router'
import { getToast, redirectWithSuccess } from 'remix-toast'
import { afterAll, describe, expect, test } from 'vitest'
import { configureToastCookie, signedCookie, TOAST_COOKIE } from './toast-cookie.server'

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

const ATTRIBUTES = { secure: false, sameSite: 'lax' as const, httpOnly: true, path: '/' }
const VALUE = { __flash_flash__: { toast: { message: 'Größe ✓ "quoted"; a=b', type: 'success' } } }

describe('the flash-message cookie', () => {
	test('is written byte for byte as React Router signs it, and either reads the other', async () => {
		const theirs = createCookie(TOAST_COOKIE, { ...ATTRIBUTES, secrets: ['k1'] })
		const ours = signedCookie(TOAST_COOKIE, 'k1', ATTRIBUTES)
		const written = await ours.serialize(VALUE)
		expect(written).toBe(await theirs.serialize(VALUE))
		const pair = written.split(';')[0]!
		expect(await ours.parse(`a=1; ${pair}`)).toEqual(VALUE)
		expect(await theirs.parse(pair)).toEqual(VALUE)
		// A deletion, as the session storage writes it.
		expect(await ours.serialize('', { expires: new Date(0) })).toBe(await theirs.serialize('', { expires: new Date(0) }))
		expect(await ours.parse(`${TOAST_COOKIE}=`)).toBe('')
		expect(await ours.parse('other=1')).toBeNull()
	})

	test('refuses a value signed with another key, changed, or unsigned', async () => {
		const ours = signedCookie(TOAST_COOKIE, 'k1', ATTRIBUTES)
		const pair = (await signedCookie(TOAST_COOKIE, 'k2', ATTRIBUTES).serialize(VALUE)).split(';')[0]!
		expect(await ours.parse(pair)).toBeNull()
		const genuine = (await ours.serialize(VALUE)).split(';')[0]!
		const [data, signature] = decodeURIComponent(genuine.slice(TOAST_COOKIE.length + 1)).split('.')
		const forged = Buffer.from(JSON.stringify({ __flash_flash__: { toast: { message: 'forged', type: 'error' } } })).toString('base64')
		expect(await ours.parse(`${TOAST_COOKIE}=${encodeURIComponent(`${forged}.${signature}`)}`)).toBeNull()
		expect(await ours.parse(`${TOAST_COOKIE}=${encodeURIComponent(data!)}`)).toBeNull()
		expect(await ours.parse(`${TOAST_COOKIE}=%E0%A4%A`)).toBeNull()
	})

	test("is what remix-toast's redirects write and its getToast reads", async () => {
		configureToastCookie({ COOKIE_SECRET: 'a-cookie-secret-that-is-long-enough-0123456789', BETTER_AUTH_SECRET: undefined, APP_URL: 'https://app.test' })
		const response = await redirectWithSuccess('/en', 'Boosted')
		const cookie = response.headers.get('set-cookie')!
		expect(cookie).toMatch(/^toast-session=[^;]+\.[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
		const { toast } = await getToast(new Request('https://app.test/en', { headers: { cookie: cookie.split(';')[0]! } }))
		expect(toast).toMatchObject({ message: 'Boosted', type: 'success' })
		const other = await signedCookie(TOAST_COOKIE, 'not-the-key', { ...ATTRIBUTES, secure: true }).serialize({ __flash_flash__: { toast: { message: 'forged', type: 'success' } } })
		expect((await getToast(new Request('https://app.test/en', { headers: { cookie: other.split(';')[0]! } }))).toast).toBeUndefined()
	})
})
