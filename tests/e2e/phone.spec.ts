import { expect, test, type Page } from './support/test'
import { readyAccount } from './support/accounts'
import { DECIDED_STORAGE_STATE, UNDECIDED_STORAGE_STATE } from './support/consent'
import { tr } from './support/i18n'

/**
 * A phone first (issue "The live show"): the signed-in viewer's balance is in
 * the header at every width, live, and opens the shop; nothing scrolls
 * sideways at 320 px; the cookie banner is there with the first paint and
 * stays usable over a dialog's backdrop. Each test sets its own widths
 * (this spec runs in the desktop projects).
 */
const TAP_TARGET_PX = 44

async function expectNoSidewaysScroll(page: Page) {
	const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))
	expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
}

async function expectInRow(page: Page, locator: ReturnType<Page['locator']>) {
	await expect(locator).toBeVisible()
	const box = (await locator.boundingBox())!
	const header = (await page.locator('.site-header').boundingBox())!
	expect(box.x).toBeGreaterThanOrEqual(0)
	expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width)
	expect(box.y).toBeGreaterThanOrEqual(header.y)
	expect(box.y + box.height).toBeLessThanOrEqual(header.y + header.height)
	return box
}

test('a signed-in viewer’s balance is in the header at 390 and 320 px and on a wide screen, live, a full tap target that opens the shop', async ({ page, context }) => {
	await readyAccount(page, 'de', 'phonebalance')
	await page.setViewportSize({ width: 390, height: 844 })
	await page.goto('/de/terms')
	const balance = page.getByTestId('wallet-balance')
	await expect(balance).toHaveText(/^◎\s*0$/)
	await expect(balance).toHaveAccessibleName(tr('de', 'wallet.balance-label', { coins: '0' }))
	const box = await expectInRow(page, balance)
	expect(box.height).toBeGreaterThanOrEqual(TAP_TARGET_PX)
	await expectInRow(page, page.locator('.site-menu summary'))
	await expectNoSidewaysScroll(page)

	// Live: a purchase in another tab shows here without a reload.
	await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true))
	// The socket's join reaches the relay before the purchase.
	await page.waitForTimeout(1500)
	const other = await context.newPage()
	await other.goto('/de/shop')
	await other.getByRole('button', { name: tr('de', 'shop.buy', { price: '4,99 €' }) }).click()
	await expect(other.getByTestId('wallet-balance')).toHaveText(/500$/)
	await expect(balance).toHaveText(/^◎\s*500$/, { timeout: 5000 })
	expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)

	// 320 px: the brand gives way to its mark, the balance and the menu stay whole.
	await page.setViewportSize({ width: 320, height: 640 })
	await expectInRow(page, balance)
	await expectInRow(page, page.locator('.site-menu summary'))
	await expect(page.getByRole('banner').getByRole('link', { name: tr('de', 'app.name'), exact: true })).toBeVisible()
	await expectNoSidewaysScroll(page)

	// Wide: still there, next to the account.
	await page.setViewportSize({ width: 1440, height: 900 })
	await expectInRow(page, balance)
	await expect(page.locator('.site-menu')).toBeHidden()

	await page.setViewportSize({ width: 390, height: 844 })
	await balance.click()
	await expect(page).toHaveURL('/de/shop')
})

test('without JavaScript too: the balance in the phone header, from the server', async ({ browser, baseURL }) => {
	const context = await browser.newContext({ baseURL, javaScriptEnabled: false, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, storageState: DECIDED_STORAGE_STATE })
	const page = await context.newPage()
	await readyAccount(page, 'en', 'phonenojs')
	await page.goto('/en/privacy')
	const balance = page.getByTestId('wallet-balance')
	await expect(balance).toHaveText(/^◎\s*0$/)
	expect((await expectInRow(page, balance)).height).toBeGreaterThanOrEqual(TAP_TARGET_PX)
	await expectNoSidewaysScroll(page)
	await context.close()
})

for (const lang of ['en', 'de'] as const) {
	test(`${lang}: signed out at 320 px, "Sign in" and the menu fit in one row, nothing scrolls sideways`, async ({ page }) => {
		await page.setViewportSize({ width: 320, height: 640 })
		await page.goto(`/${lang}/imprint`)
		const signIn = page.getByRole('link', { name: tr(lang, 'nav.sign-in') })
		expect((await expectInRow(page, signIn)).height).toBeGreaterThanOrEqual(TAP_TARGET_PX)
		expect((await expectInRow(page, page.locator('.site-menu summary'))).height).toBeGreaterThanOrEqual(TAP_TARGET_PX)
		await expectNoSidewaysScroll(page)
	})
}

test.describe('the cookie banner', () => {
	test.use({ storageState: UNDECIDED_STORAGE_STATE, viewport: { width: 390, height: 844 } })

	test('is in the first paint: the server’s page shows it before any script has run', async ({ page }) => {
		// The page's scripts never arrive: what shows is what the server sent.
		await page.route(/\.js(\?.*)?$/, (route) => route.abort())
		await page.goto('/en/terms', { waitUntil: 'domcontentloaded' })
		await expect(page.locator('html[data-hydrated]')).toHaveCount(0)
		const banner = page.getByRole('region', { name: tr('en', 'consent.title') })
		await expect(banner).toBeVisible()
		await expect(banner.getByRole('button', { name: tr('en', 'consent.accept-all') })).toBeInViewport()
		await expectNoSidewaysScroll(page)
	})

	test('stays above the sign-in dialog’s backdrop and can be answered there; the dialog stays open @js-only', async ({ page, context }) => {
		await page.goto('/en/terms')
		await page.getByRole('link', { name: tr('en', 'nav.sign-in') }).click()
		const dialog = page.getByRole('dialog', { name: tr('en', 'pages.login.title') })
		await expect(dialog).toBeVisible()
		const banner = page.getByRole('region', { name: tr('en', 'consent.title') })
		const necessary = banner.getByRole('button', { name: tr('en', 'consent.necessary-only') })
		await expect(necessary).toBeVisible()
		// On top: the point at the button's middle is the button, not the backdrop.
		expect(
			await necessary.evaluate((button) => {
				const { x, y, width, height } = button.getBoundingClientRect()
				const hit = document.elementFromPoint(x + width / 2, y + height / 2)
				return hit === button || button.contains(hit)
			}),
		).toBe(true)
		await necessary.click()
		await expect(banner).toHaveCount(0)
		const cookies = await context.cookies()
		expect(cookies.find((c) => c.name === 'cookie_consent')?.value).toBe('true')
		await expect(dialog.getByRole('button', { name: tr('en', 'auth.continue-with-twitch') })).toBeVisible()
	})
})
