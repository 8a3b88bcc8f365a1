import { expect, test } from '@playwright/test'
import { tr } from './support/i18n'

test.describe('404s', () => {
	test('an invalid platform fails the route check: Page Not Found', async ({ page }) => {
		const response = await page.goto('/en/foo/bar')
		expect(response?.status()).toBe(404)
		await expect(page.getByText('Page Not Found: /en/foo/bar')).toBeVisible()
		await expect(page.getByText(tr('en', 'error.status', { status: 404 }))).toBeVisible()
	})

	test('an unknown language prefix: Page not found', async ({ page }) => {
		const response = await page.goto('/xx')
		expect(response?.status()).toBe(404)
		await expect(page.getByText('Page not found: /xx', { exact: true })).toBeVisible()
	})

	test('unknown paths, in the language of their prefix', async ({ page }) => {
		const response = await page.goto('/de/gibt/es/nicht')
		expect(response?.status()).toBe(404)
		await expect(page.getByText(tr('de', 'error.not-found', { path: '/de/gibt/es/nicht' }))).toBeVisible()
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('de', 'error.not-found-title'))
	})

	test('a valid platform with no such channel, and an unknown session id', async ({ request }) => {
		for (const path of ['/en/twitch/nobody_streams_here', '/en/session/not-a-uuid', '/en/session/00000000-0000-4000-8000-000000000000']) {
			const response = await request.get(path)
			expect(response.status(), path).toBe(404)
			expect(await response.text()).toContain(`Page not found: ${path}`)
		}
	})

	test('the back-home button leaves the error for the localised home', async ({ page }) => {
		await page.goto('/tr/yok')
		await page.getByRole('link', { name: tr('tr', 'error.back-home') }).click()
		await expect(page).toHaveURL('/tr')
		await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr('tr', 'home.heading'))
	})
})

test.describe('cross-site requests', () => {
	test('a form posted from another site is refused before any action runs', async ({ request }) => {
		// A foreign Origin: React Router's own check refuses it (400).
		const foreignOrigin = await request.post('/en/login', {
			headers: { origin: 'https://evil.example' },
			form: { email: 'a@b.co', password: 'whatever' },
			maxRedirects: 0,
		})
		expect(foreignOrigin.status()).toBe(400)
		// No Origin but the browser says cross-site (or a foreign Referer): ours (403, translated).
		const refused: Array<Record<string, string>> = [{ 'sec-fetch-site': 'cross-site' }, { referer: 'https://evil.example/page' }]
		for (const headers of refused) {
			const response = await request.post('/de/login', { headers, form: { email: 'a@b.co' }, maxRedirects: 0 })
			expect(response.status()).toBe(403)
			expect(await response.text()).toContain(tr('de', 'error.cross-site'))
		}
	})
})
