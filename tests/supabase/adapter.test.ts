import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { createSupabaseAuth, type SupabaseAuthOptions } from '#app/modules/account/backends/supabase/backend.server'
import { SUPABASE_COOKIE_CHUNK_SIZE } from '#app/modules/account/backends/supabase/client.server'
import { APP_URL, Browser, expectError, expectOk, parseSetCookie } from './browser'
import { FakeGoTrue } from './fake-gotrue'

/**
 * The Supabase adapter (app/modules/account/backends/supabase) at its boundary: the real
 * @supabase/ssr and supabase-js talk HTTP to a stand-in for Supabase Auth on
 * loopback (tests/supabase/fake-gotrue.ts says why it is a stand-in). The
 * tests check what the adapter sends (bodies, redirect URLs, tokens), what it
 * makes of Supabase's answers and errors, and the cookies it sets.
 */

let fake: FakeGoTrue
beforeEach(async () => {
	fake = await FakeGoTrue.start()
})
afterEach(async () => {
	await fake.close()
})

const SESSION_COOKIE = /^sb-127-auth-token(\.\d+)?$/

function setup(overrides: Partial<SupabaseAuthOptions> = {}) {
	const logs: { level: string; message: string }[] = []
	let clock = Date.now()
	const { accounts, auth } = createSupabaseAuth({
		url: fake.url,
		anonKey: 'anon-key',
		appUrl: APP_URL,
		log: (level, message) => logs.push({ level, message }),
		now: () => clock,
		// The real back-off starts at 200 ms; the retries themselves are what is tested.
		retry: { baseDelayMs: 1 },
		...overrides,
	})
	const viewerOf = async (browser: Browser) => browser.take(await auth.getViewer(browser.request('/en', { method: 'GET' }))).viewer
	return { accounts, auth, logs, viewerOf, advance: (seconds: number) => (clock += seconds * 1000) }
}

/** A confirmed user signed in in `browser`. */
async function signedIn(s: ReturnType<typeof setup>, browser: Browser, email = 'ada@example.com', password = 'correct horse') {
	const user = fake.userByEmail(email) ?? fake.addUser(email, password, { locale: 'en' })
	const result = browser.take(await s.accounts.signIn(browser.request('/en/login'), { email, password }))
	expectOk(result)
	return user
}

