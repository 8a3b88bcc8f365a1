import { expect, test } from '@playwright/test'
import { documentTitle, tr } from './support/i18n'

test.describe('language', () => {
	test('the switcher keeps the page and remembers the choice', async ({ page, context }) => {
		await page.goto('/en/terms')
		await page.getByLabel(tr('en', 'nav.choose-language')).click()
		await page.getByRole('link', { name: 'Deutsch' }).click()
		await expect(page).toHaveURL('/de/terms')
		await expect(page).toHaveTitle(documentTitle('de', 'pages.terms.title'))
		const cookie = (await context.cookies()).find((c) => c.name === 'i18n_redirected')
		expect(cookie?.value).toBe('de')
		// about 365 days
		expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000)
		await page.goto('/')
		await expect(page).toHaveURL('/de')
	})

	test('the switcher keeps the query string', async ({ page }) => {
		await page.goto('/en?q=mia')
		await page.getByLabel(tr('en', 'nav.choose-language')).click()
		await page.getByRole('link', { name: 'Türkçe' }).click()
		await expect(page).toHaveURL('/tr?q=mia')
	})
})

test.describe('detection at /', () => {
	test('Accept-Language picks the language', async ({ browser }) => {
		const context = await browser.newContext({ locale: 'es-ES' })
		const page = await context.newPage()
		await page.goto('/')
		await expect(page).toHaveURL('/es')
		await expect(page).toHaveTitle(documentTitle('es', 'home.title'))
		await context.close()
	})

	test('the cookie wins over Accept-Language', async ({ browser, baseURL }) => {
		const context = await browser.newContext({ locale: 'es-ES' })
		await context.addCookies([{ name: 'i18n_redirected', value: 'tr', url: baseURL! }])
		const page = await context.newPage()
		await page.goto('/')
		await expect(page).toHaveURL('/tr')
		await context.close()
	})

	test('q-values order the browser languages; unsupported ones fall back to English', async ({ request }) => {
		const cases: Array<[string, string]> = [
			['fr-FR, de;q=0.8, es;q=0.9', '/es'],
			['tr-TR,tr;q=0.9,en;q=0.5', '/tr'],
			['fr, ja', '/en'],
		]
		for (const [header, expected] of cases) {
			const response = await request.get('/', { headers: { 'accept-language': header }, maxRedirects: 0 })
			expect(response.status(), header).toBe(302)
			expect(response.headers()['location'], header).toBe(expected)
		}
	})
})
