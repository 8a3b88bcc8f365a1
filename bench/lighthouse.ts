/**
 * Lighthouse on the mobile profile (its default: a mid-range phone, slow 4G
 * and a 4x slower CPU, simulated) for the home page and a live session page,
 * served by the production build on the embedded default with the demo data,
 * as a first-time visitor sees them (no cookie choice yet, so the banner is
 * part of what is measured).
 *
 *   npm run build && npm run bench:lighthouse
 *
 * Prints each page's category scores and the metrics behind the performance
 * score. Not part of `npm test`: scores move with the machine's load, and a
 * timed assertion would be a flaky test, not a budget. Chromium: CHROMIUM_PATH,
 * else Debian's /usr/bin/chromium.
 */
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { type Result } from 'lighthouse'
import { DEMO_SESSIONS } from '../app/db/seed.server'
import { CHROMIUM, CHROMIUM_FLAGS, startDemoServer } from './support'

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3)

const median = (values: number[]) => (values.length === 0 ? Number.NaN : [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!)

async function main() {
	const server = await startDemoServer()
	const { base } = server
	const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS })
	try {
		const live = DEMO_SESSIONS.miaLive
		const pages = { home: `${base}/en`, session: `${base}/en/${live.platform}/${live.channel}` }
		console.log(`Lighthouse (mobile profile, simulated throttling), median of ${RUNS} runs per page, production build on PGlite\n`)
		for (const [name, url] of Object.entries(pages)) {
			await fetch(url) // the first render of a route warms its modules
			const runs: Result[] = []
			for (let i = 0; i < RUNS; i++) {
				const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' }, undefined)
				if (!result) throw new Error(`no result for ${url}`)
				runs.push(result.lhr)
			}
			// A run Lighthouse could not finish (its runtimeError) has no metrics: the median is of the others, and the
			// failures are named.
			const failed = runs.filter((lhr) => lhr.runtimeError || typeof lhr.categories.performance?.score !== 'number')
			const done = runs.filter((lhr) => !failed.includes(lhr))
			const score = (category: string) => median(done.map((lhr) => Math.round((lhr.categories[category]?.score ?? 0) * 100)))
			const metric = (audit: string) => median(done.map((lhr) => lhr.audits[audit]?.numericValue).filter((v): v is number => Number.isFinite(v)))
			console.log(`${name}  ${url}${failed.length ? `  (${failed.length} of ${RUNS} runs failed: ${failed.map((lhr) => lhr.runtimeError?.code ?? 'no performance score').join(', ')})` : ''}`)
			console.log(`  performance ${score('performance')}  accessibility ${score('accessibility')}  best practices ${score('best-practices')}  SEO ${score('seo')}`)
			console.log(
				`  FCP ${Math.round(metric('first-contentful-paint'))} ms  LCP ${Math.round(metric('largest-contentful-paint'))} ms  TBT ${Math.round(metric('total-blocking-time'))} ms  CLS ${metric('cumulative-layout-shift').toFixed(3)}  SI ${Math.round(metric('speed-index'))} ms`,
			)
			console.log(`  transferred ${Math.round(metric('total-byte-weight') / 1024)} KiB\n`)
		}
	} finally {
		chrome.kill()
		server.stop()
	}
}

await main()
