import { afterAll, beforeAll, expect, test } from 'vitest'
import { DEFAULT_RATE_LIMITS } from '#app/modules/account/limits.server'
import { DEVICE_COOKIE } from '#app/modules/account/service.server'
import { asUser } from '#app/db/as-user.server'
import type { Database } from '#app/db/database.server'
import { publishDocumentVersions } from '#app/db/published-documents.server'
import { describeEachDatabase } from '#tests/support/databases'
import { startMailCatcher, type MailCatcher } from '#tests/support/mail-catcher.js'
import { fundWallet, ledgerProblems } from '#tests/support/wallet'
import {
	appPathOf,
	createHarness,
	expectError,
	expectOk,
	signUpAndConfirm,
	uniqueEmail,
	type Browser,
	type Harness,
} from './support/harness'

/**
 * The local platform's e-mail and password accounts (app/modules/account/backends/better-auth) end to
 * end: Better Auth on a real database, mails through a real SMTP server on
 * loopback, links followed out of the mails.
 */

let mail: MailCatcher
beforeAll(async () => {
	mail = await startMailCatcher()
})
afterAll(async () => {
	await mail.close()
})

async function userRows(db: Database, email: string) {
	const ba = await db.query<{ id: string }>('select id from better_auth."user" where email = $1', [email])
	const auth = await db.query<{ id: string }>('select id from auth.users where email = $1', [email])
	return { betterAuth: ba.rows.map((r) => r.id), authUsers: auth.rows.map((r) => r.id) }
}

async function viewerOf(h: Harness, browser: Browser) {
	return (await h.auth.getViewer(browser.request('/', { method: 'GET' }))).viewer
}

