import { expect, test } from '@playwright/test'
import { readyAccount } from './support/accounts'
import { DECIDED_STORAGE_STATE } from './support/consent'
import { startLiveSession, twitchCreator } from './support/creators'
import { tr } from './support/i18n'
import { expectToast } from './support/toasts'

/**
 * Live updates on the session page (issue "Realtime"): a visitor's page
 * shows that it is live, and a dare written in another browser appears on it
 * without a reload; once the creator stops the session, the page says so.
 * Only with JavaScript: without it the page is right on every reload.
 */
test.describe('the session page, live', { tag: '@js-only' }, () => {
	test('de: a dare written elsewhere appears on a visitor’s page without a reload', async ({ page, browser, baseURL }) => {
		test.setTimeout(120_000)
		const creator = await (await browser.newContext({ baseURL, storageState: DECIDED_STORAGE_STATE })).newPage()
		const login = await twitchCreator(creator, 'de', 'live')
		await startLiveSession(creator, 'de', `Live night ${login}`, {})
		const sessionPage = `/de/twitch/${login}`

		await page.goto(sessionPage)
		await expect(page.getByRole('status').filter({ hasText: tr('de', 'realtime.live') })).toBeVisible()
		// A mark on this document: a reload would lose it.
		await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true))

		const viewer = await (await browser.newContext({ baseURL, storageState: DECIDED_STORAGE_STATE })).newPage()
		await readyAccount(viewer, 'de', 'liveviewer')
		await viewer.goto(sessionPage)
		await viewer.getByLabel(tr('de', 'dares.description')).fill(`Balance a spoon ${login}`)
		await viewer.getByRole('button', { name: tr('de', 'dares.create') }).click()
		await expectToast(viewer, tr('de', 'dares.created'))

		await expect(page.getByRole('listitem').filter({ hasText: `Balance a spoon ${login}` })).toBeVisible({ timeout: 5000 })
		expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)
	})
	test('en: the header balance follows a purchase made in another tab, without a reload', async ({ page, context }) => {
		await readyAccount(page, 'en', 'livewallet')
		await page.goto('/en/terms')
		const balance = page.getByTestId('wallet-balance')
		await expect(balance).toHaveText(/\b0$/)
		await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true))
		// Wait for the subscription: the socket's join reaches the relay before the purchase.
		await page.waitForTimeout(1500)

		const other = await context.newPage()
		await other.goto('/en/shop')
		await other.getByRole('button', { name: tr('en', 'shop.buy', { price: '€4.99' }) }).click()
		await expect(other.getByTestId('wallet-balance')).toHaveText(/500$/)

		await expect(balance).toHaveText(/500$/, { timeout: 5000 })
		expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true)
	})
})
