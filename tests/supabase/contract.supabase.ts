import { randomUUID } from 'node:crypto'
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createSupabaseAuth } from '#app/modules/account/backends/supabase/backend.server'
import { authStorageKey, createDetachedClient } from '#app/modules/account/backends/supabase/client.server'
import { Browser, expectError, expectOk, parseSetCookie } from './browser'

/**
 * The Supabase adapter against a real Supabase project: the contract the
 * loopback stand-in (fake-gotrue.ts) imitates. It needs a project, so it is
 * not part of `npm test` (which runs offline) but a command of its own:
 *
 *   SUPABASE_TEST_URL=https://<ref>.supabase.co \
 *   SUPABASE_TEST_ANON_KEY=<anon or publishable key> \
 *   SUPABASE_TEST_SERVICE_ROLE_KEY=<service_role or secret key> \
 *   npm run test:contract
 *
 * (`supabase start` gives a local project: its API URL and keys work the
 * same.) Users are created through the admin API as already confirmed, so no
 * mail is sent; every user the suite creates is deleted again. Use a project
 * without data you care about: the suite signs in and out and deletes its
 * own users only, but it does use the service role key.
 */

const url = process.env.SUPABASE_TEST_URL
const anonKey = process.env.SUPABASE_TEST_ANON_KEY
const serviceRoleKey = process.env.SUPABASE_TEST_SERVICE_ROLE_KEY
if (!url || !anonKey || !serviceRoleKey) {
	throw new Error('The contract suite needs SUPABASE_TEST_URL, SUPABASE_TEST_ANON_KEY and SUPABASE_TEST_SERVICE_ROLE_KEY (see the comment above).')
}

describe('Supabase Auth contract (SUPABASE_TEST_URL)', () => {
	const password = `Contract-${randomUUID()}`
	const created: string[] = []
	let admin: SupabaseClient
	let storageKey: string

	async function createConfirmedUser(): Promise<{ id: string; email: string }> {
		const email = `dareboost-contract-${randomUUID()}@example.com`
		const { data, error } = await admin.auth.admin.createUser({ email, password, email_confirm: true, user_metadata: { locale: 'de' } })
		if (error || !data.user) throw error ?? new Error('no user')
		created.push(data.user.id)
		return { id: data.user.id, email }
	}

	function service() {
		return createSupabaseAuth({
			url: url ?? '',
			anonKey: anonKey ?? '',
			serviceRoleKey,
			appUrl: process.env.SUPABASE_TEST_APP_URL ?? 'http://localhost:3000',
			log: () => {},
		})
	}

	beforeAll(() => {
		admin = createDetachedClient(url ?? '', serviceRoleKey ?? '')
		storageKey = authStorageKey(url ?? '')
	})

	afterAll(async () => {
		for (const id of created) await admin?.auth.admin.deleteUser(id)
	})

	test('sign-in sets the session cookie per docs/product.md §15.6; getViewer returns the verified claims; sign-out ends the session', async () => {
		const user = await createConfirmedUser()
		const { accounts, auth } = service()
		const browser = new Browser()

		const signedIn = browser.take(await accounts.signIn(browser.request('/de/login'), { email: user.email, password }))
		expect(expectOk(signedIn)).toEqual({ totpRequired: false })
		const cookie = signedIn.headers
			.getSetCookie()
			.map(parseSetCookie)
			.find((c) => c.name === storageKey || c.name === `${storageKey}.0`)
		expect(cookie?.attributes).toMatchObject({ path: '/', samesite: 'Lax', httponly: true, 'max-age': String(400 * 24 * 60 * 60) })

		const { viewer } = await auth.getViewer(browser.request('/de', { method: 'GET' }))
		expect(viewer).toMatchObject({
			userId: user.id,
			email: user.email,
			totpEnabled: false,
			claims: { sub: user.id, role: 'authenticated', aal: 'aal1', email: user.email },
		})
		expect(viewer?.claims.session_id).toEqual(expect.any(String))
		expect(viewer?.claims.user_metadata).toMatchObject({ locale: 'de' })

		const stale = new Browser()
		for (const [k, v] of browser.cookies) stale.cookies.set(k, v)
		expect(expectOk(browser.take(await accounts.signOut(browser.request('/de/logout'))))).toBeNull()
		expect(browser.names().filter((n) => n.startsWith(storageKey) && !n.endsWith('code-verifier'))).toEqual([])
		// The old cookies no longer make a viewer: the session is gone at Supabase.
		expect((await auth.getViewer(stale.request('/de', { method: 'GET' }))).viewer).toBeNull()
	})

	test('refusals map to the product codes', async () => {
		const user = await createConfirmedUser()
		const { accounts } = service()
		expect(expectError(await accounts.signIn(new Browser().request('/en/login'), { email: user.email, password: `${password}-wrong` })).code).toBe(
			'error-invalid-credentials',
		)
		expect(expectError(await accounts.confirmEmail(new Browser().request('/en/confirm?token_hash=pkce_0000&type=signup', { method: 'GET' }))).code).toBe(
			'error-invalid-token',
		)
		expect(expectError(await accounts.verifySignInTotp(new Browser().request('/en/login'), { code: '123456' })).code).toBe('error-session-not-found')
		// A repeated sign-up of a confirmed address answers like a new one (and sends nothing).
		expect(expectOk(await accounts.signUp(new Browser().request('/en/register'), { email: user.email, password, locale: 'en', redirectTo: '/en' }))).toBeNull()
	})

	test('sign-in methods: a password account lists its email identity, and that only identity cannot be removed', async () => {
		const user = await createConfirmedUser()
		const { accounts } = service()
		const browser = new Browser()
		expectOk(browser.take(await accounts.signIn(browser.request('/en/login'), { email: user.email, password })))
		const { methods } = expectOk(await accounts.listSignInMethods(browser.request('/en/settings', { method: 'GET' })))
		expect(methods).toEqual([{ provider: 'email', detail: user.email }])
		expect(expectError(await accounts.unlinkProvider(browser.request('/en/settings'), { provider: 'google' })).code).toBe('error-identity-not-found')
	})

	test('account deletion removes the user through the admin API', async () => {
		const user = await createConfirmedUser()
		const { accounts } = service()
		const browser = new Browser()
		browser.take(await accounts.signIn(browser.request('/en/login'), { email: user.email, password }))
		expect(expectOk(browser.take(await accounts.deleteAccount(browser.request('/api/auth/delete'), { password })))).toBeNull()
		const { error } = await admin.auth.admin.getUserById(user.id)
		expect(error?.status).toBe(404)
	})
})
