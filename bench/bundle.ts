/**
 * The JavaScript each page makes a browser download, gzipped, as a visitor
 * who has not chosen cookies yet and as a signed-in viewer would load it:
 * every .js response until the network is quiet (lazy chunks such as
 * realtime-js included), gzipped here at level 9 for a figure independent
 * of the server's compression. Prints each page against the budget of
 * issue 11 (home 150 KB, a session page 170 KB).
 *
 *   npm run build && npm run bench:bundle
 */
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { DEMO_SESSIONS } from '../app/db/seed.server'
import { CHROMIUM, CHROMIUM_FLAGS, startDemoServer } from './support'

const live = DEMO_SESSIONS.miaLive
const PAGES: Array<{ name: string; path: string; budgetKb?: number }> = [
	{ name: 'home', path: '/en', budgetKb: 150 },
	{ name: 'session page', path: `/en/${live.platform}/${live.channel}`, budgetKb: 170 },
	{ name: 'terms', path: '/en/terms' },
	{ name: 'shop', path: '/en/shop' },
]

const server = await startDemoServer()
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS })
try {
	console.log('gzipped JavaScript per page (KB = 1,024 bytes), a first visit without a cookie choice\n')
	for (const { name, path, budgetKb } of PAGES) {
		const page = await browser.newPage()
		const files = new Map<string, number>()
		page.on('response', async (response) => {
			if (!new URL(response.url()).pathname.endsWith('.js')) return
			files.set(new URL(response.url()).pathname, gzipSync(await response.body(), { level: 9 }).length)
		})
		await page.goto(`${server.base}${path}`)
		await page.waitForLoadState('networkidle')
		await page.waitForTimeout(1000)
		const total = [...files.values()].reduce((a, b) => a + b, 0) / 1024
		const verdict = budgetKb ? `  budget ${budgetKb} KB: ${total <= budgetKb ? 'within' : `over by ${(total - budgetKb).toFixed(1)} KB`}` : ''
		console.log(`${name.padEnd(14)} ${total.toFixed(1).padStart(6)} KB in ${files.size} files${verdict}`)
		for (const [file, bytes] of [...files].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.BENCH_FILES ?? 8))) console.log(`    ${(bytes / 1024).toFixed(1).padStart(5)}  ${file.split('/').pop()}`)
		await page.close()
	}
} finally {
	await browser.close()
	server.stop()
}
