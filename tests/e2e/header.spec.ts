import { expect, test, type Page } from './support/test'
import { confirmedAccount } from './support/accounts'
import { tr } from './support/i18n'
import { uniqueEmail } from './support/mailbox'

/** One row of the header: the brand's height plus its padding, well under two rows. */
const ONE_ROW_PX = 80

async function expectOneRowWithoutOverflow(page: Page) {
	const header = (await page.locator('.site-header').boundingBox())!
	expect(header.height).toBeLessThan(ONE_ROW_PX)
	const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))
	expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
}

async function expectInViewport(page: Page, locator: ReturnType<Page['locator']>) {
	await expect(locator).toBeVisible()
	const box = (await locator.boundingBox())!
	expect(box.x).toBeGreaterThanOrEqual(0)
	expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width)
}

function isPhone(page: Page) {
	return page.viewportSize()!.width <= 640
}

for (const lang of ['en', 'de'] as const) {
	test(`${lang}: signed out, the header is one row with "Sign in"; on a phone its menu reaches the pages and languages`, async ({ page }) => {
		await page.goto(`/${lang}/terms`)
		await expectOneRowWithoutOverflow(page)
		await expectInViewport(page, page.getByRole('link', { name: tr(lang, 'nav.sign-in') }))
		if (!isPhone(page)) {
			await expect(page.locator('.site-menu')).toBeHidden()
			return
		}
		const menu = page.locator('.site-menu')
		await menu.locator('summary', { hasText: tr(lang, 'nav.menu') }).click()
		await expectInViewport(page, menu.getByRole('link', { name: tr(lang, 'nav.shop') }))
		await expect(menu.getByRole('link', { name: lang === 'en' ? 'English' : 'Deutsch' })).toHaveAttribute('aria-current', 'true')
		await menu.getByRole('link', { name: tr(lang, 'nav.shop') }).click()
		await expect(page).toHaveURL(`/${lang}/shop`)
	})
}

test('before a username exists, a long address never pushes "Sign out" off the screen', async ({ page }) => {
	const email = uniqueEmail('header-with-a-rather-long-address-for-a-phone')
	await confirmedAccount(page, 'de', email, 'secret123')
	// A page without the username dialog, so the header is the thing to use.
	await page.goto('/de/privacy')
	await expectOneRowWithoutOverflow(page)
	if (isPhone(page)) {
		const menu = page.locator('.site-menu')
		await menu.locator('summary', { hasText: tr('de', 'nav.menu') }).click()
		await expect(menu.getByText(email)).toBeVisible()
		await expectInViewport(page, menu.getByRole('button', { name: tr('de', 'auth.sign-out') }))
		await menu.getByRole('button', { name: tr('de', 'auth.sign-out') }).click()
	} else {
		await expectInViewport(page, page.getByRole('button', { name: tr('de', 'auth.sign-out') }))
		await page.getByRole('button', { name: tr('de', 'auth.sign-out') }).click()
	}
	await expect(page.getByRole('link', { name: tr('de', 'nav.sign-in') })).toBeVisible()
})
