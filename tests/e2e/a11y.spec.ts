import { expect, test, type Page } from './support/test'
import { UNDECIDED_STORAGE_STATE } from './support/consent'
import { accessibilityViolations } from './support/axe'
import { LANGS, tr } from './support/i18n'

/**
 * axe-core on the cookie banner, its list of entries and the settings the
 * footer opens (vanilla-cookieconsent's), in every language: no serious or
 * critical violation of WCAG 2.1 A and AA; so is the banner a browser
 * without JavaScript gets. axe runs as a script in the page, so the projects
 * without JavaScript have nothing to run it in: the server's banner is
 * checked here as such a browser renders it, its HTML without the scripts.
 * Every page, signed out and in, is checked by every-page.spec.ts.
 */
async function visit(page: Page, path: string): Promise<void> {
	const response = await page.goto(path)
	expect(response?.status(), path).toBeLessThan(400)
	await page.waitForLoadState('networkidle')
}

test.describe('the cookie banner', () => {
	test.use({ storageState: UNDECIDED_STORAGE_STATE })

	for (const lang of LANGS) {
		test(`${lang}: the banner and the settings`, async ({ page }) => {
			await visit(page, `/${lang}/terms`)
			const found: string[] = []
			const banner = page.getByRole('region', { name: tr(lang, 'consent.title') })
			await expect(banner).toBeVisible()
			await banner.getByText(tr(lang, 'consent.choose')).click()
			await expect(banner.getByRole('checkbox', { name: new RegExp(tr(lang, 'consent.entries.twitch.name')) })).toBeVisible()
			found.push(...(await accessibilityViolations(page)))
			// From the keyboard: the banner may sit over the footer's button.
			await page.getByRole('button', { name: tr(lang, 'consent.settings-link') }).focus()
			await page.keyboard.press('Enter')
			await expect(page.getByRole('dialog', { name: tr(lang, 'consent.settings-title') })).toBeVisible()
			await page.waitForTimeout(500)
			found.push(...(await accessibilityViolations(page)))
			expect(found).toEqual([])
		})

		test(`${lang}: the banner without JavaScript, its settings open`, async ({ page }) => {
			const path = `/${lang}/imprint?cookie-settings=1`
			const html = await (await page.request.get(path)).text()
			// What a browser without scripts renders: no scripts (and any <noscript> content).
			const noScript = html.replace(/<\/?noscript>/g, '').replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, '')
			await page.route(`**${path}`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: noScript }))
			await page.goto(path)
			await expect(page.getByRole('region', { name: tr(lang, 'consent.title') })).toBeVisible()
			await expect(page.getByRole('checkbox', { name: new RegExp(tr(lang, 'consent.entries.twitch.name')) })).toBeVisible()
			expect(await accessibilityViolations(page)).toEqual([])
		})
	}
})
