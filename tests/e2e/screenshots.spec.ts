import { expect, test, type Page, type TestInfo } from '@playwright/test'
import { readyAccount } from './support/accounts'
import { LANGS } from './support/i18n'
import { PUBLIC_PAGES } from './support/pages'

/**
 * A full-page screenshot of every page in every language at a 390 px phone
 * and a 1,440 px screen, kept as test artifacts (test-results/screenshots-*,
 * and attached to the HTML report) for a person to look through; the test
 * itself checks what a screenshot would show broken at a glance: nothing
 * wider than the screen (no sideways scrolling) and no text cut off by the
 * viewport. Runs once, on PGlite with JavaScript (playwright.config.ts,
 * PAGE_ONLY).
 */
const WIDTHS = [390, 1440]
const SIGNED_IN_PAGES = ['/settings', '/shop', '/start-session']

async function shoot(page: Page, info: TestInfo, lang: string, path: string, width: number, tag = '') {
	await page.setViewportSize({ width, height: 900 })
	const response = await page.goto(`/${lang}${path}`)
	expect(response?.status(), path).toBeLessThan(400)
	await page.waitForLoadState('networkidle')
	const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
	expect(overflow, `/${lang}${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0)
	const name = `${lang}${path.replace(/[/?=&%]+/g, '_') || '_home'}${tag}-${width}.png`
	await page.screenshot({ path: info.outputPath(name), fullPage: true })
}

for (const lang of LANGS) {
	test(`${lang}: every page at 390 and 1440 px`, async ({ page }, info) => {
		test.setTimeout(180_000)
		for (const width of WIDTHS) for (const { path } of PUBLIC_PAGES) await shoot(page, info, lang, path, width)
	})
}

test('signed in: the signed-in pages in every language at 390 and 1440 px', async ({ page }, info) => {
	test.setTimeout(180_000)
	await readyAccount(page, 'en', 'shots')
	for (const lang of LANGS) for (const width of WIDTHS) for (const path of SIGNED_IN_PAGES) await shoot(page, info, lang, path, width, '-signed-in')
})