describeEachDatabase('e-mail and password accounts', (getDb) => {
	test('sign-up, the confirmation mail, confirm, sign-in: the viewer is the user and RLS shows their wallet', async () => {
		const db = getDb()
		const h = createHarness(db, mail)
		const browser = h.browser()
		const email = uniqueEmail()

		const signedUp = browser.take(await h.accounts.signUp(browser.request('/de/register'), {
			email: `  ${email.toUpperCase()} `,
			password: 'correct horse',
			locale: 'de',
			redirectTo: '/de/session/abc',
		}))
		expect(expectOk(signedUp)).toBeNull()
		// Nothing is signed in before the address is confirmed (the one cookie says this browser typed the password).
		expect(signedUp.headers.getSetCookie().filter((c) => !c.startsWith(`${DEVICE_COOKIE}=`))).toEqual([])

		const sent = await mail.waitFor(email, 0)
		expect(sent.subject).toBe('Bestätige dein Dareboost-Konto')
		expect(sent.text).toContain('Bitte bestätige deine E-Mail-Adresse')
		const link = sent.links.find((l) => l.includes('/confirm?'))
		if (!link) expect.fail('no confirmation link')
		const linkUrl = new URL(link)
		expect(linkUrl.origin + linkUrl.pathname).toBe('http://localhost:3000/de/confirm')
		expect(linkUrl.searchParams.get('redirect-to')).toBe('/de/session/abc')
		expect(sent.html).toContain(link.replaceAll('&', '&amp;'))

		const confirmed = browser.take(await h.accounts.confirmEmail(browser.request(appPathOf(link), { method: 'GET' })))
		expect(expectOk(confirmed)).toEqual({ redirectTo: '/de/session/abc', signedIn: true })

		const viewer = await viewerOf(h, browser)
		if (!viewer) expect.fail('the confirmation link did not sign the user in')
		expect(viewer.claims).toEqual({
			sub: viewer.userId,
			role: 'authenticated',
			email,
			aal: 'aal1',
			session_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
		})
		expect(viewer.email).toBe(email)

		// Signing in with the password works too, from another browser.
		const laptop = h.browser()
		expect(expectOk(laptop.take(await h.accounts.signIn(laptop.request('/de/login'), { email, password: 'correct horse' })))).toEqual({
			totpRequired: false,
		})
		const again = await viewerOf(h, laptop)
		expect(again?.userId).toBe(viewer.userId)
		expect(again?.claims.session_id).not.toBe(viewer.claims.session_id)

		// The database sees the user as Supabase's would: their wallet, nobody else's.
		await fundWallet(db, viewer.userId, 70)
		const other = await signUpAndConfirm(h, mail, h.browser())
		await fundWallet(db, other.userId, 30)
		const wallets = await asUser(db, viewer.claims, (tx) => tx.query('select id, balance from public.wallets'))
		expect(wallets.rows).toEqual([{ id: viewer.userId, balance: 70 }])
	})

	test('the confirmation link works once; a forged or broken token is refused', async () => {
		const h = createHarness(getDb(), mail)
		const email = uniqueEmail()
		const first = h.browser()
		expectOk(first.take(await h.accounts.signUp(first.request('/en/register'), { email, password: 'secret123', locale: 'en', redirectTo: '/en' })))
		const link = (await mail.waitFor(email, 0)).links.find((l) => l.includes('/confirm?'))!
		const url = new URL(link)
		const token = url.searchParams.get('token')!
		// redirect-to only ever leads to a path of this site.
		const hostile = new URL(link)
		hostile.searchParams.set('redirect-to', 'https://evil.example/steal')
		expect(expectOk(first.take(await h.accounts.confirmEmail(first.request(appPathOf(hostile.toString()), { method: 'GET' }))))).toEqual({
			redirectTo: '/en',
			signedIn: true,
		})
		expect(first.hasSession()).toBe(true)

		// Clicked again (or by someone who got hold of the mail later): refused
		// like an expired link (the page then offers a new mail), and no session.
		const second = h.browser()
		expectError(second.take(await h.accounts.confirmEmail(second.request(appPathOf(link), { method: 'GET' }))), 'error-invalid-token', 401)
		expect(second.hasSession()).toBe(false)

		url.searchParams.set('token', `${token.slice(0, -4)}AAAA`)
		expectError(await h.accounts.confirmEmail(second.request(appPathOf(url.toString()), { method: 'GET' })), 'error-invalid-token', 401)
		expectError(await h.accounts.confirmEmail(second.request('/en/confirm', { method: 'GET' })), 'error-invalid-token', 401)
	})

	test('an unconfirmed account cannot sign in; wrong and unknown credentials get the same refusal', async () => {
		const h = createHarness(getDb(), mail)
		const browser = h.browser()
		const email = uniqueEmail()
		expectOk(await h.accounts.signUp(browser.request('/en/register'), { email, password: 'secret123', locale: 'en', redirectTo: '/en' }))

		// Answered as a wrong password: after a sign-up, "not confirmed" would tell whether the address had a confirmed account.
		expectError(await h.accounts.signIn(browser.request('/en/login'), { email, password: 'secret123' }), 'error-invalid-credentials', 400)
		expect(browser.hasSession()).toBe(false)

		const link = (await mail.waitFor(email, 0)).links.find((l) => l.includes('/confirm?'))!
		expectOk(await h.accounts.confirmEmail(h.browser().request(appPathOf(link), { method: 'GET' })))

		const wrong = browser.take(await h.accounts.signIn(browser.request('/en/login'), { email, password: 'secret124' }))
		const unknown = await h.accounts.signIn(browser.request('/en/login'), { email: uniqueEmail(), password: 'secret123' })
		expectError(wrong, 'error-invalid-credentials', 400)
		expectError(unknown, 'error-invalid-credentials', 400)
		expect(browser.hasSession()).toBe(false)
		expectError(await h.accounts.signIn(browser.request('/en/login'), { email: 'not an address', password: 'x' }), 'error-invalid-email', 400)

		expectOk(browser.take(await h.accounts.signIn(browser.request('/en/login'), { email, password: 'secret123' })))
		expect(browser.hasSession()).toBe(true)
	})

	test('every sign-in starts a new session and ends the one the browser held', async () => {
		const db = getDb()
		const h = createHarness(db, mail)
		const { email, password } = await signUpAndConfirm(h, mail, h.browser())
		const browser = h.browser()
		expectOk(browser.take(await h.accounts.signIn(browser.request('/en/login'), { email, password })))
		const first = await viewerOf(h, browser)
		const firstCookie = browser.cookieHeader()

		expectOk(browser.take(await h.accounts.signIn(browser.request('/en/login'), { email, password })))
		const second = await viewerOf(h, browser)
		expect(second?.claims.session_id).toBeDefined()
		expect(second?.claims.session_id).not.toBe(first?.claims.session_id)
		expect(browser.cookieHeader()).not.toBe(firstCookie)

		// The previous session is gone from the database, not just from the cookie jar.
		const { rows } = await db.query('select 1 from better_auth.session where id = $1', [first?.claims.session_id])
		expect(rows).toEqual([])
		const stale = await h.auth.getViewer(new Request('http://localhost:3000/', { headers: { cookie: firstCookie } }))
		expect(stale.viewer).toBeNull()
	})

	test('session cookies are HttpOnly and SameSite=Lax, and Secure when the app is served over https', async () => {
		const db = getDb()
		const plain = createHarness(db, mail)
		const { email, password } = await signUpAndConfirm(plain, mail, plain.browser())
		const overHttp = await plain.accounts.signIn(plain.browser().request('/en/login'), { email, password })
		const httpCookie = overHttp.headers.getSetCookie().find((c) => c.startsWith('dareboost.session_token='))
		expect(httpCookie).toMatch(/; HttpOnly/i)
		expect(httpCookie).toMatch(/; SameSite=Lax/i)
		expect(httpCookie).toMatch(/; Path=\//i)
		expect(httpCookie).not.toMatch(/; Secure/i)

		const tls = createHarness(db, mail, { appUrl: 'https://dareboost.example' })
		const overHttps = await tls.accounts.signIn(tls.browser().request('/en/login'), { email, password })
		const httpsCookie = overHttps.headers.getSetCookie().find((c) => c.startsWith('__Secure-dareboost.session_token='))
		expect(httpsCookie).toMatch(/; Secure/i)
		expect(httpsCookie).toMatch(/; HttpOnly/i)
	})

	test('sign-up answers the same for a known and an unknown address, and never makes a second account', async () => {
		const db = getDb()
		const h = createHarness(db, mail)
		const known = await signUpAndConfirm(h, mail, h.browser())
		const mailsBefore = mail.mailsTo(known.email).length

		const timings = { known: [] as number[], unknown: [] as number[] }
		const answers = []
		for (let i = 0; i < 3; i++) {
			for (const which of ['known', 'unknown'] as const) {
				const email = which === 'known' ? known.email : uniqueEmail('new')
				const started = performance.now()
				const result = await h.accounts.signUp(h.browser().request('/en/register'), {
					email,
					password: 'another password',
					locale: 'en',
					redirectTo: '/en',
				})
				timings[which].push(performance.now() - started)
				answers.push({ ok: result.ok, data: result.ok ? result.data : null, cookies: result.headers.getSetCookie().map((c) => c.split('=')[0]) })
			}
		}
		expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1)
		// The same one cookie either way (this browser typed the address's password), no session.
		expect(answers[0]).toEqual({ ok: true, data: null, cookies: [DEVICE_COOKIE] })
		// Both do one password hash and a few queries: the same order of magnitude.
		const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length
		const ratio = mean(timings.known) / mean(timings.unknown)
		expect(ratio).toBeGreaterThan(0.25)
		expect(ratio).toBeLessThan(4)

		// Still one account, the original password still works, no mail to the owner.
		expect(await userRows(db, known.email)).toEqual({ betterAuth: [known.userId], authUsers: [known.userId] })
		expectOk(await h.accounts.signIn(h.browser().request('/en/login'), { email: known.email, password: known.password }))
		await h.settled()
		expect(mail.mailsTo(known.email).length).toBe(mailsBefore)
	})

	test('sign-up refuses invalid addresses and passwords outside 6 to 100 characters', async () => {
		const db = getDb()
		const h = createHarness(db, mail)
		const request = () => h.browser().request('/en/register')
		expectError(await h.accounts.signUp(request(), { email: 'nope', password: 'secret123', locale: 'en', redirectTo: '/en' }), 'error-invalid-email', 400)
		const short = expectError(
			await h.accounts.signUp(request(), { email: uniqueEmail(), password: '12345', locale: 'en', redirectTo: '/en' }),
			'error-weak-password',
			422,
		)
		expect(short.reasons).toEqual(['length'])
		expectError(await h.accounts.signUp(request(), { email: uniqueEmail(), password: 'x'.repeat(101), locale: 'en', redirectTo: '/en' }), 'error-weak-password')
		const sixAndHundred = [uniqueEmail(), uniqueEmail()]
		expectOk(await h.accounts.signUp(request(), { email: sixAndHundred[0]!, password: '123456', locale: 'en', redirectTo: '/en' }))
		expectOk(await h.accounts.signUp(request(), { email: sixAndHundred[1]!, password: 'y'.repeat(100), locale: 'en', redirectTo: '/en' }))
		const { rows } = await db.query<{ n: number }>('select count(*)::int as n from better_auth."user"')
		expect(rows[0]?.n).toBe(2)
	})

	test('resend waits 60 seconds per address, known or not, and then sends a working link', async () => {
		expect(DEFAULT_RATE_LIMITS.confirmationMailCooldownSeconds).toBe(60)
		const db = getDb()
		const h = createHarness(db, mail)
		const email = uniqueEmail()
		expectOk(await h.accounts.signUp(h.browser().request('/en/register'), { email, password: 'secret123', locale: 'en', redirectTo: '/en' }))
		await mail.waitFor(email, 0)

		// Right after sign-up the countdown is running, on the server too.
		const early = expectError(
			await h.accounts.resendConfirmation(h.browser().request('/en/register'), { email, locale: 'en', redirectTo: '/en' }),
			'error-rate-limited',
			429,
		)
		expect(Number(early.reasons?.[0])).toBeGreaterThanOrEqual(58)
		expect(Number(early.reasons?.[0])).toBeLessThanOrEqual(60)

		// An unknown address: the same answers in the same order.
		const stranger = uniqueEmail('nobody')
		expectOk(await h.accounts.resendConfirmation(h.browser().request('/en/register'), { email: stranger, locale: 'en', redirectTo: '/en' }))
		expectError(
			await h.accounts.resendConfirmation(h.browser().request('/en/register'), { email: stranger, locale: 'en', redirectTo: '/en' }),
			'error-rate-limited',
			429,
		)

		// With a short cooldown (same database, same counters), a resend after it goes out.
		const quick = createHarness(db, mail, { rateLimits: { confirmationMailCooldownSeconds: 1 } })
		const other = uniqueEmail()
		const browser = quick.browser()
		expectOk(browser.take(await quick.accounts.signUp(browser.request('/es/register'), { email: other, password: 'secret123', locale: 'es', redirectTo: '/es' })))
		await mail.waitFor(other, 0)
		expectError(await quick.accounts.resendConfirmation(quick.browser().request('/es'), { email: other, locale: 'es', redirectTo: '/es' }), 'error-rate-limited')
		await new Promise((resolve) => setTimeout(resolve, 1100))
		expectOk(await quick.accounts.resendConfirmation(quick.browser().request('/es'), { email: other, locale: 'es', redirectTo: '/es/y' }))
		const resent = await mail.waitFor(other, 1)
		expect(resent.subject).toBe('Confirma tu cuenta de Dareboost')
		const link = resent.links.find((l) => l.includes('/es/confirm?'))!
		expect(expectOk(browser.take(await quick.accounts.confirmEmail(browser.request(appPathOf(link), { method: 'GET' }))))).toEqual({
			redirectTo: '/es/y',
			signedIn: true,
		})
		expect(browser.hasSession()).toBe(true)
		await quick.settled()
		expect(mail.mailsTo(stranger)).toEqual([])
	})

	test('password reset: the same answer for any address, a mail in the requested language, a one-time link', async () => {
		const db = getDb()
		const h = createHarness(db, mail)
		const owner = h.browser()
		const account = await signUpAndConfirm(h, mail, owner)
		const before = mail.mailsTo(account.email).length

		const known = await h.accounts.requestPasswordReset(h.browser().request('/tr/password-reset'), {
			email: account.email,
			locale: 'tr',
			redirectTo: '/tr',
		})
		const unknownEmail = uniqueEmail('nobody')
		const unknown = await h.accounts.requestPasswordReset(h.browser().request('/tr/password-reset'), {
			email: unknownEmail,
			locale: 'tr',
			redirectTo: '/tr',
		})
		expect(expectOk(known)).toBeNull()
		expect(expectOk(unknown)).toBeNull()
		expect(known.headers.getSetCookie()).toEqual(unknown.headers.getSetCookie())

		const sent = await mail.waitFor(account.email, before)
		expect(sent.subject).toBe('Dareboost şifreni sıfırla')
		const link = sent.links.find((l) => l.includes('/password-reset?'))
		if (!link) expect.fail('no reset link')
		const url = new URL(link)
		expect(url.pathname).toBe('/tr/password-reset')
		expect(url.searchParams.get('changePassword')).toBe('true')
		const token = url.searchParams.get('token')!

		expectError(await h.accounts.resetPassword(h.browser().request(appPathOf(link)), { token, password: '123' }), 'error-weak-password', 422)
		const reset = await h.accounts.resetPassword(h.browser().request(appPathOf(link)), { token, password: 'brand new password' })
		expectOk(reset)
		// The session that existed before the reset is revoked.
		expect(await viewerOf(h, owner)).toBeNull()
		expectError(await h.accounts.signIn(h.browser().request('/tr/login'), { email: account.email, password: account.password }), 'error-invalid-credentials')
		expectOk(await h.accounts.signIn(h.browser().request('/tr/login'), { email: account.email, password: 'brand new password' }))
		// One use only.
		expectError(await h.accounts.resetPassword(h.browser().request(appPathOf(link)), { token, password: 'third password' }), 'error-invalid-token')

		await h.settled()
		expect(mail.mailsTo(unknownEmail)).toEqual([])
	})

	test('a password reset confirms an address that was never confirmed', async () => {
		const h = createHarness(getDb(), mail)
		const email = uniqueEmail()
		expectOk(await h.accounts.signUp(h.browser().request('/en/register'), { email, password: 'forgotten1', locale: 'en', redirectTo: '/en' }))
		await mail.waitFor(email, 0)
		expectOk(await h.accounts.requestPasswordReset(h.browser().request('/en'), { email, locale: 'en', redirectTo: '/en' }))
		const link = (await mail.waitFor(email, 1)).links.find((l) => l.includes('/password-reset?'))!
		const token = new URL(link).searchParams.get('token')!
		expectOk(await h.accounts.resetPassword(h.browser().request(appPathOf(link)), { token, password: 'remembered1' }))
		expectOk(await h.accounts.signIn(h.browser().request('/en/login'), { email, password: 'remembered1' }))
	})

	test('rate limits: per address and client and, behind a trusted proxy, per IP, counted in the database', async () => {
		const db = getDb()
		const h = createHarness(db, mail, {
			trustProxy: 1,
			rateLimits: {
				signInPerAddressAndClient: { max: 3, windowSeconds: 60 },
				signInPerClient: { max: 5, windowSeconds: 60 },
				signUpPerAddress: { max: 2, windowSeconds: 60 },
				resetPerAddress: { max: 1, windowSeconds: 60 },
			},
		})
		const { email, password } = await signUpAndConfirm(h, mail, h.browser())
		const from = (ip: string) => h.browser({ 'x-forwarded-for': `198.51.100.1, ${ip}` }).request('/en/login')

		for (let i = 0; i < 3; i++) expectError(await h.accounts.signIn(from('203.0.113.1'), { email, password: 'wrong one' }), 'error-invalid-credentials')
		// The fourth attempt on the address from that client is refused, even
		// with the right password; the owner elsewhere is not.
		const limited = expectError(await h.accounts.signIn(from('203.0.113.1'), { email, password }), 'error-rate-limited', 429)
		expect(Number(limited.reasons?.[0])).toBeGreaterThan(0)
		expect(Number(limited.reasons?.[0])).toBeLessThanOrEqual(60)
		expectOk(await h.accounts.signIn(from('203.0.113.2'), { email, password }))

		// Per IP: the client as the trusted proxy saw it, not what the client wrote further left.
		for (let i = 0; i < 5; i++) {
			expectError(await h.accounts.signIn(from('203.0.113.9'), { email: uniqueEmail(), password: 'x1x2x3x4' }), 'error-invalid-credentials')
		}
		expectError(await h.accounts.signIn(from('203.0.113.9'), { email: uniqueEmail(), password: 'x1x2x3x4' }), 'error-rate-limited', 429)
		expectError(await h.accounts.signIn(from('203.0.113.10'), { email: uniqueEmail(), password: 'x1x2x3x4' }), 'error-invalid-credentials')

		// Sign-up and reset have their own per-address limits.
		const target = uniqueEmail()
		for (let i = 0; i < 2; i++) {
			expectOk(await h.accounts.signUp(from('203.0.113.20'), { email: target, password: 'secret123', locale: 'en', redirectTo: '/en' }))
		}
		expectError(await h.accounts.signUp(from('203.0.113.21'), { email: target, password: 'secret123', locale: 'en', redirectTo: '/en' }), 'error-rate-limited', 429)
		expectOk(await h.accounts.requestPasswordReset(from('203.0.113.30'), { email: target, locale: 'en', redirectTo: '/en' }))
		expectError(await h.accounts.requestPasswordReset(from('203.0.113.31'), { email: target, locale: 'en', redirectTo: '/en' }), 'error-rate-limited', 429)

		// The counters are rows, so every app instance sees them; and they hold no address.
		const { rows } = await db.query<{ key: string }>('select key from better_auth.app_rate_limit')
		expect(rows.length).toBeGreaterThan(0)
		expect(rows.some((r) => r.key.includes('@') || r.key.includes('203.0.113'))).toBe(false)
	})

	test('rate limits count guesses only: an owner who signs in again and again is never locked out, and a guess after it still counts', async () => {
		const h = createHarness(getDb(), mail, {
			trustProxy: 1,
			rateLimits: { signInPerAddressAndClient: { max: 3, windowSeconds: 60 }, signInPerClient: { max: 3, windowSeconds: 60 } },
		})
		const { email, password } = await signUpAndConfirm(h, mail, h.browser())
		const from = () => h.browser({ 'x-forwarded-for': '198.51.100.1, 203.0.113.40' }).request('/en/login')
		// Issue 24: ten sign-ins in a quarter of an hour from one network locked the owner out.
		for (let i = 0; i < 10; i++) expectOk(await h.accounts.signIn(from(), { email, password }))
		for (let i = 0; i < 3; i++) expectError(await h.accounts.signIn(from(), { email, password: 'wrong one' }), 'error-invalid-credentials')
		expectError(await h.accounts.signIn(from(), { email, password }), 'error-rate-limited', 429)
	})

	test('without a trusted proxy, X-Forwarded-For is ignored: a client cannot pick its own address', async () => {
		const h = createHarness(getDb(), mail, { rateLimits: { signInPerClient: { max: 2, windowSeconds: 60 } } })
		for (let i = 0; i < 4; i++) {
			const spoofed = h.browser({ 'x-forwarded-for': '192.0.2.1' }).request('/en/login')
			// Never 429: there is no trustworthy address to count, only the (distinct) addresses.
			expectError(await h.accounts.signIn(spoofed, { email: uniqueEmail(), password: 'whatever1' }), 'error-invalid-credentials')
		}
	})

	test('each account is an auth.users row with the same id; deletion removes it and everything hanging off it', async () => {
		const db = getDb()
		const h = createHarness(db, mail)
		const browser = h.browser()
		const { email, userId } = await signUpAndConfirm(h, mail, browser, { locale: 'tr' })

		const { rows: users } = await db.query<{ id: string; email: string; confirmed: boolean; meta: unknown }>(
			`select id, email, email_confirmed_at is not null as confirmed, raw_user_meta_data as meta from auth.users where id = $1`,
			[userId],
		)
		expect(users).toEqual([{ id: userId, email, confirmed: true, meta: { locale: 'tr' } }])
		const viewer = (await h.auth.getViewer(browser.request('/tr', { method: 'GET' }))).viewer!
		// give_consent accepts published versions only (the app publishes its configured ones at start-up).
		await publishDocumentVersions(db, { terms_of_service: 'v1', creator_agreement: 'v1' })
		await asUser(db, viewer.claims, async (tx) => {
			await tx.query(`insert into public.profiles (id, username) values ($1, 'deleted_soon')`, [userId])
			await tx.query(`select public.give_consent('terms_of_service', 'v1')`)
		})

		// The coins left in the wallet are forfeited through the ledger, not destroyed.
		await fundWallet(db, userId, 40)
		const cookie = browser.cookieHeader()
		const deleted = browser.take(await h.accounts.deleteAccount(browser.request('/tr/settings'), { password: 'correct horse' }))
		expectOk(deleted)
		expect(browser.hasSession()).toBe(false)
		expect(await userRows(db, email)).toEqual({ betterAuth: [], authUsers: [] })
		expect(await ledgerProblems(db)).toEqual([])
		const { rows: forfeits } = await db.query(`select amount::int from ledger.transfers where kind = 'forfeit' and reference = $1`, [userId])
		expect(forfeits).toEqual([{ amount: 40 }])
		for (const table of ['better_auth.session', 'better_auth.account']) {
			expect((await db.query(`select 1 from ${table} where "userId" = $1`, [userId])).rows, table).toEqual([])
		}
		for (const [table, column] of [
			['public.wallets', 'id'],
			['public.profiles', 'id'],
			['public.consents', 'user_id'],
		] as const) {
			expect((await db.query(`select 1 from ${table} where ${column} = $1`, [userId])).rows, table).toEqual([])
		}
		expect((await h.auth.getViewer(new Request('http://localhost:3000/', { headers: { cookie } }))).viewer).toBeNull()
		expectError(await h.accounts.deleteAccount(browser.request('/tr/settings'), {}), 'error-not-authenticated', 401)
		// The address is free again.
		expectOk(await h.accounts.signUp(h.browser().request('/tr/register'), { email, password: 'secret123', locale: 'tr', redirectTo: '/tr' }))
	})

	test('sign-out ends the session in the database and clears the cookie', async () => {
		const db = getDb()
		const h = createHarness(db, mail)
		const browser = h.browser()
		await signUpAndConfirm(h, mail, browser)
		const viewer = await viewerOf(h, browser)
		const cookie = browser.cookieHeader()
		expectOk(browser.take(await h.accounts.signOut(browser.request('/en'))))
		expect(browser.hasSession()).toBe(false)
		expect((await db.query('select 1 from better_auth.session where id = $1', [viewer?.claims.session_id])).rows).toEqual([])
		expect((await h.auth.getViewer(new Request('http://localhost:3000/', { headers: { cookie } }))).viewer).toBeNull()
		// Signing out without a session is not an error.
		expectOk(await h.accounts.signOut(h.browser().request('/en')))
	})
})
