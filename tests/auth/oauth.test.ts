import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Database } from '#app/db/database.server'
import { describeEachDatabase } from '#tests/support/databases'
import { APP_URL, createHarness, expectError, expectOk, signUpAndConfirm, uniqueEmail, type Browser, type Harness } from './support/harness'
import { startMailCatcher, type MailCatcher } from '#tests/support/mail-catcher.js'
import { startIdentityProvider, type TestAccount, type TestIdentityProvider } from './support/oidc'
import { totp } from './support/totp'

/**
 * Google and Twitch sign-in end to end. The real providers are outside this
 * machine (and would need real accounts), so a real OpenID Connect provider
 * on loopback (`oidc-provider`) stands in for both: the same discovery,
 * redirects, code exchange and signed ID tokens, so everything on the app's
 * side (state, PKCE, nonce, signature checks, account creation and linking)
 * runs for real.
 */

let mail: MailCatcher
let idp: TestIdentityProvider
beforeAll(async () => {
	mail = await startMailCatcher()
	idp = await startIdentityProvider(`${APP_URL}/api/auth/provider/callback`)
})
afterAll(async () => {
	await idp.close()
	await mail.close()
})

function oauthHarness(db: Database) {
	return createHarness(db, mail, {
		google: { ...idp.clients.google, issuer: idp.issuer },
		twitch: { ...idp.clients.twitch, issuer: idp.issuer, apiUrl: `${idp.issuer}/helix` },
	})
}

function person(overrides: Partial<TestAccount> = {}): TestAccount {
	const id = String(Math.floor(Math.random() * 1e12))
	return { id, email: uniqueEmail('oauth'), emailVerified: true, name: `Streamer${id.slice(0, 4)}`, ...overrides }
}

/**
 * The browser's trip through the provider: from the authorization URL,
 * following redirects with the provider's cookies, until the provider sends
 * it back to the app; returns that callback URL.
 */
async function throughProvider(authorizationUrl: string): Promise<URL> {
	const jar = new Map<string, string>()
	let url = new URL(authorizationUrl)
	for (let hop = 0; hop < 10; hop++) {
		if (url.origin === APP_URL) return url
		const response = await fetch(url, {
			redirect: 'manual',
			headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
		})
		for (const line of response.headers.getSetCookie()) {
			const [pair = ''] = line.split(';')
			const index = pair.indexOf('=')
			jar.set(pair.slice(0, index), pair.slice(index + 1))
		}
		const location = response.headers.get('location')
		if (!location) throw new Error(`the provider stopped at ${url} with ${response.status}: ${await response.text()}`)
		url = new URL(location, url)
	}
	throw new Error('too many redirects')
}

/** Start a sign-in with `provider` in `browser`, sign `account` in at the provider, and deliver the callback. */
async function signInWith(h: Harness, browser: Browser, provider: 'google' | 'twitch', account: TestAccount, redirectTo = '/de/session/42') {
	idp.nextAccount = account
	const started = expectOk(browser.take(await h.accounts.startOAuth(browser.request('/de/login'), { provider, redirectTo })))
	const callback = await throughProvider(started.url)
	const response = await h.accounts.handle(browser.request(`${callback.pathname}${callback.search}`, { method: 'GET' }))
	if (!response) expect.fail('the callback path was not handled')
	browser.absorb(response.headers)
	return { started: new URL(started.url), callback, response, location: new URL(response.headers.get('location') ?? '', APP_URL) }
}

