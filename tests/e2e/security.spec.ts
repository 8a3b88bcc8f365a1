import { expect, test, type Page } from './support/test'
import { signIn } from './support/accounts'
import { uniqueEmail } from './support/mailbox'

/**
 * What the browser does with the security headers (app/security/): a framed
 * page is refused, an inline script without the nonce does not run, and no
 * page reports a violation. The headers themselves, the request guard and
 * the open-redirect checks are tested over HTTP (tests/http/security.test.ts).
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

test('clickjacking: the settings page cannot be framed by another site', { tag: '@js-only' }, async ({ page, baseURL }) => {
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

test('script injection: an inline script without the nonce does not run, the app’s own scripts do', { tag: '@js-only' }, async ({ page, baseURL }) => {
	const violations = await watchViolations(page)
	await page.route(`${baseURL}/en/terms`, async (route) => {
		const response = await route.fetch()
		const body = (await response.text()).replace('</body>', '<script>window.__injected = true</script></body>')
		await route.fulfill({ response, body })
	})
	await page.goto('/en/terms')
	await page.waitForLoadState('networkidle')
	expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined()
	// Hydrated: React Router's route modules were loaded by the nonce'd scripts.
	expect(await page.evaluate(() => Object.keys((window as unknown as { __reactRouterRouteModules?: object }).__reactRouterRouteModules ?? {}).length)).toBeGreaterThan(0)
	expect(violations.join('\n')).toContain('script-src')
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
