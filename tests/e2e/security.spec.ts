import { expect, test, type Page } from '@playwright/test'
import { signIn, signUpAndConfirm } from './support/accounts'
import { uniqueEmail } from './support/mailbox'

/**
 * The request guard and the security headers against the real production
 * server (app/security/): hostile hosts, NUL bytes, framing, scripts without
 * the nonce, and open redirects through the sign-in flows.
 */

const PAGES = ['/en', '/de', '/en/login', '/en/register', '/en/terms', '/tr/privacy', '/en/shop', '/en/gibt-es-nicht']

/** Every Content-Security-Policy violation the page reports, as text. */
async function watchViolations(page: Page): Promise<string[]> {
	const violations: string[] = []
	page.on('console', (message) => {
		if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
	})
	await page.exposeFunction('__reportViolation', (text: string) => violations.push(text))
	await page.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (e) => {
			;(window as unknown as { __reportViolation(t: string): void }).__reportViolation(
				`${e.violatedDirective} blocked ${e.blockedURI} on ${location.pathname}`,
			)
		})
	})
	return violations
}

test('the security headers are on every HTML page, with a nonce that every script of the page carries', async ({ request }) => {
	for (const path of PAGES) {
		const response = await request.get(path)
		const headers = response.headers()
		const csp = headers['content-security-policy'] ?? ''
		expect(csp, path).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/)
		expect(csp, path).not.toMatch(/unsafe-inline'[^;]*;?\s*$|script-src[^;]*unsafe/)
		for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'", "form-action 'self'"]) {
			expect(csp, path).toContain(directive)
		}
		expect(headers['x-content-type-options'], path).toBe('nosniff')
		expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin')
		expect(headers['cross-origin-opener-policy'], path).toBe('same-origin')
		expect(headers['permissions-policy'], path).toContain('camera=()')
		const nonce = /'nonce-([^']+)'/.exec(csp)![1]
		const scripts = [...(await response.text()).matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
		expect(scripts.length, path).toBeGreaterThan(0)
		for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`)
	}
})

test('clickjacking: the settings page cannot be framed by another site', async ({ page, baseURL }) => {
	const response = await page.request.get('/en/settings', { maxRedirects: 0 })
	expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
	expect(response.headers()['x-frame-options']).toBe('DENY')
	// A page of another origin (about:blank here) frames the settings page and the login it leads to.
	await page.setContent(`<iframe id="victim" src="${baseURL}/en/settings" width="800" height="600"></iframe>`)
	const frame = page.frame({ url: (url) => url.href !== 'about:blank' }) ?? page.frames()[1]!
	await frame.waitForLoadState().catch(() => {})
	// Chromium replaces a refused frame with its error page: none of the app's content is there.
	await expect.poll(async () => frame.locator('main').count().catch(() => 0)).toBe(0)
	await expect.poll(async () => frame.locator('form').count().catch(() => 0)).toBe(0)
})

test('script injection: an inline script without the nonce does not run, the app’s own scripts do', async ({ page, baseURL }, testInfo) => {
	const violations = await watchViolations(page)
	await page.route(`${baseURL}/en/terms`, async (route) => {
		const response = await route.fetch()
		const body = (await response.text()).replace('</body>', '<script>window.__injected = true</script></body>')
		await route.fulfill({ response, body })
	})
	await page.goto('/en/terms')
	await page.waitForLoadState('networkidle')
	expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined()
	if (testInfo.project.use.javaScriptEnabled) {
		// Hydrated: React Router's route modules were loaded by the nonce'd scripts.
		expect(await page.evaluate(() => Object.keys((window as unknown as { __reactRouterRouteModules?: object }).__reactRouterRouteModules ?? {}).length)).toBeGreaterThan(0)
		expect(violations.join('\n')).toContain('script-src')
	}
})

test('no page reports a Content-Security-Policy violation, including navigation and a rejected form', async ({ page }) => {
	test.setTimeout(180_000)
	const violations = await watchViolations(page)
	for (const path of PAGES) {
		await page.goto(path)
		await page.waitForLoadState('networkidle')
	}
	// A form post the server rejects (its error shown from the server, or by the script), then a link.
	await signIn(page, 'en', uniqueEmail('csp'), 'not-the-password-123')
	await page.waitForLoadState('networkidle')
	await page.getByRole('link', { name: /terms/i }).first().click()
	await page.waitForLoadState('networkidle')
	expect(violations).toEqual([])
})

test('a NUL byte in a path is a 404 and in a query a 400, never a server error', async ({ request }) => {
	for (const path of ['/en/twitch/%00', '/en/session/%00', '/en/%00', '/de/twitch/abc%00def']) {
		expect((await request.get(path)).status(), path).toBe(404)
	}
	expect((await request.get('/en?redirectTo=%00')).status()).toBe(400)
	expect((await request.get('/en/login?redirectTo=/en%00')).status()).toBe(400)
})

test('host header injection: a request for another host gets 421, /healthz answers for any', async ({ request }) => {
	expect((await request.get('/en', { headers: { host: 'evil.example' } })).status()).toBe(421)
	expect((await request.get('/healthz', { headers: { host: 'evil.example' } })).status()).toBe(200)
})

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

test('open redirect: hostile return paths never leave the site after signing in or confirming', async ({ page, baseURL }) => {
	// A sign-up, then thirty requests.
	test.setTimeout(180_000)
	await signUpAndConfirm(page, 'en', uniqueEmail('redirect'), 'pw-redirect-check-123')
	const origin = new URL(baseURL!).origin
	for (const hostile of HOSTILE_RETURNS) {
		// A signed-in visitor on the sign-in and sign-up pages is sent on to the return path.
		for (const path of ['/en/login', '/en/register']) {
			const response = await page.request.get(`${path}?${new URLSearchParams({ redirectTo: hostile })}`, { maxRedirects: 0 })
			expect(response.status(), `${path} ${hostile}`).toBe(302)
			expect(new URL(response.headers().location!, `${origin}${path}`).origin, `${path} ${hostile}`).toBe(origin)
		}
		// The confirmation page's links on.
		const html = await (await page.request.get(`/en/confirm?${new URLSearchParams({ 'redirect-to': hostile })}`)).text()
		for (const [, href] of html.matchAll(/<a\b[^>]*href="([^"]*)"/g)) {
			const decoded = href!.replace(/&amp;/g, '&')
			expect(new URL(decoded, `${origin}/en/confirm`).origin, `confirm ${hostile}: ${decoded}`).toBe(origin)
		}
	}
})
