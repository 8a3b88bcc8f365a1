import { expect, type Page } from '@playwright/test'

/**
 * Waits for a toast: sonner's with JavaScript, the flash slot under the
 * header without. When it does not come, the error says what the page showed
 * instead (the toasts still up, the address, the wallet), so that a failure
 * seen once in CI, whose browser is gone, tells why.
 */
export async function expectToast(page: Page, message: string) {
	try {
		await expect(page.getByText(message).last()).toBeVisible()
	} catch (error) {
		const shown = await page
			.locator('[data-sonner-toast], .flash')
			.allInnerTexts()
			.catch(() => [])
		const wallet = await page
			.getByTestId('wallet-balance')
			.innerText()
			.catch(() => 'none')
		const seen = `toasts shown: ${JSON.stringify(shown.map((text) => text.replace(/\s+/g, ' ').trim()))}; wallet: ${wallet}`
		throw new Error(`${error instanceof Error ? error.message : String(error)}\n\nExpected the toast "${message}" on ${page.url()}; ${seen}`)
	}
}
