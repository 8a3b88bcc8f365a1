import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterEach, expect, test } from 'vitest'
import { analyticsRelay } from './relay.server'
import { RELAY_BODY_LIMIT } from './config'

type Forwarded = { url: string; init: RequestInit }
const servers: Array<{ close: () => void }> = []
afterEach(() => {
	for (const s of servers.splice(0)) s.close()
})

/** The relay on a loopback port; `fetch` to PostHog is a recorder (why: no network in unit tests; the e2e suite uses a real loopback upstream). */
async function relay(env: { POSTHOG_KEY?: string }, answer: () => Response | Promise<Response> = () => new Response('{"status":1}', { headers: { 'content-type': 'application/json', 'set-cookie': 'up=1' } })) {
	const forwarded: Forwarded[] = []
	const fakeFetch = (async (url: URL | string, init?: RequestInit) => {
		forwarded.push({ url: String(url), init: init ?? {} })
		return answer()
	}) as typeof fetch
	const app = express()
	app.use(analyticsRelay({ ...env, POSTHOG_HOST: 'https://eu.i.posthog.com', APP_URL: 'http://localhost:3000' }, fakeFetch))
	app.use((_req, res) => res.status(418).end('fell through'))
	const server = app.listen(0, '127.0.0.1')
	await new Promise((resolve) => server.once('listening', resolve))
	servers.push(server)
	const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
	return { base, forwarded }
}

const ALLOWED = 'cookie_consent=true; cookie_consent_ids=sign-in~analytics; better-auth.session_token=secret'
const post = (base: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
	fetch(`${base}${path}`, { method: 'POST', body: '{"event":"$pageview"}', ...init, headers: { cookie: ALLOWED, origin: 'http://localhost:3000', ...init.headers } })

test('forwards a capture request to POSTHOG_HOST with its query, body and content type, and nothing of the visitor', async () => {
	const { base, forwarded } = await relay({ POSTHOG_KEY: 'phc_key_0123' })
	const answer = await post(base, '/ingress/e/?ip=0&ver=1', {
		headers: { 'content-type': 'text/plain', 'x-forwarded-for': '203.0.113.9', 'user-agent': 'Visitor/1.0', referer: 'http://localhost:3000/en' },
	})
	expect(answer.status).toBe(200)
	expect(await answer.text()).toBe('{"status":1}')
	expect(answer.headers.get('set-cookie')).toBeNull()
	expect(answer.headers.get('cache-control')).toBe('no-store')
	expect(forwarded).toHaveLength(1)
	expect(forwarded[0]!.url).toBe('https://eu.i.posthog.com/e/?ip=0&ver=1')
	const headers = new Headers(forwarded[0]!.init.headers)
	expect([...headers.keys()]).toEqual(['content-type'])
	expect(Buffer.from(forwarded[0]!.init.body as Uint8Array).toString()).toBe('{"event":"$pageview"}')
	expect(forwarded[0]!.init.redirect).toBe('error')
})

test('only the ingestion paths, only POST: flags, remote config, decide and anything else are not relayed', async () => {
	const { base, forwarded } = await relay({ POSTHOG_KEY: 'phc_key_0123' })
	for (const path of ['/ingress/flags/', '/ingress/decide/', '/ingress/array/phc_key_0123/config', '/ingress/static/array.js', '/ingress/e/../admin', '/ingress/s/']) {
		expect((await post(base, path)).status, path).toBe(404)
	}
	for (const path of ['/ingress/batch/', '/ingress/i/v0/e/', '/ingress/capture/', '/ingress/engage/']) {
		expect((await post(base, path)).status, path).toBe(200)
	}
	expect((await fetch(`${base}/ingress/e/`, { headers: { cookie: ALLOWED } })).status).toBe(405)
	expect(forwarded.map((f) => new URL(f.url).pathname)).toEqual(['/batch/', '/i/v0/e/', '/capture/', '/engage/'])
})

test('refused without POSTHOG_KEY, without the analytics choice in the cookies, and from another site', async () => {
	const off = await relay({})
	expect((await post(off.base, '/ingress/e/')).status).toBe(404)
	const { base, forwarded } = await relay({ POSTHOG_KEY: 'phc_key_0123' })
	expect((await post(base, '/ingress/e/', { headers: { cookie: '' } })).status).toBe(403)
	expect((await post(base, '/ingress/e/', { headers: { cookie: 'cookie_consent=true; cookie_consent_ids=twitch' } })).status).toBe(403)
	expect((await post(base, '/ingress/e/', { headers: { cookie: 'cookie_consent_ids=analytics' } })).status).toBe(403)
	expect((await post(base, '/ingress/e/', { headers: { origin: 'https://evil.example' } })).status).toBe(403)
	expect((await post(base, '/ingress/e/', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403)
	expect(forwarded).toHaveLength(0)
})

test(`a body over ${RELAY_BODY_LIMIT} bytes is refused with 413 and not forwarded; an upstream failure is a 502`, async () => {
	const { base, forwarded } = await relay({ POSTHOG_KEY: 'phc_key_0123' })
	const big = await post(base, '/ingress/batch/', { body: 'x'.repeat(RELAY_BODY_LIMIT + 1) })
	expect(big.status).toBe(413)
	expect(forwarded).toHaveLength(0)
	expect((await post(base, '/ingress/batch/', { body: 'x'.repeat(RELAY_BODY_LIMIT) })).status).toBe(200)
	const failing = await relay({ POSTHOG_KEY: 'phc_key_0123' }, () => {
		throw new Error('connection refused')
	})
	expect((await post(failing.base, '/ingress/e/')).status).toBe(502)
})
