import { test as base } from '@playwright/test'

export { expect } from '@playwright/test'
export type { Browser, BrowserContext, Locator, Page, Request, TestInfo } from '@playwright/test'

/**
 * Playwright's test, whose `page` waits, after each `goto` with JavaScript on,
 * for the page's script to take over (the root's HydratedProvider marks
 * <html data-hydrated>, app/utils/use-hydrated.ts):
 * a click before it is a plain link or form post, and under load (CI) a test
 * clicked that soon more than once. A page that never hydrates (a file, an
 * error before the script) is waited for a few seconds at most.
 */
export const test = base.extend({
	page: async ({ page, javaScriptEnabled }, provide) => {
		if (javaScriptEnabled !== false) {
			const goto = page.goto.bind(page)
			page.goto = async (url, options) => {
				const response = await goto(url, options)
				await page
					.locator('html[data-hydrated]')
					.waitFor({ state: 'attached', timeout: 10_000 })
					.catch(() => {})
				return response
			}
		}
		await provide(page)
	},
})