describe('sign-up and confirmation', () => {
	test('sign-up sends the address, the locale as metadata and the confirm URL; the mail link confirms and signs in', async () => {
		const s = setup()
		const browser = new Browser()
		const result = browser.take(
			await s.accounts.signUp(browser.request('/de/register'), {
				email: '  Ada@Example.COM ',
				password: 'correct horse',
				locale: 'de',
				redirectTo: '/de/session/abc',
			}),
		)
		expect(expectOk(result)).toBeNull()
		const [request] = fake.requestsTo('POST', '/signup')
		expect(request?.body).toMatchObject({ email: 'ada@example.com', password: 'correct horse', data: { locale: 'de' } })
		// PKCE: a challenge goes to Supabase, the verifier stays in a cookie.
		expect(request?.body?.code_challenge).toEqual(expect.any(String))
		expect(request?.body?.code_challenge_method).toBe('s256')
		expect(request?.query.get('redirect_to')).toBe(`${APP_URL}/de/confirm?redirect-to=%2Fde%2Fsession%2Fabc`)
		expect(browser.names().some((n) => n.endsWith('-code-verifier'))).toBe(true)
		// Nothing is signed in before the address is confirmed.
		expect(browser.names().some((n) => SESSION_COOKIE.test(n))).toBe(false)
		expect(await s.viewerOf(browser)).toBeNull()

		// The link supabase/templates/confirmation.html builds: {{ .RedirectTo }}&token_hash=...&type=signup.
		const mail = fake.mails.at(-1)
		expect(mail).toMatchObject({ type: 'signup', email: 'ada@example.com' })
		const link = `${mail?.redirectTo}&token_hash=${mail?.tokenHash}&type=signup`
		// Opened in the browser that signed up (it typed the password): confirmed and signed in.
		const confirmed = browser.take(await s.accounts.confirmEmail(browser.request(link, { method: 'GET' })))
		expect(expectOk(confirmed)).toEqual({ redirectTo: '/de/session/abc', signedIn: true })
		expect(fake.requestsTo('POST', '/verify')[0]?.body).toMatchObject({ token_hash: mail?.tokenHash, type: 'signup' })

		const user = fake.userByEmail('ada@example.com')
		expect(user?.confirmedAt).not.toBeNull()
		const viewer = await s.viewerOf(browser)
		expect(viewer).toMatchObject({
			userId: user?.id,
			email: 'ada@example.com',
			totpEnabled: false,
			claims: { sub: user?.id, role: 'authenticated', aal: 'aal1' },
		})
	})

	test('pre-registration: the link opened in a browser that did not sign the address up confirms it and signs nobody in', async () => {
		const s = setup()
		// Someone signs up with an address that is not theirs...
		const stranger = new Browser()
		stranger.take(await s.accounts.signUp(stranger.request('/en/register'), { email: 'owner@example.com', password: 'stranger picked', locale: 'en', redirectTo: '/en' }))
		const mail = fake.mails.at(-1)
		// ...and its owner opens the mail (no verifier cookie needed: the templates' token_hash link).
		const owner = new Browser()
		const confirmed = owner.take(await s.accounts.confirmEmail(owner.request(`${mail?.redirectTo}&token_hash=${mail?.tokenHash}&type=signup`, { method: 'GET' })))
		expect(expectOk(confirmed)).toEqual({ redirectTo: '/en', signedIn: false })
		expect(fake.userByEmail('owner@example.com')?.confirmedAt).not.toBeNull()
		// Not signed in: the owner never uses an account whose password someone else chose (they reset it).
		expect(await s.viewerOf(owner)).toBeNull()
		expect(owner.names().some((n) => SESSION_COOKIE.test(n))).toBe(false)
	})

	test('the session cookie follows docs/product.md §15.6: path /, SameSite Lax, HttpOnly, 400 days; Secure behind https', async () => {
		for (const [appUrl, secure] of [
			[APP_URL, false],
			['https://dareboost.example', true],
		] as const) {
			const s = setup({ appUrl })
			fake.addUser(`cookie-${secure}@example.com`, 'correct horse')
			const browser = new Browser()
			const result = await s.accounts.signIn(browser.request('/en/login'), { email: `cookie-${secure}@example.com`, password: 'correct horse' })
			const session = result.headers.getSetCookie().map(parseSetCookie).find((c) => SESSION_COOKIE.test(c.name))
			expect(session?.attributes).toMatchObject({ path: '/', samesite: 'Lax', httponly: true, 'max-age': String(400 * 24 * 60 * 60) })
			expect(session?.attributes.secure ?? false).toBe(secure)
			// Responses that set auth cookies must not be cached.
			expect(result.headers.get('cache-control')).toMatch(/no-store/)
		}
	})

	test('a session too big for one cookie is split into chunks of at most 3180 characters and read back whole', async () => {
		const s = setup()
		fake.addUser('big@example.com', 'correct horse', { locale: 'en', bio: 'ü'.repeat(2500) })
		const browser = new Browser()
		const result = browser.take(await s.accounts.signIn(browser.request('/en/login'), { email: 'big@example.com', password: 'correct horse' }))
		const chunks = result.headers
			.getSetCookie()
			.map(parseSetCookie)
			.filter((c) => SESSION_COOKIE.test(c.name))
		expect(chunks.map((c) => c.name)).toEqual(chunks.map((_c, i) => `sb-127-auth-token.${i}`))
		expect(chunks.length).toBeGreaterThan(1)
		for (const chunk of chunks) expect(encodeURIComponent(decodeURIComponent(chunk.value)).length).toBeLessThanOrEqual(SUPABASE_COOKIE_CHUNK_SIZE)
		// The last chunk holds the remainder; all others are full.
		expect(chunks[0]?.value.length).toBeGreaterThan(SUPABASE_COOKIE_CHUNK_SIZE - 10)
		expect((await s.viewerOf(browser))?.email).toBe('big@example.com')
	})

	test('a repeated sign-up answers exactly like a new one, and Supabase refusals that would tell are answered the same', async () => {
		const s = setup()
		fake.addUser('known@example.com', 'another password')
		const fresh = await s.accounts.signUp(new Browser().request('/en/register'), { email: 'new@example.com', password: 'correct horse', locale: 'en', redirectTo: '/en' })
		const known = await s.accounts.signUp(new Browser().request('/en/register'), { email: 'known@example.com', password: 'correct horse', locale: 'en', redirectTo: '/en' })
		expect(known.ok).toBe(fresh.ok)
		expect(expectOk(known)).toEqual(expectOk(fresh))
		// No mail to the confirmed address.
		expect(fake.mails.filter((m) => m.email === 'known@example.com')).toEqual([])

		fake.failOnce('POST', '/signup', 422, 'user_already_exists', 'User already registered')
		expect(expectOk(await s.accounts.signUp(new Browser().request('/en/register'), { email: 'a@example.com', password: 'correct horse', locale: 'en', redirectTo: '/en' }))).toBeNull()
		fake.failOnce('POST', '/signup', 429, 'over_email_send_rate_limit', 'For security purposes, you can only request this after 37 seconds.')
		expect(expectOk(await s.accounts.signUp(new Browser().request('/en/register'), { email: 'b@example.com', password: 'correct horse', locale: 'en', redirectTo: '/en' }))).toBeNull()
		// The project-wide mail limit applies to everyone alike: it is reported.
		fake.failOnce('POST', '/signup', 429, 'over_email_send_rate_limit', 'Email rate limit exceeded')
		expect(expectError(await s.accounts.signUp(new Browser().request('/en/register'), { email: 'c@example.com', password: 'correct horse', locale: 'en', redirectTo: '/en' }))).toEqual({
			code: 'error-rate-limited',
			status: 429,
		})
	})

	test('a weak password comes back with Supabase reasons; inputs docs/product.md §7.1 refuses never reach Supabase', async () => {
		const s = setup()
		fake.failOnce('POST', '/signup', 422, 'weak_password', 'Password is known to be weak and easy to guess, please choose a different one.', {
			weak_password: { reasons: ['pwned'] },
		})
		const weak = await s.accounts.signUp(new Browser().request('/en/register'), { email: 'w@example.com', password: 'password1', locale: 'en', redirectTo: '/en' })
		expect(expectError(weak)).toEqual({ code: 'error-weak-password', status: 422, reasons: ['pwned'] })

		const before = fake.requests.length
		expect(expectError(await s.accounts.signUp(new Browser().request('/en/register'), { email: 'x@example.com', password: '12345', locale: 'en', redirectTo: '/en' }))).toEqual({
			code: 'error-weak-password',
			status: 422,
			reasons: ['length'],
		})
		expect(expectError(await s.accounts.signUp(new Browser().request('/en/register'), { email: 'not an address', password: 'correct horse', locale: 'en', redirectTo: '/en' })).code).toBe(
			'error-invalid-email',
		)
		expect(fake.requests.length).toBe(before)
	})

	test('an open redirect in redirect-to is replaced by the home page of the language', async () => {
		const s = setup()
		await s.accounts.signUp(new Browser().request('/tr/register'), { email: 'r@example.com', password: 'correct horse', locale: 'tr', redirectTo: 'https://evil.example/x' })
		expect(fake.requestsTo('POST', '/signup')[0]?.query.get('redirect_to')).toBe(`${APP_URL}/tr/confirm?redirect-to=%2Ftr`)
	})

	test('resend: the 60-second countdown holds for known and unknown addresses alike, then the mail goes out again', async () => {
		const s = setup()
		const browser = new Browser()
		await s.accounts.signUp(browser.request('/es/register'), { email: 'eva@example.com', password: 'correct horse', locale: 'es', redirectTo: '/es/x' })
		const tooSoon = await s.accounts.resendConfirmation(browser.request('/es/register'), { email: 'eva@example.com', locale: 'es', redirectTo: '/es/x' })
		expect(expectError(tooSoon)).toEqual({ code: 'error-rate-limited', status: 429, reasons: ['60'] })
		expect(tooSoon.headers.get('retry-after')).toBe('60')
		expect(fake.requestsTo('POST', '/resend')).toEqual([])

		// An address without an account: the first resend is answered as for one with.
		const unknown = await s.accounts.resendConfirmation(browser.request('/es/register'), { email: 'nobody@example.com', locale: 'es', redirectTo: '/es/x' })
		expect(expectOk(unknown)).toBeNull()
		expect(expectError(await s.accounts.resendConfirmation(browser.request('/es/register'), { email: 'nobody@example.com', locale: 'es', redirectTo: '/es/x' }))).toMatchObject({
			code: 'error-rate-limited',
			reasons: ['60'],
		})

		s.advance(45)
		expect(expectError(await s.accounts.resendConfirmation(browser.request('/es/register'), { email: 'eva@example.com', locale: 'es', redirectTo: '/es/x' })).reasons).toEqual(['15'])
		s.advance(16)
		const again = await s.accounts.resendConfirmation(browser.request('/es/register'), { email: 'Eva@Example.com', locale: 'es', redirectTo: '/es/x' })
		expect(expectOk(again)).toBeNull()
		const resend = fake.requestsTo('POST', '/resend').find((r) => r.body?.email === 'eva@example.com')
		expect(resend?.body).toMatchObject({ type: 'signup', email: 'eva@example.com' })
		expect(resend?.query.get('redirect_to')).toBe(`${APP_URL}/es/confirm?redirect-to=%2Fes%2Fx`)
		expect(fake.mails.filter((m) => m.email === 'eva@example.com')).toHaveLength(2)
	})

	test('a used, wrong or missing link is error-invalid-token', async () => {
		const s = setup()
		await s.accounts.signUp(new Browser().request('/en/register'), { email: 'l@example.com', password: 'correct horse', locale: 'en', redirectTo: '/en' })
		const mail = fake.mails.at(-1)
		const link = `/en/confirm?token_hash=${mail?.tokenHash}&type=signup`
		expectOk(await s.accounts.confirmEmail(new Browser().request(link, { method: 'GET' })))
		const reused = await s.accounts.confirmEmail(new Browser().request(link, { method: 'GET' }))
		expect(expectError(reused)).toEqual({ code: 'error-invalid-token', status: 401 })
		expect(expectError(await s.accounts.confirmEmail(new Browser().request('/en/confirm?token_hash=nope&type=signup', { method: 'GET' }))).code).toBe('error-invalid-token')
		// No token at all, or a link type /confirm does not take: Supabase is not asked.
		const before = fake.requests.length
		expect(expectError(await s.accounts.confirmEmail(new Browser().request('/en/confirm', { method: 'GET' }))).code).toBe('error-invalid-token')
		expect(expectError(await s.accounts.confirmEmail(new Browser().request('/en/confirm?token_hash=x&type=sms', { method: 'GET' }))).code).toBe('error-invalid-token')
		// Supabase sent the browser back with a failure: its code, mapped.
		const failed = await s.accounts.confirmEmail(new Browser().request('/en/confirm?error=access_denied&error_code=otp_expired&error_description=x', { method: 'GET' }))
		expect(expectError(failed)).toEqual({ code: 'error-invalid-token', status: 400 })
		const identity = await s.accounts.confirmEmail(new Browser().request('/en/confirm?error=server_error&error_code=identity_already_exists', { method: 'GET' }))
		expect(expectError(identity).code).toBe('error-identity-already-exists')
		expect(fake.requests.length).toBe(before)
	})
})

