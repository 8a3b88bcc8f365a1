import { expect, test } from './support/test'
import { PUBLIC_PAGES } from './support/pages'

/**
 * The server renders for a 1,024 px viewport and the layout is CSS alone, so
 * nothing moves when the page hydrates: cumulative layout shift stays under
 * 0.1 on every page, on a phone and on a wide screen (JavaScript on; the
 * projects without JavaScript have no hydration to measure).
 */
for (const width of [390, 1440]) {
	test(`no page shifts while it loads and hydrates at ${width} px`, async ({ page }) => {
		test.setTimeout(120_000)
		await page.setViewportSize({ width, height: 900 })
		await page.addInitScript(() => {
			const w = window as unknown as { __cls: number }
			w.__cls = 0
			new PerformanceObserver((list) => {
				for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>) {
					if (!entry.hadRecentInput) w.__cls += entry.value
				}
			}).observe({ type: 'layout-shift', buffered: true })
		})
		const shifts: string[] = []
		for (const { path } of PUBLIC_PAGES) {
			await page.goto(`/en${path}`)
			await page.waitForLoadState('networkidle')
			const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls)
			if (cls >= 0.1) shifts.push(`${path}: ${cls.toFixed(3)}`)
		}
		expect(shifts).toEqual([])
	})
}
