import { expect, test } from 'vitest'
import { tr } from '#tests/e2e/support/i18n'
import { uniqueEmail } from '#tests/support/unique-email'
import { describeEachServer, rawRequest, Visitor } from './support'

/**
 * The request guard and the security headers of the production server
 * (app/security/): hostile hosts, NUL bytes, oversized bodies, framing,
 * nonces, and open redirects through the sign-in flows. What the browser
 * does with the headers (a refused frame, a blocked inline script, no
 * violation reported) is in tests/e2e/security.spec.ts.
 */
const PAGES = ['/en', '/de', '/en/login', '/en/register', '/en/terms', '/tr/privacy', '/en/shop', '/en/gibt-es-nicht']

const HOSTILE_RETURNS = [
	'/.//evil.example',
	'/..//evil.example',
	'/%2e//evil.example',
	'/en/..//evil.example',
	'//evil.example',
	'/\\evil.example',
	'/%5cevil.example',
	'https://evil.example',
	'//user@evil.example',
	'/\t/evil.example',
]

describeEachServer('security', (server) => {
	test('the security headers are on every HTML page, with a nonce that every script of the page carries', async () => {
		for (const path of PAGES) {
			const response = await new Visitor(server).fetch(path)
			const csp = response.headers.get('content-security-policy') ?? ''
			expect(csp, path).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/)
			expect(csp, path).not.toMatch(/unsafe-inline'[^;]*;?\s*$|script-src[^;]*unsafe/)
			for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'", "form-action 'self'"]) expect(csp, path).toContain(directive)
			expect(response.headers.get('x-content-type-options'), path).toBe('nosniff')
			expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin')
			expect(response.headers.get('cross-origin-opener-policy'), path).toBe('same-origin')
			expect(response.headers.get('permissions-policy'), path).toContain('camera=()')
			const nonce = /'nonce-([^']+)'/.exec(csp)![1]
			const scripts = [...(await response.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
			expect(scripts.length, path).toBeGreaterThan(0)
			for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`)
		}
	})

	test('clickjacking: the settings page (and the sign-in it leads to) refuse to be framed', async () => {
		const visitor = new Visitor(server)
		for (const response of [await visitor.fetch('/en/settings'), (await visitor.follow('/en/settings')).response]) {
			expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
			expect(response.headers.get('x-frame-options')).toBe('DENY')
		}
	})

	test('a NUL byte in a path is a 404 and in a query a 400, never a server error', async () => {
		const visitor = new Visitor(server)
		for (const path of ['/en/twitch/%00', '/en/session/%00', '/en/%00', '/de/twitch/abc%00def']) expect((await visitor.fetch(path)).status, path).toBe(404)
		expect((await visitor.fetch('/en?redirectTo=%00')).status).toBe(400)
		expect((await visitor.fetch('/en/login?redirectTo=/en%00')).status).toBe(400)
	})

	test('host header injection: a request for another host gets 421, /healthz answers for any', async () => {
		expect((await rawRequest(server, '/en', { headers: { host: 'evil.example' } })).status).toBe(421)
		expect((await rawRequest(server, '/healthz', { headers: { host: 'evil.example' } })).status).toBe(200)
	})

	test('a body over MAX_BODY_BYTES is refused with 413, announced or sent in chunks', async () => {
		const headers = { 'content-type': 'application/x-www-form-urlencoded', origin: server.url }
		const tooLarge = Buffer.from(`email=${'a'.repeat(1024 * 1024)}`)
		const announced = await rawRequest(server, '/en/login', { method: 'POST', headers: { ...headers, 'content-length': String(tooLarge.length) }, chunks: [tooLarge] })
		expect(announced.status).toBe(413)
		// No length announced: counted as it arrives.
		const chunks = Array.from({ length: 17 }, () => Buffer.alloc(64 * 1024, 97))
		const chunked = await rawRequest(server, '/en/login', { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' }, chunks })
		expect(chunked.status).toBe(413)
	})

	test('open redirect: hostile return paths never leave the site after signing in or confirming', async () => {
		const visitor = Visitor.decided(server)
		await visitor.signUpAndConfirm('en', uniqueEmail('redirect'), 'pw-redirect-check-123')
		const origin = new URL(server.url).origin
		for (const hostile of HOSTILE_RETURNS) {
			// A signed-in visitor on the sign-in and sign-up pages is sent on to the return path.
			for (const path of ['/en/login', '/en/register']) {
				const response = await visitor.fetch(`${path}?${new URLSearchParams({ redirectTo: hostile })}`)
				expect(response.status, `${path} ${hostile}`).toBe(302)
				expect(new URL(response.headers.get('location')!, `${origin}${path}`).origin, `${path} ${hostile}`).toBe(origin)
			}
			// The confirmation page's links on.
			const confirm = await visitor.page(`/en/confirm?${new URLSearchParams({ 'redirect-to': hostile })}`)
			expect(confirm.status, hostile).toBe(200)
			expect(confirm.screen.getByRole('link', { name: tr('en', 'auth.email-confirmed-to-home') }).getAttribute('href'), hostile).toBe('/en')
			for (const href of confirm.hrefs()) expect(new URL(href, `${origin}/en/confirm`).origin, `confirm ${hostile}: ${href}`).toBe(origin)
		}
	})
})
