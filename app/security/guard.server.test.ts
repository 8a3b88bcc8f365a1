import { once } from 'node:events'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { parseEnv } from '#app/env.server'
import { limitedBody, refuseTooLarge } from './body-limit.server'
import { createGuard } from './guard.server'
import { allowedHosts, isAllowedHost, isLoopbackAddress } from './hosts.server'
import { OPERATOR } from '#tests/support/env'

/**
 * The guard in front of a stand-in app (which reads bodies through the same
 * size-limited stream as the real one), over real HTTP. `x-test-peer` makes
 * the stand-in's socket report another peer address, as a client on the
 * network or behind Docker's port mapping would be seen.
 */
const env = parseEnv({ ...OPERATOR, NODE_ENV: 'production', APP_URL: 'https://dares.example', MAX_BODY_BYTES: '65536', ALLOWED_HOSTS: 'www.dares.example' })
let server: Server
let port = 0

beforeAll(async () => {
	const app = express()
	app.use((req, _res, next) => {
		const peer = req.headers['x-test-peer']
		if (typeof peer === 'string') Object.defineProperty(req.socket, 'remoteAddress', { value: peer, configurable: true })
		next()
	})
	app.use(createGuard(env))
	app.get('/healthz', (_req, res) => void res.json({ ok: true }))
	app.get('/dev/mailbox', (_req, res) => void res.send('mailbox'))
	app.post('/echo', async (req, res) => {
		const { body } = limitedBody(req, env.MAX_BODY_BYTES, () => refuseTooLarge(req, res))
		try {
			const text = await new Response(body).text()
			res.send(`read ${text.length}`)
		} catch {
			// the 413 is already on its way
		}
	})
	app.use((_req, res) => void res.send('page'))
	server = createServer(app)
	server.listen(0, '127.0.0.1')
	await once(server, 'listening')
	port = (server.address() as AddressInfo).port
})

afterAll(() => {
	server.closeAllConnections()
	server.close()
})

function send(options: { path?: string; method?: string; headers?: Record<string, string>; body?: Buffer | string }): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
	return new Promise((resolve, reject) => {
		const req = request({ host: '127.0.0.1', port, path: options.path ?? '/', method: options.method ?? 'GET', headers: { host: 'dares.example', ...options.headers } }, (res) => {
			let body = ''
			res.on('data', (d) => (body += d))
			res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }))
		})
		req.on('error', reject)
		req.end(options.body)
	})
}

test.each([
	['127.0.0.1', true],
	['127.0.0.2', true],
	['127.255.255.254', true],
	['::1', true],
	['::ffff:127.0.0.1', true],
	['172.17.0.1', false],
	['192.0.2.2', false],
	['10.0.0.1', false],
	['::ffff:192.0.2.2', false],
	['fe80::1', false],
	['128.0.0.1', false],
	[undefined, false],
])('the peer %s counts as loopback: %s', (address, expected) => {
	expect(isLoopbackAddress(address)).toBe(expected)
})

test('the allowed hosts are APP_URL, LOCALE_DOMAINS and ALLOWED_HOSTS, plus loopback only in development or on a loopback APP_URL', () => {
	const hosts = allowedHosts(parseEnv({ ...OPERATOR, APP_URL: 'https://dares.example', LOCALE_DOMAINS: 'wagnisse.de=de', ALLOWED_HOSTS: 'www.dares.example' }))
	expect([...hosts].sort()).toEqual(['dares.example', 'wagnisse.de', 'www.dares.example'])
	expect(isAllowedHost('DARES.example:443', hosts)).toBe(true)
	expect(isAllowedHost('localhost:3000', hosts)).toBe(false)
	expect(isAllowedHost('localhost:3000', allowedHosts(parseEnv({ APP_URL: 'https://dares.example', NODE_ENV: 'development' })))).toBe(true)
	expect(isAllowedHost('127.0.0.1:3000', allowedHosts(parseEnv({})))).toBe(true)
})

test('host header injection: a request for a host the app does not serve gets 421 before routing', async () => {
	for (const host of ['evil.example', 'dares.example.evil.example', 'dares.example@evil.example', 'localhost:3000', '']) {
		expect((await send({ headers: { host } })).status).toBe(421)
	}
	expect((await send({ headers: { host: 'www.dares.example' } })).body).toBe('page')
	expect((await send({ headers: { host: 'dares.example' } })).body).toBe('page')
})