describeEachDatabase('Google and Twitch sign-in', (getDb) => {
	test('Google: a new user signs in, lands on /confirm with redirect-to, and has a confirmed account', async () => {
		const db = getDb()
		const h = oauthHarness(db)
		const browser = h.browser()
		const account = person()
		const { started, callback, response, location } = await signInWith(h, browser, 'google', account)

		// The authorization request is the OIDC code flow, bound to this browser.
		expect(started.origin).toBe(idp.issuer)
		expect(started.searchParams.get('client_id')).toBe(idp.clients.google.clientId)
		expect(started.searchParams.get('redirect_uri')).toBe(`${APP_URL}/api/auth/provider/callback/google`)
		expect(started.searchParams.get('response_type')).toBe('code')
		expect(started.searchParams.get('code_challenge_method')).toBe('S256')
		expect(started.searchParams.get('nonce')).toBeTruthy()
		expect(started.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email']))
		expect(callback.searchParams.get('code')).toBeTruthy()

		expect(response.status).toBe(302)
		expect(`${location.pathname}${location.search}`).toBe('/de/confirm?redirect-to=%2Fde%2Fsession%2F42')
		const { viewer } = await h.auth.getViewer(browser.request('/de', { method: 'GET' }))
		if (!viewer) expect.fail('not signed in after the callback')
		expect(viewer.claims).toMatchObject({ role: 'authenticated', email: account.email, aal: 'aal1' })

		const { rows } = await db.query<{ confirmed: boolean; meta: unknown; provider: string; subject: string }>(
			`select u.email_confirmed_at is not null as confirmed, u.raw_user_meta_data as meta, a."providerId" as provider, a."accountId" as subject
			 from auth.users u join better_auth.account a on a."userId" = u.id where u.id = $1`,
			[viewer.userId],
		)
		// The language of the page that started it, from the OAuth state.
		expect(rows).toEqual([{ confirmed: true, meta: { locale: 'de' }, provider: 'google', subject: account.id }])
		// Provider tokens are not stored in the clear.
		const tokens = await db.query<{ access: string | null }>(`select "accessToken" as access from better_auth.account where "userId" = $1`, [viewer.userId])
		const stored = tokens.rows[0]?.access ?? ''
		expect(stored).not.toBe('')
		expect(idp.issuedAccessTokens.length).toBeGreaterThan(0)
		for (const issued of idp.issuedAccessTokens) expect(stored).not.toContain(issued)

		// Signing in again is the same user, a new session; the browser's old one ends.
		await signInWith(h, browser, 'google', account)
		const second = (await h.auth.getViewer(browser.request('/', { method: 'GET' }))).viewer
		expect(second?.userId).toBe(viewer.userId)
		expect(second?.claims.session_id).not.toBe(viewer.claims.session_id)
		expect((await db.query('select 1 from better_auth.session where id = $1', [viewer.claims.session_id])).rows).toEqual([])
	})

	test('Google with the address of a confirmed password account signs into that account', async () => {
		const db = getDb()
		const h = oauthHarness(db)
		const existing = await signUpAndConfirm(h, mail, h.browser())
		const browser = h.browser()
		await signInWith(h, browser, 'google', person({ email: existing.email }))
		expect((await h.auth.getViewer(browser.request('/', { method: 'GET' }))).viewer?.userId).toBe(existing.userId)
		const { rows } = await db.query('select "providerId" from better_auth.account where "userId" = $1 order by 1', [existing.userId])
		expect(rows).toEqual([{ providerId: 'credential' }, { providerId: 'google' }])
	})

	test('a provider that has not verified the address creates no account and no session', async () => {
		const db = getDb()
		const h = oauthHarness(db)
		const browser = h.browser()
		const account = person({ emailVerified: false })
		const { location } = await signInWith(h, browser, 'google', account)
		expect(location.pathname).toBe('/de/confirm')
		expect(location.searchParams.get('error')).toBe('email_not_verified')
		expect(browser.hasSession()).toBe(false)
		expect((await db.query('select 1 from auth.users where email = $1', [account.email])).rows).toEqual([])
	})

	test('Twitch: sign-in keeps the Twitch user id and channel login for linking the channel later', async () => {
		const db = getDb()
		const h = oauthHarness(db)
		const browser = h.browser()
		const account = person({ name: 'CoolStreamer', login: 'coolstreamer_tv' })
		const { started, location } = await signInWith(h, browser, 'twitch', account, '/en/settings')
		expect(started.searchParams.get('client_id')).toBe(idp.clients.twitch.clientId)
		expect(JSON.parse(started.searchParams.get('claims') ?? '{}')).toMatchObject({ id_token: { email: null, email_verified: null } })
		expect(`${location.pathname}${location.search}`).toBe('/en/confirm?redirect-to=%2Fen%2Fsettings')

		const viewer = (await h.auth.getViewer(browser.request('/', { method: 'GET' }))).viewer
		if (!viewer) expect.fail('not signed in with Twitch')
		const { rows } = await db.query(
			`select "accountId", "providerLogin" from better_auth.account where "userId" = $1 and "providerId" = 'twitch'`,
			[viewer.userId],
		)
		expect(rows).toEqual([{ accountId: account.id, providerLogin: 'coolstreamer_tv' }])

		// A rename on Twitch reaches the account on the next sign-in.
		await signInWith(h, h.browser(), 'twitch', { ...account, login: 'renamed_streamer' })
		const renamed = await db.query(`select "providerLogin" from better_auth.account where "userId" = $1 and "providerId" = 'twitch'`, [viewer.userId])
		expect(renamed.rows).toEqual([{ providerLogin: 'renamed_streamer' }])
	})

	test('an account with TOTP must give its code after a provider sign-in too', async () => {
		const db = getDb()
		const h = oauthHarness(db)
		const home = h.browser()
		const { email, password } = await signUpAndConfirm(h, mail, home)
		const { secret } = expectOk(await h.accounts.enrollTotp(home.request('/en/settings'), { password }))
		expectOk(home.take(await h.accounts.confirmTotpEnrollment(home.request('/en/settings'), { code: totp(secret) })))

		const browser = h.browser()
		const { location } = await signInWith(h, browser, 'google', person({ email }))
		expect(location.pathname).toBe('/de/confirm')
		expect(location.searchParams.get('totp')).toBe('required')
		expect(location.searchParams.get('redirect-to')).toBe('/de/session/42')
		expect(browser.hasSession()).toBe(false)
		expect((await h.auth.getViewer(browser.request('/', { method: 'GET' }))).viewer).toBeNull()

		expectOk(browser.take(await h.accounts.verifySignInTotp(browser.request('/de/confirm'), { code: totp(secret, Date.now() + 30_000) })))
		expect((await h.auth.getViewer(browser.request('/', { method: 'GET' }))).viewer?.claims.aal).toBe('aal2')
	})

	test('a callback that was not started in this browser signs nobody in', async () => {
		const db = getDb()
		const h = oauthHarness(db)
		// Better Auth logs the mismatch it refuses.
		h.expectedErrors.push('Failed to parse state')
		const victim = h.browser()
		idp.nextAccount = person()
		const started = expectOk(await h.accounts.startOAuth(h.browser().request('/en/login'), { provider: 'google', redirectTo: '/en' }))
		const callback = await throughProvider(started.url)
		// Login CSRF: the attacker's callback URL opened in the victim's browser (without the attacker's state cookie).
		const response = await h.accounts.handle(victim.request(`${callback.pathname}${callback.search}`, { method: 'GET' }))
		victim.absorb(response!.headers)
		expect(response!.status).toBe(302)
		expect(new URL(response!.headers.get('location')!, APP_URL).searchParams.get('error')).toBeTruthy()
		expect(victim.hasSession()).toBe(false)
	})

	test('only the provider callbacks are served under /api/auth/provider', async () => {
		const h = oauthHarness(getDb())
		const browser = h.browser()
		expect(await h.accounts.handle(browser.request('/en/login', { method: 'GET' }))).toBeNull()
		expect(await h.accounts.handle(browser.request('/api/auth/other', { method: 'GET' }))).toBeNull()
		for (const path of ['/api/auth/provider/sign-up/email', '/api/auth/provider/get-session', '/api/auth/provider/callback/github', '/api/auth/provider']) {
			expect((await h.accounts.handle(browser.request(path, { method: 'POST' })))?.status, path).toBe(404)
		}

		const withoutTwitch = createHarness(getDb(), mail, { google: { ...idp.clients.google, issuer: idp.issuer } })
		expect((await withoutTwitch.accounts.handle(browser.request('/api/auth/provider/callback/twitch', { method: 'GET' })))?.status).toBe(404)
		expectError(
			await withoutTwitch.accounts.startOAuth(browser.request('/en/login'), { provider: 'twitch', redirectTo: '/en' }),
			'error-provider-not-configured',
			404,
		)
		expect(withoutTwitch.accounts.oauthProviders).toEqual(['google'])
		// redirect-to never leaves the site.
		const started = expectOk(await h.accounts.startOAuth(browser.request('/en/login'), { provider: 'google', redirectTo: `//evil.example/${randomUUID()}` }))
		expect(started.url.startsWith(idp.issuer)).toBe(true)
	})
	test('settings: connecting and disconnecting providers, and what is refused', async () => {
		const h = oauthHarness(getDb())
		/** Connect `provider` as `account` at the provider, from `browser`; returns the settings URL it comes back to. */
		async function link(browser: Browser, provider: 'google' | 'twitch', account: TestAccount) {
			idp.nextAccount = account
			const started = expectOk(browser.take(await h.accounts.linkProvider(browser.request('/de/settings'), { provider, locale: 'de' })))
			const callback = await throughProvider(started.url)
			const response = await h.accounts.handle(browser.request(`${callback.pathname}${callback.search}`, { method: 'GET' }))
			browser.absorb(response!.headers)
			expect(response!.status).toBe(302)
			const back = new URL(response!.headers.get('location')!, APP_URL)
			expect(back.pathname).toBe('/de/settings')
			return back
		}
		const methods = async (browser: Browser) => expectOk(await h.accounts.listSignInMethods(browser.request('/de/settings', { method: 'GET' })))

		// Someone who signed up with Twitch: the only way in stays.
		const streamer = h.browser()
		const twitchIdentity = person()
		await signInWith(h, streamer, 'twitch', twitchIdentity)
		expect((await methods(streamer)).methods.map((m) => m.provider)).toEqual(['twitch'])
		expectError(await h.accounts.unlinkProvider(streamer.request('/de/settings'), { provider: 'twitch' }), 'error-single-identity-not-deletable', 422)
		expect((await methods(streamer)).methods.map((m) => m.provider)).toEqual(['twitch'])

		// A password account: Google with another address connects and signs in to it.
		const viewer = h.browser()
		const { userId } = await signUpAndConfirm(h, mail, viewer)
		expect(await methods(viewer)).toEqual({ methods: [{ provider: 'email', detail: expect.any(String) }], connectable: ['google', 'twitch'] })
		const googleIdentity = person()
		const back = await link(viewer, 'google', googleIdentity)
		expect(expectOk(await h.accounts.finishLink(viewer.request(`${back.pathname}${back.search}`, { method: 'GET' })))).toEqual({ provider: 'google' })
		expect(await methods(viewer)).toEqual({
			methods: [{ provider: 'email', detail: expect.any(String) }, { provider: 'google', detail: null }],
			connectable: ['twitch'],
		})
		const elsewhere = h.browser()
		await signInWith(h, elsewhere, 'google', googleIdentity)
		expect((await h.auth.getViewer(elsewhere.request('/', { method: 'GET' }))).viewer?.userId).toBe(userId)

		// The streamer's Twitch identity belongs to the streamer: connecting it here is refused, nothing changes.
		const refused = await link(viewer, 'twitch', twitchIdentity)
		expect(refused.searchParams.get('error')).toBeTruthy()
		expectError(await h.accounts.finishLink(viewer.request(`${refused.pathname}${refused.search}`, { method: 'GET' })), 'error-identity-already-exists', 422)
		expect((await methods(viewer)).methods.map((m) => m.provider)).toEqual(['email', 'google'])
		expect((await methods(streamer)).methods.map((m) => m.provider)).toEqual(['twitch'])
		// A hand-typed return URL proves nothing.
		expectError(await h.accounts.finishLink(viewer.request('/de/settings?link=twitch', { method: 'GET' })), 'error-identity-not-found', 404)
		expectError(await h.accounts.unlinkProvider(viewer.request('/de/settings'), { provider: 'twitch' }), 'error-identity-not-found', 404)

		// Disconnected, Google no longer signs in to this account (it makes a new one).
		expectOk(await h.accounts.unlinkProvider(viewer.request('/de/settings'), { provider: 'google' }))
		expect((await methods(viewer)).methods.map((m) => m.provider)).toEqual(['email'])
		const later = h.browser()
		await signInWith(h, later, 'google', googleIdentity)
		expect((await h.auth.getViewer(later.request('/', { method: 'GET' }))).viewer?.userId).not.toBe(userId)

		// Signed out: none of it.
		const stranger = h.browser()
		expectError(await h.accounts.listSignInMethods(stranger.request('/de/settings', { method: 'GET' })), 'error-not-authenticated', 401)
		expectError(await h.accounts.linkProvider(stranger.request('/de/settings'), { provider: 'google', locale: 'de' }), 'error-not-authenticated', 401)
		expectError(await h.accounts.unlinkProvider(stranger.request('/de/settings'), { provider: 'google' }), 'error-not-authenticated', 401)
	})
})
