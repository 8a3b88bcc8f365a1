import { randomUUID } from 'node:crypto'
import { expect, test, type Page } from './support/test'
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

	test('en: three session tabs and home follow ten boosts from elsewhere with no request of their own, and show what a fresh page shows', async ({ browser, baseURL }) => {
		test.setTimeout(120_000)
		const open = async () => (await browser.newContext({ baseURL, storageState: DECIDED_STORAGE_STATE })).newPage()
		const creator = await open()
		const login = await twitchCreator(creator, 'en', 'threetabs')
		await startLiveSession(creator, 'en', `Three tabs ${login}`, {})
		const sessionPage = `/en/twitch/${login}`
		const viewer = await open()
		await readyAccount(viewer, 'en', 'threetabsviewer')
		await viewer.goto('/en/shop')
		await viewer.getByRole('button', { name: tr('en', 'shop.buy', { price: '€4.99' }) }).click()
		await expect(viewer.getByTestId('wallet-balance')).toHaveText(/500$/)
		const visitor = await open()
		const booster = await open()
		await readyAccount(booster, 'en', 'threetabsbooster')
		await booster.goto('/en/shop')
		await booster.getByRole('button', { name: tr('en', 'shop.buy', { price: '€4.99' }) }).click()
		await expect(booster.getByTestId('wallet-balance')).toHaveText(/500$/)
		await booster.goto(sessionPage)
		await booster.getByLabel(tr('en', 'dares.description')).fill(`Stand on one leg ${login}`)
		await booster.getByRole('button', { name: tr('en', 'dares.create') }).click()
		await expectToast(booster, tr('en', 'dares.created'))
		const dareId = (await booster.locator('li.dare').first().getAttribute('id'))!.replace(/^dare-/, '')
		const sessionId = await booster.locator('input[name="sessionId"]').first().inputValue()

		// Home, searched to this channel: its card's totals follow too.
		const home = await open()
		await home.goto(`/en?q=${login}`)
		// A visitor's cards go live once they use the page (the JavaScript budget is for a page only looked at);
		// a move before the page's script runs is not seen, so the pointer moves until the socket opens.
		let opened = false
		home.on('websocket', () => void (opened = true))
		for (let x = 20; !opened; x = x === 20 ? 40 : 20) {
			await home.mouse.move(x, x)
			await home.waitForTimeout(100)
		}
		const card = home.getByRole('listitem').filter({ hasText: `Three tabs ${login}` })
		await expect(card).toContainText(tr('en', 'home.session-totals', { dares: 1, coins: '0' }))
		const tabs = [creator, viewer, visitor]
		const requests = new Map<Page, string[]>()
		for (const tab of [...tabs, home]) {
			if (tab !== home) {
				await tab.goto(sessionPage)
				await expect(tab.getByRole('status').filter({ hasText: tr('en', 'realtime.live') })).toBeVisible()
			}
			const seen: string[] = []
			requests.set(tab, seen)
			// Static files (a script loaded on first use, like the toasts') are not the server's work per update.
			tab.on('request', (request) => {
				const { pathname } = new URL(request.url())
				if (!pathname.startsWith('/assets/')) seen.push(`${request.method()} ${pathname}`)
			})
		}
		// Ten boosts of 10 coins as another browser's forms post them, one after the other.
		for (let i = 0; i < 10; i++) {
			const response = await booster.request.post(sessionPage, {
				form: { intent: 'boost', sessionId, dareId, amount: '10', key: `boost:${randomUUID()}:${dareId}` },
				headers: { origin: baseURL! },
				maxRedirects: 0,
			})
			expect(response.status()).toBe(302)
		}
		const pot = (tab: Page) => tab.locator(`#dare-${dareId} .dare__pot [aria-hidden="true"]`)
		const fresh = await open()
		await fresh.goto(sessionPage)
		await expect(pot(fresh)).toHaveText('◎ 100')
		for (const tab of tabs) {
			await expect(pot(tab)).toHaveText('◎ 100', { timeout: 5000 })
			await expect(tab.locator(`#dare-${dareId} .dare__meta`)).toHaveText(await fresh.locator(`#dare-${dareId} .dare__meta`).innerText())
			// Not one request: every update was applied from the socket.
			expect(requests.get(tab)).toEqual([])
		}
		// The signed-in viewer boosts from the page: the form's post, answered with their reading, and nothing read again.
		await viewer.locator(`#dare-${dareId}`).getByRole('button', { name: tr('en', 'dares.boost') }).click()
		await expectToast(viewer, tr('en', 'dares.boosted'))
		await expect(viewer.getByTestId('wallet-balance')).toHaveText(/300$/)
		for (const tab of tabs) await expect(pot(tab)).toHaveText('◎ 300', { timeout: 5000 })
		await expect(viewer.locator(`#dare-${dareId} .dare__meta`)).toContainText(tr('en', 'dares.my-boost', { coins: '200' }))
		expect(requests.get(viewer)).toEqual([`POST /en/twitch/${login}.data`])
		expect(requests.get(visitor)).toEqual([])
		await expect(card).toContainText(tr('en', 'home.session-totals', { dares: 1, coins: '300' }))
		expect(requests.get(home)).toEqual([])
	})
})