describe('Google and Twitch', () => {
	test('startOAuth hands out Supabase authorize URL with PKCE; the code coming back to /confirm signs in and stores the locale', async () => {
		const s = setup()
		const browser = new Browser()
		const started = browser.take(await s.accounts.startOAuth(browser.request('/de/login'), { provider: 'google', redirectTo: '/de/session/xyz' }))
		const { url } = expectOk(started)
		const authorize = new URL(url)
		expect(authorize.origin + authorize.pathname).toBe(`${fake.url}/auth/v1/authorize`)
		expect(authorize.searchParams.get('provider')).toBe('google')
		expect(authorize.searchParams.get('redirect_to')).toBe(`${APP_URL}/de/confirm?redirect-to=%2Fde%2Fsession%2Fxyz`)
		expect(authorize.searchParams.get('code_challenge_method')).toBe('s256')
		expect(browser.names().some((n) => n.endsWith('-code-verifier'))).toBe(true)

		// The provider and Supabase's callback happen in the browser; Supabase
		// then sends it to redirect_to with ?code=.
		const user = fake.addUser('gina@example.com', '', {})
		const code = fake.issueAuthCode(user.id, url)
		const back = new URL(authorize.searchParams.get('redirect_to') ?? '')
		back.searchParams.set('code', code)
		const confirmed = browser.take(await s.accounts.confirmEmail(browser.request(back.pathname + back.search, { method: 'GET' })))
		// A provider's return signs in (the OAuth state and the PKCE verifier bind it to this browser).
		expect(expectOk(confirmed)).toEqual({ redirectTo: '/de/session/xyz', signedIn: true })
		const exchange = fake.requestsTo('POST', '/token').find((r) => r.query.get('grant_type') === 'pkce')
		expect(exchange?.body).toMatchObject({ auth_code: code, code_verifier: expect.any(String) })
		// (The fake checked S256(code_verifier) against the challenge.) A provider
		// account gets the page's locale for its mails.
		expect(fake.requestsTo('PUT', '/user')[0]?.body).toMatchObject({ data: { locale: 'de' } })
		expect((await s.viewerOf(browser))?.userId).toBe(user.id)
	})

	test('a code without its verifier cookie (another browser) is error-invalid-token, and Supabase is not asked', async () => {
		const s = setup()
		const started = expectOk(await s.accounts.startOAuth(new Browser().request('/en/login'), { provider: 'google', redirectTo: '/en' }))
		const code = fake.issueAuthCode(fake.addUser('h@example.com', '').id, started.url)
		const result = await s.accounts.confirmEmail(new Browser().request(`/en/confirm?code=${code}`, { method: 'GET' }))
		expect(expectError(result)).toEqual({ code: 'error-invalid-token', status: 401 })
		expect(fake.requestsTo('POST', '/token')).toEqual([])
	})

	test('a provider the project has not switched on is refused before the browser leaves', async () => {
		const s = setup()
		const result = await s.accounts.startOAuth(new Browser().request('/en/login'), { provider: 'twitch', redirectTo: '/en' })
		expect(expectError(result)).toEqual({ code: 'error-provider-not-configured', status: 404 })
		fake.providers = { ...fake.providers, twitch: true }
		// A provider not listed is looked up once more before refusing: switching it on shows at once.
		expect(expectOk(await s.accounts.startOAuth(new Browser().request('/en/login'), { provider: 'twitch', redirectTo: '/en' })).url).toContain('provider=twitch')
	})

	test('handle() leaves every path to the routes: Supabase serves the provider callbacks', async () => {
		const s = setup()
		expect(await s.accounts.handle(new Request(`${APP_URL}/api/auth/provider/callback/google`))).toBeNull()
	})
})

