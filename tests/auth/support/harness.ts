import { randomBytes, randomUUID } from 'node:crypto'
import { afterEach, expect } from 'vitest'
import { createLocalAuth, type LocalAuth } from '#app/modules/account/backends/better-auth/backend.server'
import type { AuthLogLevel } from '#app/modules/account/limits.server'
import type { LocalAuthOptions } from '#app/modules/account/backends/better-auth/options.server'
import type { Database } from '#app/db/database.server'
import { createSmtpMailer } from '#app/mail/smtp.server'
import type { Locale } from '#app/i18n/locales'
import type { AuthResult } from '#app/modules/account/types'
import type { MailCatcher } from '#tests/support/mail-catcher.js'

export const APP_URL = 'http://localhost:3000'

export interface Harness extends LocalAuth {
	log: { level: AuthLogLevel; message: string; details: unknown[] }[]
	/** Error-level log lines this test provokes on purpose (matched by substring). */
	expectedErrors: string[]
	browser(headers?: Record<string, string>): Browser
}

// An error the auth layer logs fails the test (as console.error does, see
// tests/setup), unless the test said it provokes it. Mails still in flight
// are awaited first, so a failed send is caught too.
const live: Harness[] = []
afterEach(async () => {
	const harnesses = live.splice(0)
	for (const h of harnesses) await h.settled()
	for (const h of harnesses) {
		if (process.env.DEBUG_AUTH_LOG) for (const l of h.log) console.log('AUTHLOG', l.level, l.message, ...l.details.map(String))
		const unexpected = h.log.filter((l) => l.level === 'error' && !h.expectedErrors.some((e) => l.message.includes(e)))
		expect(unexpected.map((l) => `${l.message} ${l.details.map(String).join(' ')}`)).toEqual([])
	}
})

/** The local account backend on a test database, mailing through the loopback SMTP server. */
export function createHarness(db: Database, mail: MailCatcher, options: Partial<LocalAuthOptions> = {}): Harness {
	const log: Harness['log'] = []
	const local = createLocalAuth(db, createSmtpMailer(mail.smtpUrl, 'Dareboost <no-reply@test.local>'), {
		appUrl: APP_URL,
		secret: randomBytes(32).toString('base64url'),
		log: (level, message, ...details) => log.push({ level, message, details }),
		...options,
	})
	const harness: Harness = { ...local, log, expectedErrors: [], browser: (headers) => new Browser(headers) }
	live.push(harness)
	return harness
}

export function uniqueEmail(tag = 'user'): string {
	return `${tag}-${randomUUID().slice(0, 8)}@test.local`
}

/**
 * One browser's cookies for the app: builds the Request a route would get
 * and keeps what responses set, including expiry, as a browser would.
 */
export class Browser {
	readonly cookies = new Map<string, string>()
	readonly #headers: Record<string, string>

	constructor(headers: Record<string, string> = {}) {
		this.#headers = headers
	}

	request(path: string, init: { method?: string; headers?: Record<string, string> } = {}): Request {
		const headers = new Headers({ 'user-agent': 'vitest', ...this.#headers, ...init.headers })
		const cookie = this.cookieHeader()
		if (cookie) headers.set('cookie', cookie)
		return new Request(new URL(path, APP_URL), { method: init.method ?? 'POST', headers })
	}

	cookieHeader(): string {
		return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
	}

	absorb(headers: Headers): void {
		for (const line of headers.getSetCookie()) {
			const [pair = '', ...attributes] = line.split(';').map((part) => part.trim())
			const index = pair.indexOf('=')
			const name = pair.slice(0, index)
			const value = pair.slice(index + 1)
			const maxAge = attributes.find((a) => /^max-age=/i.test(a))
			const expires = attributes.find((a) => /^expires=/i.test(a))
			const expired =
				(maxAge !== undefined && Number(maxAge.split('=')[1]) <= 0) ||
				(expires !== undefined && new Date(expires.slice(8)).getTime() <= Date.now())
			if (expired || value === '') this.cookies.delete(name)
			else this.cookies.set(name, value)
		}
	}

	/** Keep the cookies of a result and return it. */
	take<T>(result: AuthResult<T>): AuthResult<T> {
		this.absorb(result.headers)
		return result
	}

	hasSession(): boolean {
		return [...this.cookies.keys()].some((name) => name.endsWith('.session_token'))
	}
}

export function expectOk<T>(result: AuthResult<T>): T {
	if (!result.ok) expect.fail(`expected success, got ${JSON.stringify(result.error)}`)
	return result.data
}

export function expectError<T>(result: AuthResult<T>, code: string, status?: number) {
	if (result.ok) expect.fail(`expected ${code}, got success`)
	expect(result.error.code).toBe(code)
	if (status !== undefined) expect(result.error.status).toBe(status)
	return result.error
}

/** Follow a confirmation or reset link out of a mail as the page would: its query, on the app's origin. */
export function appPathOf(link: string): string {
	const url = new URL(link)
	expect(url.origin).toBe(APP_URL)
	return `${url.pathname}${url.search}`
}

/** A confirmed account, signed in on `browser` through its confirmation link; returns the mail's link too. */
export async function signUpAndConfirm(
	h: Harness,
	mail: MailCatcher,
	browser: Browser,
	{ email = uniqueEmail(), password = 'correct horse', locale = 'en' }: { email?: string; password?: string; locale?: Locale } = {},
): Promise<{ email: string; password: string; userId: string }> {
	const since = mail.mailsTo(email).length
	expectOk(browser.take(await h.accounts.signUp(browser.request(`/${locale}/register`), { email, password, locale, redirectTo: `/${locale}` })))
	const link = (await mail.waitFor(email, since)).links.find((l) => l.includes('/confirm?'))
	if (!link) expect.fail('no confirmation link in the mail')
	expectOk(browser.take(await h.accounts.confirmEmail(browser.request(appPathOf(link), { method: 'GET' }))))
	const { viewer } = await h.auth.getViewer(browser.request('/', { method: 'GET' }))
	if (!viewer) expect.fail('not signed in after confirming')
	return { email, password, userId: viewer.userId }
}
