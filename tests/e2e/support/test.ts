import { test as base, type Browser, type Page } from '@playwright/test'

export { expect } from '@playwright/test'
export type { Browser, BrowserContext, Locator, Page, Request, TestInfo } from '@playwright/test'

const waiting = new WeakSet<Page>()

/**
 * Makes the page's `goto` wait, with JavaScript on, for the page's script to
 * take over (the root's HydratedProvider marks <html data-hydrated>,
 * app/utils/use-hydrated.ts): a click before it is a
 * plain link or form post, and under load (CI) a test clicked that soon more
 * than once (an operator's radio button checked, then reset by hydration). A
 * document without a module script (a file, a page a test serves without its
 * scripts) has nothing to wait for; a page that never hydrates (an error
 * before the script) is waited for a few seconds at most.
 */
function waitForHydrationAfterGoto(page: Page): Page {
	if (waiting.has(page)) return page
	waiting.add(page)
	const goto = page.goto.bind(page)
	page.goto = async (url, options) => {
		const response = await goto(url, options)
		await page
			.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated') || !document.querySelector('script[type="module"]'), undefined, {
				timeout: 10_000,
			})
			.catch(() => {})
		return response
	}
	return page
}

/**
 * Playwright's test, whose pages with JavaScript on wait for hydration after
 * each `goto` (see above): the `page` fixture's, and those of every context a
 * test opens itself with `browser.newContext` (another viewer, the operator).
 */
let javaScriptOn = true

export const test = base.extend<{ javaScriptMode: void }, { browser: Browser }>({
	// The running test's JavaScript setting (its project's, or a test.use() of its own), for the contexts below.
	javaScriptMode: [
		async ({ javaScriptEnabled }, provide) => {
			javaScriptOn = javaScriptEnabled !== false
			await provide()
		},
		{ auto: true },
	],
	browser: [
		async ({ browser }, provide) => {
			const newContext = browser.newContext.bind(browser)
			browser.newContext = async (options) => {
				const context = await newContext(options)
				// The `page` fixture's context comes here too, its options set elsewhere: the test's setting says.
				if ((options?.javaScriptEnabled ?? javaScriptOn) !== false) {
					const newPage = context.newPage.bind(context)
					context.newPage = async () => waitForHydrationAfterGoto(await newPage())
				}
				return context
			}
			await provide(browser)
		},
		{ scope: 'worker' },
	],
	page: async ({ page, javaScriptEnabled }, provide) => {
		await provide(javaScriptEnabled === false ? page : waitForHydrationAfterGoto(page))
	},
})
