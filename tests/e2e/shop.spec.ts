import { expect, test, type Page } from './support/test'
import { readyAccount } from './support/accounts'
import { tr } from './support/i18n'

function buyButton(page: Page, lang: 'en' | 'de', price: string) {
	return page.getByRole('button', { name: tr(lang, 'shop.buy', { price }) })
}

function balance(page: Page) {
	return page.getByTestId('wallet-balance')
}

test('buying a pack through the test checkout credits the wallet once and returns to returnPath', async ({ page }) => {
	await readyAccount(page, 'en', 'shopper')
	await expect(balance(page)).toHaveText(/^◎\s*0$/)
	await page.goto('/en/shop?returnPath=%2Fen%2Ftwitch%2Fmia_plays')
	await expect(page.getByRole('note')).toContainText(tr('en', 'shop.test-body'))
	await buyButton(page, 'en', '€4.99').click()
	await expect(page.getByText(tr('en', 'shop.credited', { coins: '500' }))).toBeVisible()
	await expect(page).toHaveURL(/\/en\/twitch\/mia_plays$/)
	await expect(balance(page)).toHaveText(/^◎\s*500$/)

	await balance(page).click()
	await expect(page).toHaveURL(/\/en\/shop$/)
	const rows = page.getByRole('region', { name: tr('en', 'shop.history-title') }).getByRole('row')
	await expect(rows).toHaveCount(2)
	await expect(rows.nth(1)).toContainText(tr('en', 'shop.status-completed'))

	// Settings lists the same purchase.
	await page.goto('/en/settings')
	const settingsRows = page.getByRole('region', { name: tr('en', 'shop.history-title') }).getByRole('row')
	await expect(settingsRows).toHaveCount(2)
	await expect(settingsRows.nth(1)).toContainText(tr('en', 'shop.pack-coins', { coins: '500' }))
})

test('an outside returnPath is ignored: the purchase stays in the shop', async ({ page }) => {
	await readyAccount(page, 'en', 'shopout')
	for (const hostile of ['https://evil.example/steal', '//evil.example/x', '/\\evil.example']) {
		await page.goto(`/en/shop?returnPath=${encodeURIComponent(hostile)}`)
		await expect(page.getByRole('link', { name: tr('en', 'shop.back') })).toHaveCount(0)
	}
	await buyButton(page, 'en', '€4.99').click()
	await expect(balance(page)).toHaveText(/^◎\s*500$/)
	// Still on this site's shop (with JavaScript the page stays as it was).
	await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/en\/shop(\?|$)/)
})

test('prices and balances follow the page language', async ({ page }) => {
	await readyAccount(page, 'de', 'shopde')
	await page.goto('/de/shop')
	await expect(page.getByRole('heading', { level: 1, name: tr('de', 'shop.title') })).toBeVisible()
	await buyButton(page, 'de', '9,99 €').click()
	await expect(balance(page)).toHaveText(/^◎\s*1\.100$/)
	await expect(page.getByText('49,99 €', { exact: true })).toBeVisible()
})

test('a purchase whose answer is lost after the commit is retried and credits once', async ({ page }, testInfo) => {
	const javaScript = testInfo.project.use.javaScriptEnabled !== false
	await readyAccount(page, 'en', 'shoplost')
	await page.goto('/en/shop')
	let lost = 0
	let posts = 0
	// The first answer is replaced by a 502 after the server has committed, as
	// a proxy timing out would do.
	await page.route(javaScript ? '**/api/shop/buy**' : '**/en/shop', async (route) => {
		if (route.request().method() !== 'POST') return route.continue()
		posts++
		if (lost === 0) {
			lost++
			const response = await route.fetch({ maxRedirects: 0 })
			expect(response.status()).toBeLessThan(500)
			return route.fulfill({ status: 502, contentType: 'text/plain', body: 'Bad gateway' })
		}
		return route.continue()
	})
	await buyButton(page, 'en', '€4.99').click()
	if (!javaScript) {
		// Without JavaScript the browser shows the 502; reloading sends the same form again.
		await expect(page.getByText('Bad gateway')).toBeVisible()
		await page.reload()
	}
	// The retry goes out (the header may already show the credit: the wallet is live).
	await expect.poll(() => posts).toBe(2)
	await expect(balance(page)).toHaveText(/^◎\s*500$/)
	await page.unroute('**')
	await page.goto('/en/shop')
	await expect(balance(page)).toHaveText(/^◎\s*500$/)
	await expect(page.getByRole('region', { name: tr('en', 'shop.history-title') }).getByRole('row')).toHaveCount(2)
})

test('a visitor who tries to buy is asked to sign in first', async ({ page }) => {
	await page.goto('/en/shop')
	await buyButton(page, 'en', '€4.99').click()
	await expect(page).toHaveURL(/\/en\/login/)
	await expect(page.getByText(tr('en', 'gate.must-log-in-buy'))).toBeVisible()
})