describe('sign-in, sessions and sign-out', () => {
	test('sign-in errors: wrong password, unconfirmed address', async () => {
		const s = setup()
		fake.addUser('ada@example.com', 'correct horse')
		const wrong = await s.accounts.signIn(new Browser().request('/en/login'), { email: 'ada@example.com', password: 'wrong horse' })
		expect(expectError(wrong)).toEqual({ code: 'error-invalid-credentials', status: 400 })
		expect(wrong.headers.getSetCookie().filter((c) => SESSION_COOKIE.test(parseSetCookie(c).name))).toEqual([])

		await s.accounts.signUp(new Browser().request('/en/register'), { email: 'new@example.com', password: 'correct horse', locale: 'en', redirectTo: '/en' })
		const unconfirmed = await s.accounts.signIn(new Browser().request('/en/login'), { email: 'new@example.com', password: 'correct horse' })
		// The same answer as a wrong password: it must not tell, after a sign-up, whether the address had a confirmed account.
		expect(expectError(unconfirmed)).toEqual({ code: 'error-invalid-credentials', status: 400 })
	})

	test('Supabase unreachable (a gateway 503, or no answer at all) is error-connection, logged as a warning', async () => {
		const s = setup()
		fake.addUser('ada@example.com', 'correct horse')
		fake.up = false
		const gateway = await s.accounts.signIn(new Browser().request('/en/login'), { email: 'ada@example.com', password: 'correct horse' })
		expect(expectError(gateway)).toEqual({ code: 'error-connection', status: 503 })

		fake.up = true
		// "No answer at all": a port nobody listens on. (Closing the shared
		// stand-in instead would also break supabase-js's background session
		// work from earlier calls, which then logs console.error.)
		const url = `http://127.0.0.1:${await unusedPort()}`
		const gone = createSupabaseAuth({ url, anonKey: 'anon-key', appUrl: APP_URL, retry: { baseDelayMs: 1 }, log: (level, message) => s.logs.push({ level, message }) })
		// auth-js 2.109 (the version locked for Node 20) logs every failed
		// fetch with console.error itself; only that is allowed here.
		const libraryErrors = vi.spyOn(console, 'error').mockImplementation(() => {})
		const refused = await gone.accounts.signIn(new Browser().request('/en/login'), { email: 'ada@example.com', password: 'correct horse' })
		expect(libraryErrors.mock.calls.every(([e]) => String(e).includes('fetch failed'))).toBe(true)
		expect(expectError(refused)).toEqual({ code: 'error-connection', status: 503 })
		expect(s.logs.filter((l) => l.level === 'warn' && /could not be reached/.test(l.message))).toHaveLength(2)
	})

	test('failed calls to Supabase are retried up to 3 times where a second try cannot do harm', async () => {
		const s = setup()
		const browser = new Browser()
		await signedIn(s, browser)
		const reads = () => fake.requestsTo('GET', '/user').length

		// A read that met a gateway error once: tried again, and the answer is Supabase's.
		fake.failOnce('GET', '/user', 503, 'unexpected_failure', 'upstream connect error')
		let before = reads()
		expectOk(await s.accounts.listSignInMethods(browser.request('/en/settings', { method: 'GET' })))
		expect(reads() - before).toBe(2)

		// Down for good: 1 try and 3 retries, then the connection error.
		fake.up = false
		before = reads()
		expect(expectError(await s.accounts.listSignInMethods(browser.request('/en/settings', { method: 'GET' })))).toEqual({ code: 'error-connection', status: 503 })
		expect(reads() - before).toBe(4)
		fake.up = true

		// A POST that reached Supabase is not sent again: a sign-up or a mail could go out twice.
		fake.failOnce('POST', '/token', 502, 'unexpected_failure', 'bad gateway')
		const tokens = fake.requestsTo('POST', '/token').length
		expect(expectError(await s.accounts.signIn(new Browser().request('/en/login'), { email: 'ada@example.com', password: 'correct horse' }))).toEqual({
			code: 'error-connection',
			status: 503,
		})
		expect(fake.requestsTo('POST', '/token').length - tokens).toBe(1)
	})

	test('a new sign-in ends the session the browser held before', async () => {
		const s = setup()
		const browser = new Browser()
		const user = await signedIn(s, browser)
		expect(fake.activeSessions(user.id)).toBe(1)
		// A failed attempt leaves the signed-in session alone.
		expectError(browser.take(await s.accounts.signIn(browser.request('/en/login'), { email: 'ada@example.com', password: 'wrong' })))
		expect(fake.activeSessions(user.id)).toBe(1)
		expect((await s.viewerOf(browser))?.userId).toBe(user.id)
		await signedIn(s, browser)
		expect(fake.activeSessions(user.id)).toBe(1)
		expect(fake.requestsTo('POST', '/logout')[0]?.query.get('scope')).toBe('local')
		expect((await s.viewerOf(browser))?.userId).toBe(user.id)
	})

	test('an expired access token is refreshed by getViewer and the new session goes out as cookies', async () => {
		const s = setup()
		fake.expiresIn = 20 // inside auth-js's refresh margin
		const browser = new Browser()
		const user = await signedIn(s, browser)
		const before = browser.cookies.get('sb-127-auth-token')
		const { viewer, headers } = await s.auth.getViewer(browser.request('/en', { method: 'GET' }))
		expect(viewer?.userId).toBe(user.id)
		expect(fake.requestsTo('POST', '/token').some((r) => r.query.get('grant_type') === 'refresh_token')).toBe(true)
		const renewed = headers.getSetCookie().map(parseSetCookie).find((c) => c.name === 'sb-127-auth-token')
		expect(renewed?.value).toBeTruthy()
		expect(renewed?.value).not.toBe(before)
	})

	test('getViewer: no cookie costs no request; a tampered cookie is no viewer', async () => {
		const s = setup()
		expect(await s.viewerOf(new Browser())).toBeNull()
		expect(fake.requests).toEqual([])
		const browser = new Browser()
		await signedIn(s, browser)
		const raw = browser.cookies.get('sb-127-auth-token') ?? ''
		const session = JSON.parse(Buffer.from(raw.replace(/^base64-/, ''), 'base64url').toString()) as { access_token: string }
		const [h, p, sig] = session.access_token.split('.')
		const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as Record<string, unknown>
		const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, aal: 'aal2' })).toString('base64url')}.${sig}`
		browser.cookies.set('sb-127-auth-token', `base64-${Buffer.from(JSON.stringify({ ...session, access_token: forged })).toString('base64url')}`)
		expect(await s.viewerOf(browser)).toBeNull()
	})

	test('sign-out revokes this session at Supabase and expires the cookies; without Supabase the cookies still go', async () => {
		const s = setup()
		const browser = new Browser()
		const user = await signedIn(s, browser)
		const out = browser.take(await s.accounts.signOut(browser.request('/en/logout')))
		expect(expectOk(out)).toBeNull()
		const logout = fake.requestsTo('POST', '/logout')[0]
		expect(logout?.query.get('scope')).toBe('local')
		expect(logout?.headers.authorization).toMatch(/^Bearer /)
		expect(fake.activeSessions(user.id)).toBe(0)
		expect(browser.names().filter((n) => SESSION_COOKIE.test(n))).toEqual([])

		await signedIn(s, browser)
		fake.up = false
		const offline = browser.take(await s.accounts.signOut(browser.request('/en/logout')))
		expect(offline.ok).toBe(true)
		expect(browser.names().filter((n) => SESSION_COOKIE.test(n))).toEqual([])
	})

	test('per-address sign-in limit: 429 with the seconds to wait, and Supabase is not asked', async () => {
		const s = setup({ rateLimits: { signInPerAddressAndClient: { max: 2, windowSeconds: 60 } } })
		fake.addUser('ada@example.com', 'correct horse')
		for (let i = 0; i < 2; i++) await s.accounts.signIn(new Browser().request('/en/login'), { email: 'ada@example.com', password: 'nope' })
		const calls = fake.requestsTo('POST', '/token').length
		const third = await s.accounts.signIn(new Browser().request('/en/login'), { email: 'ADA@example.com', password: 'correct horse' })
		expect(expectError(third)).toEqual({ code: 'error-rate-limited', status: 429, reasons: ['60'] })
		expect(third.headers.get('retry-after')).toBe('60')
		expect(fake.requestsTo('POST', '/token').length).toBe(calls)
	})

	test('behind a trusted proxy the visitor address goes to Supabase as X-Forwarded-For', async () => {
		const s = setup({ trustProxy: 1 })
		fake.addUser('ada@example.com', 'correct horse')
		await s.accounts.signIn(new Browser().request('/en/login', { headers: { 'x-forwarded-for': '198.51.100.7, 203.0.113.9' } }), {
			email: 'ada@example.com',
			password: 'correct horse',
		})
		expect(fake.requestsTo('POST', '/token')[0]?.headers['x-forwarded-for']).toBe('203.0.113.9')
		const untrusted = setup()
		await untrusted.accounts.signIn(new Browser().request('/en/login', { headers: { 'x-forwarded-for': '198.51.100.7' } }), { email: 'ada@example.com', password: 'correct horse' })
		expect(fake.requestsTo('POST', '/token')[1]?.headers['x-forwarded-for']).toBeUndefined()
	})
})

describe('password reset', () => {
	test('the reset request names the change-password page and answers the same for unknown addresses', async () => {
		const s = setup()
		fake.addUser('ada@example.com', 'correct horse', { locale: 'es' })
		const known = await s.accounts.requestPasswordReset(new Browser().request('/es/password-reset'), { email: 'ada@example.com', locale: 'es', redirectTo: '/es' })
		const unknown = await s.accounts.requestPasswordReset(new Browser().request('/es/password-reset'), { email: 'nobody@example.com', locale: 'es', redirectTo: '/es' })
		expect(expectOk(known)).toEqual(expectOk(unknown))
		const [recover] = fake.requestsTo('POST', '/recover')
		expect(recover?.body).toMatchObject({ email: 'ada@example.com' })
		expect(recover?.query.get('redirect_to')).toBe(`${APP_URL}/es/password-reset?changePassword=true`)
		// A known address mailed a moment ago: Supabase's 429 would tell; the answer stays the same.
		fake.failOnce('POST', '/recover', 429, 'over_email_send_rate_limit', 'For security purposes, you can only request this after 52 seconds.')
		expect(expectOk(await s.accounts.requestPasswordReset(new Browser().request('/es/password-reset'), { email: 'ada@example.com', locale: 'es', redirectTo: '/es' }))).toBeNull()
	})

	test('the token from the mail sets the new password; every session ends, this browser signs in again', async () => {
		const s = setup()
		const laptop = new Browser()
		const user = await signedIn(s, laptop)
		await s.accounts.requestPasswordReset(new Browser().request('/en/password-reset'), { email: 'ada@example.com', locale: 'en', redirectTo: '/en' })
		const mail = fake.mails.at(-1)
		expect(mail).toMatchObject({ type: 'recovery', redirectTo: `${APP_URL}/en/password-reset?changePassword=true` })

		// What the page posts: the token from ?token= (supabase/templates/recovery.html) and the password.
		const phone = new Browser()
		const reset = phone.take(await s.accounts.resetPassword(phone.request('/en/password-reset?changePassword=true'), { token: mail?.tokenHash ?? '', password: 'new horse 2' }))
		expect(expectOk(reset)).toBeNull()
		expect(fake.requestsTo('POST', '/verify')[0]?.body).toMatchObject({ token_hash: mail?.tokenHash, type: 'recovery' })
		expect(fake.requestsTo('PUT', '/user')[0]?.body).toMatchObject({ password: 'new horse 2' })
		expect(fake.requestsTo('POST', '/logout').at(-1)?.query.get('scope')).toBe('global')
		expect(user.password).toBe('new horse 2')
		expect(fake.activeSessions(user.id)).toBe(0)
		expect(phone.names().filter((n) => SESSION_COOKIE.test(n))).toEqual([])

		// The link works once.
		const again = await s.accounts.resetPassword(new Browser().request('/en/password-reset'), { token: mail?.tokenHash ?? '', password: 'third horse' })
		expect(expectError(again)).toEqual({ code: 'error-invalid-token', status: 401 })
	})

	test('without a token only a fresh recovery session may set a password; Supabase refusals keep their reasons', async () => {
		const s = setup()
		const browser = new Browser()
		await signedIn(s, browser)
		// A password sign-in is not a recovery: no password change without the old one.
		expect(expectError(await s.accounts.resetPassword(browser.request('/en/password-reset'), { token: '', password: 'new horse 2' }))).toEqual({
			code: 'error-invalid-token',
			status: 401,
		})
		expect(fake.requestsTo('PUT', '/user')).toEqual([])

		// A recovery link that went through /confirm (type=recovery) leaves a recovery session.
		await s.accounts.requestPasswordReset(new Browser().request('/en/password-reset'), { email: 'ada@example.com', locale: 'en', redirectTo: '/en' })
		const mail = fake.mails.at(-1)
		browser.take(await s.accounts.confirmEmail(browser.request(`/en/confirm?token_hash=${mail?.tokenHash}&type=recovery&redirect-to=/en/password-reset?changePassword=true`, { method: 'GET' })))
		fake.failOnce('PUT', '/user', 422, 'weak_password', 'Password should contain at least one character of each: abc, 123.', {
			weak_password: { reasons: ['characters'] },
		})
		expect(expectError(await s.accounts.resetPassword(browser.request('/en/password-reset'), { token: '', password: 'aaaaaaaa' }))).toEqual({
			code: 'error-weak-password',
			status: 422,
			reasons: ['characters'],
		})
		expect(expectError(await s.accounts.resetPassword(browser.request('/en/password-reset'), { token: '', password: 'correct horse' }))).toEqual({
			code: 'error-weak-password',
			status: 422,
			reasons: ['same-password'],
		})
		expect(expectOk(await s.accounts.resetPassword(browser.request('/en/password-reset'), { token: '', password: 'brand new horse' }))).toBeNull()
	})
})

describe('password reset with two-factor sign-in', () => {
	test('the link signs in but the password waits for the code; after it the recovery session sets it without the token', async () => {
		const s = setup()
		const laptop = new Browser()
		const user = await signedIn(s, laptop)
		expectOk(laptop.take(await s.accounts.enrollTotp(laptop.request('/en/settings'), { password: 'correct horse' })))
		expectOk(laptop.take(await s.accounts.confirmTotpEnrollment(laptop.request('/en/settings'), { code: fake.totpCode })))

		await s.accounts.requestPasswordReset(new Browser().request('/en/password-reset'), { email: 'ada@example.com', locale: 'en', redirectTo: '/en' })
		const mail = fake.mails.at(-1)
		const phone = new Browser()
		const first = phone.take(await s.accounts.resetPassword(phone.request('/en/password-reset?changePassword=true'), { token: mail?.tokenHash ?? '', password: 'new horse 2' }))
		// Supabase wants aal2 to change the password of an account with a verified factor:
		// the route sends the browser to the code step with the recovery session it now holds.
		expect(expectError(first)).toEqual({ code: 'error-not-authenticated', status: 403, reasons: ['aal2-required'] })
		expect(phone.names().some((n) => SESSION_COOKIE.test(n))).toBe(true)
		expect(user.password).toBe('correct horse')

		expectOk(phone.take(await s.accounts.verifySignInTotp(phone.request('/en/login?step=totp'), { code: fake.totpCode })))
		// Back on /password-reset?changePassword=true: no token in the form, the recovery session carries it.
		expect(expectOk(phone.take(await s.accounts.resetPassword(phone.request('/en/password-reset?changePassword=true'), { token: '', password: 'new horse 2' })))).toBeNull()
		expect(user.password).toBe('new horse 2')
		expect(fake.activeSessions(user.id)).toBe(0)
	})
})

describe('two-factor sign-in', () => {
	test('enrol (password checked on the side), confirm with the code, then sign-in asks for it and the session is aal2', async () => {
		const s = setup()
		const browser = new Browser()
		const user = await signedIn(s, browser)

		const wrongPassword = await s.accounts.enrollTotp(browser.request('/en/settings'), { password: 'wrong horse' })
		expect(expectError(wrongPassword)).toEqual({ code: 'error-wrong-password', status: 400 })
		expect(user.factors).toEqual([])

		const enrolled = expectOk(browser.take(await s.accounts.enrollTotp(browser.request('/en/settings'), { password: 'correct horse' })))
		expect(enrolled.uri).toMatch(/^otpauth:\/\/totp\//)
		expect(enrolled.uri).toContain(`secret=${enrolled.secret}`)
		// Supabase has no recovery codes.
		expect(enrolled.recoveryCodes).toEqual([])
		expect(fake.requestsTo('POST', '/factors')[0]?.body).toMatchObject({ factor_type: 'totp', issuer: 'Dareboost' })
		// The password check's own session was ended at once.
		expect(fake.activeSessions(user.id)).toBe(1)

		expect(expectError(await s.accounts.confirmTotpEnrollment(browser.request('/en/settings'), { code: '000000' }))).toEqual({ code: 'error-invalid-totp', status: 422 })
		const confirmed = browser.take(await s.accounts.confirmTotpEnrollment(browser.request('/en/settings'), { code: fake.totpCode }))
		expect(expectOk(confirmed)).toBeNull()
		expect(user.factors[0]?.status).toBe('verified')
		expect(await s.viewerOf(browser)).toMatchObject({ totpEnabled: true, claims: { aal: 'aal2' } })

		// A new sign-in: the password alone leaves a session that owes the code.
		const phone = new Browser()
		const signIn = phone.take(await s.accounts.signIn(phone.request('/en/login'), { email: 'ada@example.com', password: 'correct horse' }))
		expect(expectOk(signIn)).toEqual({ totpRequired: true })
		expect(await s.viewerOf(phone)).toBeNull()
		expect(expectError(await s.accounts.verifySignInTotp(phone.request('/en/login'), { code: '111111' }))).toEqual({ code: 'error-invalid-totp', status: 422 })
		expect(expectError(await s.accounts.verifySignInTotp(phone.request('/en/login'), { code: 'recovery-code-1' }))).toEqual({ code: 'error-invalid-totp', status: 422 })
		expect(expectOk(phone.take(await s.accounts.verifySignInTotp(phone.request('/en/login'), { code: ` ${fake.totpCode.slice(0, 3)} ${fake.totpCode.slice(3)} ` })))).toBeNull()
		expect(await s.viewerOf(phone)).toMatchObject({ userId: user.id, totpEnabled: true, claims: { aal: 'aal2' } })
	})

	test('the code step without a pending sign-in is error-session-not-found', async () => {
		const s = setup()
		expect(expectError(await s.accounts.verifySignInTotp(new Browser().request('/en/login'), { code: '123456' }))).toEqual({
			code: 'error-session-not-found',
			status: 401,
		})
	})

	test('removing two-factor sign-in needs an aal2 session and the password; afterwards the session is aal1', async () => {
		const s = setup()
		const browser = new Browser()
		await signedIn(s, browser)
		expectOk(browser.take(await s.accounts.enrollTotp(browser.request('/en/settings'), { password: 'correct horse' })))
		expectOk(browser.take(await s.accounts.confirmTotpEnrollment(browser.request('/en/settings'), { code: fake.totpCode })))

		const pending = new Browser()
		expect(expectOk(pending.take(await s.accounts.signIn(pending.request('/en/login'), { email: 'ada@example.com', password: 'correct horse' })))).toEqual({ totpRequired: true })
		expect(expectError(await s.accounts.disableTotp(pending.request('/en/settings'), { password: 'correct horse' }))).toEqual({
			code: 'error-not-authenticated',
			status: 403,
			reasons: ['aal2-required'],
		})
		expect(expectError(await s.accounts.deleteAccount(pending.request('/api/auth/delete'), { code: '123456' }))).toMatchObject({ reasons: ['aal2-required'] })

		expect(expectError(await s.accounts.disableTotp(browser.request('/en/settings'), { password: 'wrong' })).code).toBe('error-wrong-password')
		expect(expectOk(browser.take(await s.accounts.disableTotp(browser.request('/en/settings'), { password: 'correct horse' })))).toBeNull()
		expect(fake.userByEmail('ada@example.com')?.factors).toEqual([])
		expect(await s.viewerOf(browser)).toMatchObject({ totpEnabled: false, claims: { aal: 'aal1' } })
	})

	test('a second enrolment while one is on is refused; a half-done one is replaced', async () => {
		const s = setup()
		const browser = new Browser()
		const user = await signedIn(s, browser)
		const first = expectOk(await s.accounts.enrollTotp(browser.request('/en/settings'), { password: 'correct horse' }))
		s.advance(5)
		const second = expectOk(await s.accounts.enrollTotp(browser.request('/en/settings'), { password: 'correct horse' }))
		expect(second.secret).not.toBe(first.secret)
		expect(user.factors).toHaveLength(1)
		expectOk(browser.take(await s.accounts.confirmTotpEnrollment(browser.request('/en/settings'), { code: fake.totpCode })))
		expect(expectError(await s.accounts.enrollTotp(browser.request('/en/settings'), { password: 'correct horse' }))).toEqual({
			code: 'error-unknown',
			status: 409,
			reasons: ['totp-already-enabled'],
		})
	})
})

describe('account deletion', () => {
	test('without the service role key deletion is refused (501) and logged', async () => {
		const s = setup()
		const browser = new Browser()
		await signedIn(s, browser)
		expect(expectError(await s.accounts.deleteAccount(browser.request('/api/auth/delete'), { password: 'correct horse' }))).toEqual({
			code: 'error-unknown',
			status: 501,
			reasons: ['service-role-key-missing'],
		})
		expect(s.logs).toContainEqual({ level: 'error', message: 'this account operation needs SUPABASE_SERVICE_ROLE_KEY' })
	})

	test('deletes the user through the admin API with the service role key and expires the cookies', async () => {
		const s = setup({ serviceRoleKey: fake.serviceRoleKey })
		const browser = new Browser()
		const user = await signedIn(s, browser)
		expect(expectError(await s.accounts.deleteAccount(new Browser().request('/api/auth/delete'), {})).code).toBe('error-not-authenticated')
		const deleted = browser.take(await s.accounts.deleteAccount(browser.request('/api/auth/delete'), { password: 'correct horse' }))
		expect(expectOk(deleted)).toBeNull()
		const [call] = fake.requestsTo('DELETE', `/admin/users/${user.id}`)
		expect(call?.headers.authorization).toBe(`Bearer ${fake.serviceRoleKey}`)
		expect(fake.users.has(user.id)).toBe(false)
		expect(browser.names().filter((n) => SESSION_COOKIE.test(n))).toEqual([])
	})
})

/** A loopback port that was free a moment ago and that nothing listens on. */
async function unusedPort(): Promise<number> {
	const { createServer } = await import('node:net')
	const server = createServer()
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const address = server.address()
	const port = typeof address === 'object' && address ? address.port : 0
	await new Promise<void>((resolve) => server.close(() => resolve()))
	return port
}

describe('sign-in methods in the settings', () => {
	test('connecting Google: linkIdentity with PKCE, back on /settings?link=google&code=..., listed afterwards', async () => {
		const s = setup()
		const browser = new Browser()
		const user = await signedIn(s, browser)
		expect(expectOk(await s.accounts.listSignInMethods(browser.request('/de/settings', { method: 'GET' })))).toEqual({
			methods: [{ provider: 'email', detail: 'ada@example.com' }],
			// Twitch is off in this project (GET /settings).
			connectable: ['google'],
		})

		const { url } = expectOk(browser.take(await s.accounts.linkProvider(browser.request('/de/settings'), { provider: 'google', locale: 'de' })))
		const authorize = fake.requestsTo('GET', '/user/identities/authorize')[0]
		expect(authorize?.query.get('provider')).toBe('google')
		expect(authorize?.query.get('redirect_to')).toBe(`${APP_URL}/de/settings?link=google`)
		expect(authorize?.query.get('code_challenge_method')).toBe('s256')
		expect(authorize?.headers.authorization).toMatch(/^Bearer /)

		const linked = fake.completeLink(url, { id: 'google-sub-1', identity_data: { email: 'ada.private@gmail.example', sub: 'google-sub-1' } })
		if (!('code' in linked)) expect.fail('the link was refused')
		const back = new URL(`${APP_URL}/de/settings?link=google`)
		back.searchParams.set('code', linked.code)
		expect(expectOk(browser.take(await s.accounts.finishLink(browser.request(back.pathname + back.search, { method: 'GET' }))))).toEqual({ provider: 'google' })
		expect(fake.requestsTo('POST', '/token').find((r) => r.query.get('grant_type') === 'pkce')?.body).toMatchObject({ auth_code: linked.code })
		expect(expectOk(await s.accounts.listSignInMethods(browser.request('/de/settings', { method: 'GET' })))).toEqual({
			methods: [
				{ provider: 'email', detail: 'ada@example.com' },
				{ provider: 'google', detail: 'ada.private@gmail.example' },
			],
			connectable: [],
		})
		expect((await s.viewerOf(browser))?.userId).toBe(user.id)

		// Disconnecting it: DELETE /user/identities/{identity_id}.
		expectOk(browser.take(await s.accounts.unlinkProvider(browser.request('/de/settings'), { provider: 'google' })))
		const google = fake.identitiesOf(user).find((i) => i.provider === 'google')
		expect(google).toBeUndefined()
		expect(fake.requests.filter((r) => r.method === 'DELETE' && r.path.startsWith('/user/identities/'))).toHaveLength(1)
		expect(expectOk(await s.accounts.listSignInMethods(browser.request('/de/settings', { method: 'GET' }))).methods).toEqual([
			{ provider: 'email', detail: 'ada@example.com' },
		])
	})

	test('refusals: identity of another user, a hand-typed return, the last identity, manual linking off, signed out', async () => {
		const s = setup()
		const browser = new Browser()
		await signedIn(s, browser)

		// Supabase says the identity belongs to someone else: translated, nothing linked.
		const refused = await s.accounts.finishLink(
			browser.request('/de/settings?link=google&error=server_error&error_code=identity_already_exists&error_description=Identity+is+already+linked', { method: 'GET' }),
		)
		expect(expectError(refused)).toEqual({ code: 'error-identity-already-exists', status: 400 })
		expect(expectError(await s.accounts.finishLink(browser.request('/de/settings?link=google', { method: 'GET' })))).toMatchObject({ code: 'error-identity-not-found', status: 404 })
		expect(expectError(await s.accounts.finishLink(browser.request('/de/settings?link=github', { method: 'GET' })))).toMatchObject({ code: 'error-unknown', status: 400 })

		// The only identity: refused before Supabase is asked.
		const twitchOnly = fake.addUser('tina@example.com', 'correct horse')
		fake.setIdentities(twitchOnly, [{ id: 'twitch-1', provider: 'twitch', identity_data: { name: 'tina_live', sub: 'twitch-1' } }])
		const tina = new Browser()
		await signedIn(s, tina, 'tina@example.com')
		expect(expectOk(await s.accounts.listSignInMethods(tina.request('/en/settings', { method: 'GET' }))).methods).toEqual([
			{ provider: 'twitch', detail: 'tina_live' },
		])
		expect(expectError(await s.accounts.unlinkProvider(tina.request('/en/settings'), { provider: 'twitch' }))).toMatchObject({ code: 'error-single-identity-not-deletable', status: 422 })
		expect(expectError(await s.accounts.unlinkProvider(tina.request('/en/settings'), { provider: 'google' }))).toMatchObject({ code: 'error-identity-not-found', status: 404 })
		expect(fake.requests.filter((r) => r.method === 'DELETE')).toEqual([])

		// The project has manual linking off: a translated failure, not a crash.
		fake.manualLinking = false
		expect(expectError(await s.accounts.linkProvider(browser.request('/en/settings'), { provider: 'google', locale: 'en' }))).toEqual({
			code: 'error-unknown',
			status: 501,
			reasons: ['manual-linking-disabled'],
		})
		// A provider the project has not switched on never reaches Supabase.
		expect(expectError(await s.accounts.linkProvider(browser.request('/en/settings'), { provider: 'twitch', locale: 'en' }))).toMatchObject({ code: 'error-provider-not-configured', status: 404 })

		const stranger = new Browser()
		expect(expectError(await s.accounts.listSignInMethods(stranger.request('/en/settings', { method: 'GET' })))).toMatchObject({ code: 'error-not-authenticated', status: 401 })
		expect(expectError(await s.accounts.linkProvider(stranger.request('/en/settings'), { provider: 'google', locale: 'en' }))).toMatchObject({ code: 'error-not-authenticated', status: 401 })
		expect(expectError(await s.accounts.unlinkProvider(stranger.request('/en/settings'), { provider: 'google' }))).toMatchObject({ code: 'error-not-authenticated', status: 401 })
	})
})
