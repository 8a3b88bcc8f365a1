import { expect, test } from './support/test'
import { documentTitle, tr } from './support/i18n'

/**
 * The language switcher as a person uses it: a client-side navigation that
 * keeps the page and remembers the choice. Detection at `/` and the
 * switcher's links are tested over HTTP (tests/http/locale.test.ts).
 */
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
