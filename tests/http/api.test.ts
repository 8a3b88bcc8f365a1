import { randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import { DEMO_SESSIONS } from '#app/db/seed.server'
import { currentDocumentVersions } from '#app/modules/legal/documents.server'
import { uniqueEmail } from '#tests/support/unique-email'
import { describeEachServer, Visitor } from './support'

/**
 * The routes under /api (app/routes/api): what they answer a visitor, a
 * signed-in viewer and a wrong method. The account routes answer a JSON body
 * with JSON (this file: what a client of the API gets) and a form post with a
 * redirect and a toast (what the account dialog posts: its journeys in
 * tests/e2e, and every end-to-end account's setup, completeAccount).
 */
const live = DEMO_SESSIONS.miaLive
/** A JSON body, which the account routes answer with JSON. */
const JSON_POST = (server: { url: string }, body: Record<string, string>): RequestInit => ({
	method: 'POST',
	headers: { 'content-type': 'application/json', origin: server.url },
	body: JSON.stringify(body),
})
/** The shop's buy form, which /api/shop/buy always answers with JSON. */
const FORM_POST = (server: { url: string }, body: Record<string, string>): RequestInit => ({
	method: 'POST',
	headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
	body: new URLSearchParams(body).toString(),
})

describeEachServer('the API routes', (server) => {
	test('GET /api/session: a live session by id or by channel, uncached; a bad query 400, an unknown session 404', async () => {
		const visitor = new Visitor(server)
		for (const query of [`id=${live.id}`, `platform=${live.platform}&channel=${live.channel}`]) {
			const response = await visitor.fetch(`/api/session?${query}`)
			expect(response.status, query).toBe(200)
			expect(response.headers.get('cache-control'), query).toBe('no-store')
			const body = (await response.json()) as { session: { id: string; title: string }; isCreator: boolean }
			expect(body.session, query).toMatchObject({ id: live.id, title: live.title })
			expect(body.isCreator).toBe(false)
		}
		const errors: Array<[string, number, string]> = [
			['', 400, 'error-invalid-session-query'],
			['platform=myspace&channel=x', 400, 'error-invalid-session-query'],
			['id=00000000-0000-4000-8000-000000000000', 404, 'error-live-session-not-found'],
			['platform=twitch&channel=nobody_streams_here', 404, 'error-live-session-not-found'],
		]
		for (const [query, status, error] of errors) {
			const response = await visitor.fetch(`/api/session?${query}`)
			expect([response.status, await response.json()], query).toEqual([status, { error }])
		}
	})

	test('GET /api/realtime/token: a visitor gets a short-lived anon token, uncached', async () => {
		const response = await new Visitor(server).fetch('/api/realtime/token')
		expect(response.headers.get('cache-control')).toBe('no-store')
		const { token, expiresAt } = (await response.json()) as { token: string; expiresAt: number }
		const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { role: string; exp: number; sub?: string }
		expect(claims.role).toBe('anon')
		expect(claims.sub).toBeUndefined()
		expect(expiresAt).toBe(claims.exp * 1000)
		expect(expiresAt - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000)
	})

	test('GET /api/auth/username: whether a name is free, uncached', async () => {
		const visitor = new Visitor(server)
		const taken = await visitor.fetch(`/api/auth/username?username=${live.creator}`)
		expect(taken.headers.get('cache-control')).toBe('no-store')
		expect(await taken.json()).toEqual({ available: false })
		expect(await (await visitor.fetch(`/api/auth/username?username=free_${Date.now().toString(36)}`)).json()).toEqual({ available: true })
	})

	test('the POST-only routes answer 405 to a GET, and 401 to a visitor', async () => {
		const visitor = new Visitor(server)
		for (const path of ['/api/auth/create', '/api/auth/consent', '/api/auth/delete', '/api/shop/buy', '/api/stripe/webhook']) {
			expect((await visitor.fetch(path)).status, path).toBe(405)
		}
		for (const path of ['/api/auth/create', '/api/auth/consent', '/api/auth/delete']) {
			const response = await visitor.fetch(path, JSON_POST(server, { username: 'someone' }))
			expect([response.status, await response.json()], path).toEqual([401, { error: 'error-not-authenticated' }])
		}
		const buy = await visitor.fetch('/api/shop/buy?lang=en', FORM_POST(server, { pack: 'coins-500', idempotencyKey: randomUUID() }))
		expect([buy.status, await buy.json()]).toEqual([401, { ok: false, error: 'error-not-authenticated' }])
		expect((await visitor.fetch('/api/shop/buy', FORM_POST(server, {}))).status).toBe(400)
		expect((await visitor.fetch('/api/auth/provider/nothing')).status).toBe(404)
	})

	test('the Stripe webhook without Stripe configured moves nothing', async () => {
		const response = await new Visitor(server).fetch('/api/stripe/webhook', {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
			body: JSON.stringify({ type: 'checkout.session.completed' }),
		})
		expect([response.status, await response.json()]).toEqual([400, { received: false, error: 'not-configured' }])
	})

	test('a new account through the JSON routes: a bad username 400, a good one, the terms, then a purchase that a retry does not repeat', async () => {
		const visitor = Visitor.decided(server)
		await visitor.signUpAndConfirm('en', uniqueEmail('api'), 'pw-api-check-123')
		const bad = await visitor.fetch('/api/auth/create', JSON_POST(server, { username: 'no spaces allowed' }))
		expect(bad.status).toBe(400)
		// An account that owes the username or the terms is refused at the shop (and by the database: tests/sql).
		const early = await visitor.fetch('/api/shop/buy?lang=en', FORM_POST(server, { pack: 'coins-500', idempotencyKey: randomUUID() }))
		expect([early.status, await early.json()]).toEqual([403, { ok: false, error: 'error-account-incomplete' }])
		const username = `api_${Date.now().toString(36)}`
		expect(await (await visitor.fetch('/api/auth/create', JSON_POST(server, { username }))).json()).toEqual({ username })
		const version = currentDocumentVersions().terms_of_service
		expect(await (await visitor.fetch('/api/auth/consent', JSON_POST(server, { type: 'terms_of_service', version }))).json()).toEqual({ accepted: true })
		const idempotencyKey = randomUUID()
		const first = await visitor.fetch('/api/shop/buy?lang=en', FORM_POST(server, { pack: 'coins-500', idempotencyKey }))
		expect(first.headers.get('cache-control')).toBe('no-store')
		const bought = (await first.json()) as { ok: boolean; coins: number; balance: number }
		expect(bought).toMatchObject({ ok: true, coins: 500, balance: 500 })
		// The same form again (a double click, a retry after a lost answer): the first result, no second credit.
		const again = (await (await visitor.fetch('/api/shop/buy?lang=en', FORM_POST(server, { pack: 'coins-500', idempotencyKey }))).json()) as typeof bought
		expect(again).toMatchObject({ ok: true, coins: 500, balance: 500 })
	})
})
