/**
 * The JavaScript each page makes a browser download, gzipped (see
 * tests/support/page-js.ts), for a first visit (no cookie choice yet: the
 * banner's manager loads too) and for a returning visitor (the choice made).
 * Prints each page against the budget of issue 11 (home 150 KB, a session
 * page 172 KB since issue 22, ADR 038; tests/e2e/bundle.spec.ts holds the returning visitor to it).
 *
 *   npm run build && npm run bench:bundle
 *
 * BENCH_FILES (default 8): how many of the largest files to list per page.
 */
import { chromium } from 'playwright-core'
import { DEMO_SESSIONS } from '../app/db/seed.server'
import { JS_BUDGET_KB, pageJavaScript } from '../tests/support/page-js'
import { CHROMIUM, CHROMIUM_FLAGS, startDemoServer } from './support'

const live = DEMO_SESSIONS.miaLive
const PAGES: Array<{ name: string; path: string; budgetKb?: number }> = [
	{ name: 'home', path: '/en', budgetKb: JS_BUDGET_KB.home },
	{ name: 'session page', path: `/en/${live.platform}/${live.channel}`, budgetKb: JS_BUDGET_KB.session },
	{ name: 'terms', path: '/en/terms' },
	{ name: 'shop', path: '/en/shop' },
]
const LIST = Number(process.env.BENCH_FILES ?? 8)

const server = await startDemoServer()
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS })
try {
	for (const visit of ['first visit, no cookie choice', 'returning visitor, cookie choice made'] as const) {
		console.log(`\ngzipped JavaScript per page (KB = 1,024 bytes), ${visit}\n`)
		for (const { name, path, budgetKb } of PAGES) {
			const context = await browser.newContext()
			if (visit.startsWith('returning')) {
				await context.addCookies(
					Object.entries({ cookie_consent: 'true', cookie_consent_ids: 'sign-in~preferences~notices' }).map(([n, value]) => ({ name: n, value, url: server.base })),
				)
			}
			const page = await context.newPage()
			const { totalKb, files } = await pageJavaScript(page, `${server.base}${path}`)
			const verdict = budgetKb ? `  budget ${budgetKb} KB: ${totalKb <= budgetKb ? 'within' : `over by ${(totalKb - budgetKb).toFixed(1)} KB`}` : ''
			console.log(`${name.padEnd(14)} ${totalKb.toFixed(1).padStart(6)} KB in ${files.length} files${verdict}`)
			for (const [file, bytes] of files.slice(0, LIST)) console.log(`    ${(bytes / 1024).toFixed(1).padStart(5)}  ${file}`)
			await context.close()
		}
	}
} finally {
	await browser.close()
	server.stop()
}