test('/healthz answers whatever Host a load balancer or Docker healthcheck sends', async () => {
	expect((await send({ path: '/healthz', headers: { host: '10.1.2.3:3000' } })).status).toBe(200)
})

test('an absolute-URI request line is refused with 400', async () => {
	expect((await send({ path: 'http://evil.example/en' })).status).toBe(400)
	expect((await send({ path: 'http://dares.example/en' })).status).toBe(400)
})

test('a NUL byte in the path gets 404, in the query 400, and broken percent-encoding never reaches a route', async () => {
	expect((await send({ path: '/en/twitch/%00' })).status).toBe(404)
	expect((await send({ path: '/en/twitch/a%00b' })).status).toBe(404)
	expect((await send({ path: '/en/twitch/%E0%A4%A' })).status).toBe(404)
	expect((await send({ path: '/en?q=%00' })).status).toBe(400)
	expect((await send({ path: '/en?q=%E0%A4%A' })).status).toBe(400)
	expect((await send({ path: '/en?q=%C3%A7' })).body).toBe('page')
})

test('the mailbox takeover: the mailbox answers only a loopback peer that no proxy relayed', async () => {
	expect((await send({ path: '/dev/mailbox' })).body).toBe('mailbox')
	expect((await send({ path: '/dev/mailbox', headers: { 'x-test-peer': '127.0.0.2' } })).body).toBe('mailbox')
	for (const headers of <Array<Record<string, string>>>[
		{ 'x-test-peer': '192.0.2.2' },
		{ 'x-test-peer': '172.17.0.1' },
		{ 'x-test-peer': '192.0.2.2', 'x-forwarded-for': '127.0.0.1' },
		{ 'x-forwarded-for': '203.0.113.5' },
		{ forwarded: 'for=203.0.113.5' },
		{ 'x-real-ip': '203.0.113.5' },
	]) {
		expect((await send({ path: '/dev/mailbox', headers })).status).toBe(404)
		expect((await send({ path: '/dev/mailbox.data', headers })).status).toBe(404)
		expect((await send({ path: '/DEV/Mailbox/', headers })).status).toBe(404)
	}
})

test('huge bodies: a Content-Length over the limit gets 413 before a byte is read', async () => {
	const started = Date.now()
	const res = await new Promise<number>((resolve) => {
		const req = request({ host: '127.0.0.1', port, path: '/echo', method: 'POST', headers: { host: 'dares.example', 'content-length': String(50 * 1024 * 1024) } }, (r) => {
			r.resume()
			resolve(r.statusCode ?? 0)
			req.destroy()
		})
		req.on('error', () => {})
		req.flushHeaders()
	})
	expect(res).toBe(413)
	expect(Date.now() - started).toBeLessThan(2_000)
})

test('huge bodies: a chunked body gets 413 as soon as it passes the limit, and a body within it is read', async () => {
	const big = await new Promise<number>((resolve, reject) => {
		const req = request({ host: '127.0.0.1', port, path: '/echo', method: 'POST', headers: { host: 'dares.example', 'transfer-encoding': 'chunked' } }, (r) => {
			r.resume()
			resolve(r.statusCode ?? 0)
			req.destroy()
		})
		req.on('error', (e) => reject(e))
		const chunk = Buffer.alloc(16 * 1024, 'a')
		let sent = 0
		const pump = () => {
			while (sent < 10 * 1024 * 1024) {
				sent += chunk.length
				if (!req.write(chunk)) return void req.once('drain', pump)
			}
			req.end()
		}
		pump()
	}).catch(() => 'reset')
	expect(big).toBe(413)
	expect((await send({ path: '/echo', method: 'POST', body: 'a'.repeat(60_000) })).body).toBe('read 60000')
})

test('every answer carries the security headers, with a fresh nonce each time', async () => {
	const a = await send({})
	const b = await send({})
	for (const res of [a, b]) {
		expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/)
		expect(res.headers['x-content-type-options']).toBe('nosniff')
		expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/)
	}
	const nonceOf = (h: unknown) => /'nonce-([^']+)'/.exec(String(h))?.[1]
	expect(nonceOf(a.headers['content-security-policy'])).not.toBe(nonceOf(b.headers['content-security-policy']))
})
