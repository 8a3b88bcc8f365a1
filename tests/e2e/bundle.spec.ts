import { expect, test } from './support/test'
import { JS_BUDGET_KB, pageJavaScript } from '../support/page-js'

/**
 * Issue 11's JavaScript budget, for a returning visitor (the cookie choice
 * made, as every spec starts): home within 150 KB gzipped, a session page
 * within 178 KB (React DOM, React Router, realtime-js and i18next are 142 KB
 * of it before any code of ours; React Aria's number field loads when the
 * boost amount is reached for: ADR 038). bench:bundle lists the files. Fails
 * when a change makes either page heavier than its budget. Runs in the `js`
 * project only (playwright.config.ts).
 */
const listing = (files: [string, number][]) => files.map(([file, bytes]) => `${file} ${(bytes / 1024).toFixed(1)} KB`).join('\n')

test('home and a session page stay within their JavaScript budgets', async ({ page }) => {
	const home = await pageJavaScript(page, '/en')
	expect(home.totalKb, listing(home.files)).toBeLessThanOrEqual(JS_BUDGET_KB.home)
	const session = await pageJavaScript(page, '/en/twitch/mia_plays')
	expect(session.totalKb, listing(session.files)).toBeLessThanOrEqual(JS_BUDGET_KB.session)
	// React Aria comes when a number field is reached for, not with the page.
	expect(session.files.map(([file]) => file).filter((file) => /aria/.test(file))).toEqual([])
	// Zod comes with the forms that need it, not with these pages.
	for (const { files } of [home, session]) expect(files.map(([file]) => file).filter((file) => /zod|schemas/.test(file))).toEqual([])
})
